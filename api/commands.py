"""Routes generated from the command classes (``domain/kernel/commands.py``): one route per command
route, one typed request schema per command, one response schema per answer; nothing per system.

A route shared by several systems (``POST /players``) takes the union of their request schemas; the
campaign's system picks the class that validates the body, so a refusal names that system's ruling.
Moves in a unit of resolution share ``POST /challenges/{unit}/actions``, documented as the union of
every action's schema.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterable
from functools import reduce
from operator import or_
from typing import Annotated, Any, Literal
from uuid import UUID

from fastapi import APIRouter, Body, Depends, Query, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ConfigDict, create_model

from adapters import answers
from adapters.plugin import Page
from adapters.service import Stakes
from adapters.systems import edges
from api.deps import KeyDep, SeatDep, StakesDep, one_hop
from api.heads import sign_after
from domain.kernel.commands import Command
from domain.kernel.common import SHARED
from domain.kernel.registry import supported
from domain.seats import Seat

#: Request schemas to publish in the OpenAPI components (see ``api.app``).
DOCUMENTED: dict[str, type[BaseModel]] = {}
_PARAM = re.compile(r"{(\w+)}")


def routes() -> dict[str, list[tuple[str, type[Command]]]]:
    """Every campaign command route, with the (system id, class) pairs that serve it."""
    found: dict[str, list[tuple[str, type[Command]]]] = {}
    for system in supported():
        verbs = {c.verb for c in system.commands()} | {c.verb for c in SHARED}
        for verb in sorted(verbs):
            cls = system.command(verb) or next(c for c in SHARED if c.verb == verb)
            found.setdefault(cls.route, []).append((system.id, cls))
    return found


def body_model(cls: type[Command]) -> str | None:
    """The request body of a command (its fields less those in the path), published under a name;
    None when nothing is left."""
    in_path = set(_PARAM.findall(cls.route))
    fields = {name: (info.annotation, info) for name, info in cls.model_fields.items() if name not in in_path}
    if not fields:
        return None
    model: type[BaseModel] = cls
    if in_path:
        model = create_model(f"{cls.__name__}Body", __config__=ConfigDict(extra="forbid"),
                             __doc__=cls.__doc__, **fields)  # type: ignore[call-overload]
    name = _schema_name(cls)
    DOCUMENTED[name] = model
    return name


def _schema_name(cls: type[Command]) -> str:
    module = cls.__module__.split(".")
    owner = "".join(p.title().replace("_", "") for p in module[2:3]) if module[1] == "systems" else ""
    return f"{owner}{cls.__name__}"


def _request_body(names: Iterable[str], required: bool) -> dict[str, Any]:
    """Marks the operation; ``publish`` puts the request schema in place of the untyped one."""
    refs = [{"$ref": f"#/components/schemas/{name}"} for name in names]
    schema = refs[0] if len(refs) == 1 else {"oneOf": refs}
    return {"x-stakes-body": {"required": required, "content": {"application/json": {"schema": schema}}}}


def _endpoint(verb: str, path_params: dict[str, Any], has_body: bool) -> Any:
    def endpoint(request: Request, campaign_id: UUID, acting_seat: Seat, stakes: Stakes, key: str | None,
                 body: dict[str, Any] | None = None, **path: Any) -> Any:
        payload = dict(body or {})
        payload.update({k: str(v) if isinstance(v, UUID) else v for k, v in path.items()})
        answer = stakes.run(campaign_id, acting_seat, verb, payload, key=key)
        sign_after(request, stakes, campaign_id)
        return answer

    params = [inspect.Parameter("request", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Request),
              inspect.Parameter("campaign_id", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=UUID)]
    params += [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=kind)
               for name, kind in path_params.items()]
    if has_body:
        params.append(inspect.Parameter("body", inspect.Parameter.KEYWORD_ONLY, default=None,
                                        annotation=Annotated[dict[str, Any] | None, Body(include_in_schema=False)]))
    params += [inspect.Parameter("acting_seat", inspect.Parameter.KEYWORD_ONLY, annotation=SeatDep),
               inspect.Parameter("stakes", inspect.Parameter.KEYWORD_ONLY, annotation=StakesDep),
               inspect.Parameter("key", inspect.Parameter.KEYWORD_ONLY, annotation=KeyDep)]
    endpoint.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    endpoint.__name__ = verb.replace("-", "_")
    return one_hop(endpoint, seat="acting_seat", writes=True)


async def no_null_body(request: Request) -> None:
    """A JSON ``null`` is not an absent body (issue 29): where the schema is an object, ``null`` is refused
    (422) like any other body that is not an object, and nothing runs. The body was read already (cached)."""
    if request.method in ("POST", "PUT", "PATCH") and (await request.body()).strip() == b"null":
        raise RequestValidationError([{"type": "model_type", "loc": ("body",), "input": None,
                                       "msg": "Input should be a JSON object, not null"}])


def command_router() -> APIRouter:
    router = APIRouter(prefix="/campaigns/{campaign_id}", dependencies=[Depends(no_null_body)])
    for route, served in routes().items():
        method, path = route.split(" ", 1)
        classes = list(dict.fromkeys(cls for _, cls in served))
        first = classes[0]
        bodies = [m for m in (body_model(c) for c in classes) if m is not None]
        required = any(f.is_required() for b in bodies for f in DOCUMENTED[b].model_fields.values())
        response = reduce(or_, dict.fromkeys(answers.find(system_id, cls.answer).model for system_id, cls in served))
        path_params = {name: first.model_fields[name].annotation for name in _PARAM.findall(path)}
        systems = ", ".join(system_id for system_id, _ in served)
        router.add_api_route(
            path, _endpoint(first.verb, path_params, bool(bodies)), methods=[method], status_code=first.status,
            response_model=response, summary=first.summary(), tags=[_tag(classes)],
            description=(first.__doc__ or "").strip() + f"\n\nSystems: {systems}. Refusals name the ruling "
                                                        f"({', '.join(sorted({c.ruling for c in classes}))}).",
            openapi_extra=_request_body(bodies, required) if bodies else None,
            operation_id=first.verb.replace("-", "_"))
    return router


def _tag(classes: list[type[Command]]) -> str:
    module = classes[0].__module__.split(".")
    return module[2].replace("_", " ") if module[1] == "systems" and len(classes) == 1 else "every system"


def action_body() -> dict[str, Any]:
    """The request body of ``POST /challenges/{unit}/actions``: one of every unit action's schema, and of every
    campaign command a unit's legal actions may list as a move (``{"action": verb, …}``, issue 31)."""
    names = []
    for system in supported():
        for cls in system.actions():
            names.append(_schema_name(cls))
            DOCUMENTED[names[-1]] = cls
        for cls in system.listed_commands():
            names.append(_schema_name(cls) + "Move")
            DOCUMENTED[names[-1]] = listed_move_model(cls)
    return _request_body(names, True)


def listed_move_model(cls: type[Command]) -> type[BaseModel]:
    """A campaign command as a move of a unit that lists it: ``action`` (its verb) and its own fields."""
    fields: dict[str, Any] = {"action": (Literal[cls.verb], cls.verb)}  # type: ignore[valid-type]
    fields.update({name: (info.annotation, info) for name, info in cls.model_fields.items()})
    return create_model(f"{cls.__name__}Move", __config__=ConfigDict(extra="forbid"),  # type: ignore[call-overload]
                        __doc__=f"{cls.summary()} Played from a unit that lists it among its legal actions.",
                        **fields)


def publish(openapi: dict[str, Any]) -> dict[str, Any]:
    """Add the request schemas of every command to the OpenAPI components."""
    for operations in openapi.get("paths", {}).values():
        for operation in operations.values():
            body = operation.pop("x-stakes-body", None) if isinstance(operation, dict) else None
            if body is not None:
                operation["requestBody"] = body
    components = openapi.setdefault("components", {}).setdefault("schemas", {})
    components.pop("Body", None)
    for name, model in DOCUMENTED.items():
        schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
        components.update(schema.pop("$defs", {}))
        schema["title"] = name
        components[name] = schema
    return openapi


def read_router() -> APIRouter:
    """A GET route for each read a system offers (the House budget, the debt register …)."""
    router = APIRouter(prefix="/campaigns/{campaign_id}")
    seen: dict[str, Any] = {}
    for edge in edges():
        for read in edge.READS:
            seen.setdefault(read.path, read)
    for path, read in seen.items():
        router.add_api_route(path, _bind_paged(read.name) if read.paged else _bind(read.name), methods=["GET"], response_model=read.model,
                             summary=read.doc.split(":")[0].split(".")[0], description=read.doc,
                             tags=list(read.tags), operation_id=f"read_{read.name}")
    return router


def _bind(name: str) -> Any:
    @one_hop
    def bound(campaign_id: UUID, seat: SeatDep, stakes: StakesDep) -> Any:
        return stakes.read(campaign_id, seat, name)

    bound.__name__ = f"read_{name}"
    return bound


def _bind_paged(name: str) -> Any:
    @one_hop
    def bound(
        campaign_id: UUID, seat: SeatDep, stakes: StakesDep,
        after: Annotated[str | None, Query(max_length=64, description="`next_after` of the previous page.")] = None,
        limit: Annotated[int, Query(ge=1, le=500)] = 100,
    ) -> Any:
        return stakes.read(campaign_id, seat, name, Page(after, limit))

    bound.__name__ = f"read_{name}"
    return bound
