"""What the CLI offers, read once from the rule systems and kept in a small cache file.

The commands are generated from the systems' command classes (``cli/commands.py``), but importing the
domain, its aggregates and all its pydantic models costs most of a second. So the catalogue (CLI words,
their inputs and help, the routes a server answers them on, the schemas of the answers) is described
here as plain JSON, and written to ``$STAKES_CACHE_DIR`` (default ``$XDG_CACHE_HOME/stakes``) under a
fingerprint of the source files it comes from. ``stakes --help`` and every command against a server read
only that file; the domain is imported when the sources changed, or when the command runs embedded.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

ROOT = Path(__file__).resolve().parent.parent
#: The sources the catalogue is read from: a change to any of them makes a new one.
SOURCES = ("domain", "adapters/systems", "adapters/plugin.py", "adapters/answers.py", "adapters/schemas.py", "cli")
FORMAT = 4  # 2: each system's CLI module by its dotted name (``cli_modules``, issue 30); 3: ``units``; 4: ``random``


def cache_dir() -> Path:
    explicit = os.environ.get("STAKES_CACHE_DIR")
    if explicit:
        return Path(explicit)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "stakes"


def fingerprint() -> str:
    digest = hashlib.blake2b(str(FORMAT).encode(), digest_size=12)
    for source in SOURCES:
        path = ROOT / source
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for file in files:
            digest.update(str(file.relative_to(ROOT)).encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()


@cache
def load() -> dict[str, Any]:
    """The catalogue: from the cache when the sources are unchanged, else built (and cached) anew."""
    stamp = fingerprint()
    path = cache_dir() / f"cli-catalogue-{stamp}.json"
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        pass
    found = json.loads(json.dumps(build()))  # the same shape as when read back from the cache
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(found))
        tmp.replace(path)
        for old in path.parent.glob("cli-catalogue-*.json"):
            if old != path:
                old.unlink(missing_ok=True)
    except OSError:
        pass  # a read-only home: build it each time
    return found


# -- schemas named by module and class, so a client imports only the one it parses ----------------------
def ref(model: Any) -> Any:
    """A schema as JSON: ``"module:Class"``, ``{"list": …}`` or a list of alternatives (a union)."""
    if get_origin(model) is list:
        return {"list": ref(get_args(model)[0])}
    if get_origin(model) is Union or type(model).__name__ == "UnionType":
        return [ref(m) for m in get_args(model)]
    return f"{model.__module__}:{model.__qualname__}"


def model(spec: Any) -> Any:
    """The schema a :func:`ref` names, importing only its module."""
    import importlib

    if isinstance(spec, dict):
        return list[model(spec["list"])]  # type: ignore[misc]
    if isinstance(spec, list):
        models = tuple(model(s) for s in spec)
        return models[0] if len(models) == 1 else Union[models]  # noqa: UP007
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)


# -- building it from the rule systems ------------------------------------------------------------------
def _kind(annotation: Any) -> str:
    """What typer reads for a field: ``int``, ``bool``, ``str`` or ``list`` (of text)."""
    from typing import Annotated

    args = [a for a in get_args(annotation) if a is not type(None)]
    if get_origin(annotation) not in (None, list, dict, Literal, Annotated) and len(args) == 1:
        annotation = args[0]  # Optional[X] -> X
    if get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    if get_origin(annotation) is list:
        return "list"
    return {int: "int", bool: "bool"}.get(annotation, "str")


def _command(words: str, classes: list[Any], fixed: dict[str, Any], parser_kinds: dict[str, str],
             options: dict[Any, Mapping[str, str]], names: Mapping[Any, str] | None = None,
             serves: int = 1) -> dict[str, Any]:
    """One CLI command from the classes with these words. ``names``: each system class's system, by name;
    ``serves``: how many systems the words serve. A command every system shares says what the shared class
    says, and an input only some systems take names them ("<the system's name>: …"), so that the help
    read in one system's campaign does not speak of another's rules."""
    from domain.kernel.common import SHARED

    names = names or {}
    first = classes[0]
    shared = next((c for c in SHARED if all(issubclass(k, c) for k in classes)), None)
    among = sorted({names[c] for c in classes if c in names})  # the systems whose own classes these are
    hidden = set(fixed) | set(first.actor_fields) | {"action"}
    fields: dict[str, tuple[Any, Any]] = {}
    for cls in classes:
        for name, info in cls.model_fields.items():
            if name not in hidden:
                fields.setdefault(name, (info, cls))
    positional = [n for n in first.cli_arguments if n in fields]
    params = []
    for name in positional + [n for n in fields if n not in positional]:
        info, cls = fields[name]
        parser = cls.cli_parsers.get(name)
        if parser is not None:
            kind = parser_kinds.get(parser, "str")
        else:
            kind = "str" if name in cls.lookups else _kind(info.annotation)
        option = "--" + name.replace("_", "-")
        if name not in positional:  # the command's or its system's word for it (--characteristic), ADR 0030
            option = cls.cli_options.get(name) or options.get(cls, {}).get(name, option)
        # C-4: a seed the move requires may be left out where its command says so (``cli_random``): the CLI draws
        # 128 random bits on this machine, as the web page's button does in the browser (never the server)
        random = all(name in c.cli_random for c in classes)
        taking = sorted({names[c] for c in classes if c in names and name in c.model_fields})
        whose = f"{' and '.join(taking)}: " if serves > 1 and taking and len(taking) < serves and (
            shared is None or name not in shared.model_fields) else ""
        params.append({
            "name": name, "kind": kind, "positional": name in positional, "option": option, "parser": parser,
            "lookup": cls.lookups.get(name), "random": random,
            "required": name not in cls.lookups and not random and all(
                name in c.model_fields and c.model_fields[name].is_required() for c in classes),
            "help": whose + (info.description or "") + (" Left out: 128 random bits drawn on this machine (C-4)."
                                                 if random else ""),
        })
    doc = (shared if shared is not None and (len(classes) > 1 or serves > 1) else first).__doc__ or ""
    if shared is None and len(among) > 1:  # one command line, each system's own move: each says what it does
        doc = " ".join(f"{names[c]}: {' '.join((c.__doc__ or '').strip().split(chr(10) + chr(10))[0].split())}"
                       for c in classes if c in names)  # one paragraph: the help says a command's first
    # The kinds of unit that take it (issue 31: a command left without an id goes to one of them); None when an
    # action's class names none (any unit may). A campaign command: the kinds whose legal actions may list it.
    takes = [c.units if c.action_name() is not None else c.listed_in for c in classes]
    units = None if first.action_name() is not None and not all(takes) else \
        sorted({u.__name__ for found in takes for u in found})
    return {"words": words, "fixed": fixed, "params": params, "doc": doc, "verb": first.verb, "units": units,
            "action": first.action_name(), "arguments": list(first.cli_arguments),
            "listed": any(c.listed_in for c in classes),  # a unit's legal actions may list it (issue 31)
            "new_unit": first.answer == "unit" and first.draws_secret,
            "confirm": list(first.cli_confirm) if first.cli_confirm else None,
            "random": sorted({n for c in classes for n in c.cli_random})}


def build() -> dict[str, Any]:
    """The catalogue, read from the registry, every system's commands and its adapter and CLI modules."""
    from adapters import answers
    from adapters.systems import edge
    from cli import systems as system_cli
    from domain.kernel.common import SHARED
    from domain.kernel.registry import default_system, edge_module_name, supported, systems

    modules = [edge_module_name(s, "cli") for s in supported()]
    parser_kinds = {"numbers": "str", "positions": "str"}
    options: dict[Any, Mapping[str, str]] = {}
    system_names = {c: s.name for s in supported() for c in (*s.commands(), *s.actions())}
    for s in supported():
        cli_of = system_cli.of(edge_module_name(s, "cli"))
        for name, (kind, _) in cli_of.parsers.items():
            parser_kinds[name] = "list" if get_origin(kind) is list else "str"
        options.update({c: cli_of.options for c in (*s.commands(), *s.actions())})
    found: dict[str, tuple[list[Any], dict[str, Any]]] = {}
    owners: dict[str, set[str]] = {}  # the systems each command line serves (``stakes --help`` groups by them)
    every = [s.id for s in supported()]
    for cls, owner in [(c, [s.id]) for s in supported() for c in (*s.commands(), *s.actions())] + \
            [(c, every) for c in SHARED]:
        for words, fixed in ((cls.cli, {}), *cls.cli_variants) if cls.cli else cls.cli_variants:
            classes, _ = found.setdefault(words, ([], fixed))
            owners.setdefault(words, set()).update(owner)
            if cls not in classes and not any(issubclass(c, cls) for c in classes):
                classes.append(cls)
    settings: dict[str, dict[str, Any]] = {}
    routes: dict[str, dict[str, Any]] = {}
    answer_models: dict[str, dict[str, Any]] = {}
    for system in supported():
        for field, info in (system.settings_model.model_fields if system.settings_model else {}).items():
            settings.setdefault(field, {"name": field, "kind": _kind(info.annotation),
                                        "help": f"{system.name}: {info.description or ''}"})
        own = {c.verb: c for c in system.commands()}
        verbs = {**{c.verb: c for c in SHARED if c.action_name() is None}, **own}
        routes[system.id] = {verb: {"route": c.route, "actor_fields": list(c.actor_fields), "answer": c.answer}
                             for verb, c in verbs.items()}
        names = {c.answer for c in verbs.values()} | {"unit", "sheet"}
        answer_models[system.id] = {
            name: {"player_added": ref(edge(system.id).SHEET)} if name == "player-added"
            else ref(answers.find(system.id, name).model) for name in names}
    reads = [{"name": r.name, "path": r.path, "model": ref(r.model), "cli": r.cli, "doc": r.doc, "paged": r.paged,
              "system": system.id} for system in supported() for r in edge(system.id).READS]
    return {
        "systems": [{"id": s.id, "name": s.name, "supported": s.supported} for s in systems()],
        "cli_modules": modules, "default": default_system(), "settings": list(settings.values()),
        "commands": [{**_command(words, classes, fixed, parser_kinds, options, system_names, len(owners[words])),
                      "systems": sorted(owners[words])}
                     for words, (classes, fixed) in found.items()],
        "reads": reads, "routes": routes, "answers": answer_models,
        "instead": {s.id: dict(s.instead) for s in supported() if s.instead},
    }
