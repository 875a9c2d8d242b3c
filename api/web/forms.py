"""HTML forms generated from command classes, and form posts turned back into command inputs.

Nothing here knows a rule system: a form is built from the command's JSON schema (its pydantic
fields) and from the limits a legal action carries (``min``, ``max``, ``step``, ``choices``,
``dice``). The command class validates what comes back, strictly, exactly as over JSON; the form
only converts text to the JSON types the schema asks for (an integer, a list of integers …).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from domain.errors import RuleViolation
from domain.kernel.commands import Command


@dataclass
class Field:
    name: str
    label: str
    kind: str  # number, text, textarea, checkbox, select, numbers, words, json
    required: bool = False
    help: str = ""
    options: list[str] = field(default_factory=list)
    min: int | None = None
    max: int | None = None
    step: int | None = None
    value: str = ""


def _scalar(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema of a field that may be null, without the null."""
    options = [s for s in schema.get("anyOf", [schema]) if s.get("type") != "null"]
    return options[0] if len(options) == 1 else schema


def _kind(schema: dict[str, Any]) -> tuple[str, list[str]]:
    s = _scalar(schema)
    if "enum" in s or "const" in s:
        return "select", [str(v) for v in s.get("enum", [s.get("const")])]
    kind = s.get("type")
    if kind == "integer":
        return "number", []
    if kind == "boolean":
        return "checkbox", []
    if kind == "string":
        return ("textarea" if (s.get("maxLength") or 0) > 200 else "text"), []
    if kind == "array":
        item = s.get("items", {}).get("type")
        return ("numbers" if item == "integer" else "words" if item == "string" else "json"), []
    return "json", []


def fields(cls: type[Command], skip: tuple[str, ...] = ("action",), limits: dict[str, Any] | None = None) -> list[Field]:
    """The form fields of a command or action; ``limits``: a legal action's ``min``/``max``/``choices``…"""
    schema = cls.model_json_schema()
    required = set(schema.get("required", []))
    limits = limits or {}
    out = []
    for name, prop in schema.get("properties", {}).items():
        if name in skip:
            continue
        kind, options = _kind(prop)
        f = Field(name=name, label=name.replace("_", " ").capitalize(), kind=kind, required=name in required,
                  help=prop.get("description", ""), options=options)
        # the choices fill the field the legal action names (``field``), else any field that takes them
        choices = limits.get("choices") if limits.get("field") in (None, name) else None
        if choices and kind in ("text", "select") and not options:
            f.kind, f.options = "select", [str(c) for c in choices]
        elif choices and kind in ("numbers", "words"):
            f.kind, f.options = "multi-" + kind, [str(c) for c in choices]
        if kind == "number":
            f.min, f.max, f.step = limits.get("min"), limits.get("max"), limits.get("step")
            if limits.get("min") is not None:
                f.value = str(limits["min"])
        if kind == "numbers" and limits.get("dice"):
            f.help = f"{limits['dice']} dice, e.g. 3,5" + (f" — {f.help}" if f.help else "")
        if limits.get("member") and name in ("member", "seat", "side"):  # whose move it is (a House check)
            f.value = str(limits["member"])
        out.append(f)
    return out


def _words(text: str) -> list[str]:
    return [w.strip() for w in text.replace("\n", ",").split(",") if w.strip()]


def _keyed(cls: type[Command], name: str, form: dict[str, list[str]]) -> dict[str, Any] | None:
    """A mapping field posted one control per key, as ``NAME.KEY`` (a stepper per name): blank keys left out,
    whole numbers where the schema's values are integers. None when no such control was posted."""
    prefix = f"{name}."
    posted = {k[len(prefix):]: v[-1].strip() for k, v in form.items() if k.startswith(prefix) and v}
    if not posted:
        return None
    values = _scalar(cls.model_json_schema().get("properties", {}).get(name, {})).get("additionalProperties", {})
    out: dict[str, Any] = {}
    for key, raw in posted.items():
        if not raw:
            continue
        if isinstance(values, dict) and values.get("type") == "integer":
            try:
                out[key] = int(raw)
            except ValueError:
                raise RuleViolation(f"{name} for {key}: enter a whole number, not {raw!r}", ruling=cls.ruling) from None
        else:
            out[key] = raw
    return out


def _pairs(cls: type[Command], f: Field, form: dict[str, list[str]]) -> dict[str, Any]:
    """A mapping field (a name -> a number, say) from pairs of controls; a pair with a blank key is left out,
    and a value is a whole number where the schema's values are."""
    schema = _scalar(cls.model_json_schema().get("properties", {}).get(f.name, {}))
    whole = (schema.get("additionalProperties") or {}).get("type") == "integer"
    out: dict[str, Any] = {}
    for key, value in zip(form.get(f"{f.name}__key", []), form.get(f"{f.name}__value", []), strict=False):
        if not key.strip():
            continue
        try:
            out[key.strip()] = int(value.strip()) if whole else value
        except ValueError:
            raise RuleViolation(f"{f.label}: enter a whole number for {key.strip()!r}, not {value!r}",
                                ruling=cls.ruling) from None
    return out


def _is_mapping(cls: type[Command], name: str) -> bool:
    """Whether a field is a mapping (``dict[str, int]``: any keys), not an object with fields of its own."""
    schema = _scalar(cls.model_json_schema().get("properties", {}).get(name, {}))
    return isinstance(schema.get("additionalProperties"), dict)


def _nested(name: str, form: dict[str, list[str]]) -> dict[str, Any]:
    """An object field posted as controls of its own (``side.members``, ``side.name``): each
    inner field as text, or as a list of texts where ``<name>.<inner>__multi`` is posted too (checkboxes);
    blanks are left out."""
    out: dict[str, Any] = {}
    prefix = name + "."
    for key, values in form.items():
        if not key.startswith(prefix) or key.endswith("__multi"):
            continue
        inner = key[len(prefix):]
        given = [v.strip() for v in values if v and v.strip()]
        if f"{key}__multi" in form:
            if given:
                out[inner] = given
        elif given:
            out[inner] = given[0]
    return out


def payload(cls: type[Command], form: dict[str, list[str]], skip: tuple[str, ...] = ("action",)) -> dict[str, Any]:
    """A form post (every value of each name) as the command's JSON inputs; blank fields are inputs left out.
    Checkboxes of a list field post one value each. A mapping posts one control per key (``NAME.KEY``) or
    pairs (``NAME__key``, ``NAME__value``); an object field (a JSON object with fields of its own) may come as
    controls of its own, ``<field>.<inner>`` (see ``_nested``), so nobody types JSON. The command validates
    what comes out."""
    out: dict[str, Any] = {}
    for f in fields(cls, skip):
        if f"{f.name}__key" in form:  # a mapping posted as pairs of controls: NAME__key and NAME__value, in order
            out[f.name] = _pairs(cls, f, form)
            continue
        values = [v for v in form.get(f.name, []) if v is not None]
        if len(values) > 1 or f"{f.name}__multi" in form:
            if f.kind in ("words", "multi-words"):  # one item per posted value: a name may hold a comma
                out[f.name] = [v.strip() for v in values if v.strip()]
                continue
            values = [",".join(values)]
            if not values[0]:
                out[f.name] = []
                continue
        raw = values[0] if values else ""
        if f.kind == "json" and not raw.strip():
            if _is_mapping(cls, f.name):
                keyed = _keyed(cls, f.name, form)
                if keyed is not None:
                    out[f.name] = keyed
            else:
                nested = _nested(f.name, form)
                if nested:
                    out[f.name] = nested
            continue
        if f.kind == "checkbox":  # a ticked box posts "true"; a button may post "false" (a yes/no choice)
            if raw:
                out[f.name] = raw.strip().lower() not in ("false", "0", "no", "off")
            continue
        if not raw.strip():
            continue
        try:
            if f.kind == "number":
                out[f.name] = int(raw.strip())
            elif f.kind == "numbers":
                out[f.name] = [int(w) for w in _words(raw.replace(" ", ","))]
            elif f.kind == "words":
                out[f.name] = _words(raw)
            elif f.kind == "json":
                out[f.name] = json.loads(raw)
            else:
                out[f.name] = raw
        except (ValueError, RecursionError):  # RecursionError: JSON nested too deep to be anyone's input
            what = {"number": "a whole number", "numbers": "whole numbers separated by commas",
                    "json": "JSON"}.get(f.kind, "text")
            raise RuleViolation(f"{f.label}: enter {what}, not {raw!r}", ruling=cls.ruling) from None
    return out
