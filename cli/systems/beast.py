"""Humanity and Beast at the table: its sheet and the House's characters (BE-1 … BE-9). Rolls and
conflicts are drawn by the shared renderer of any unit's state; each die reads like ``H 10→7 ✓✓``."""

from __future__ import annotations

from rich.console import Group, RenderableType

from adapters.systems.beast import schemas
from cli.systems import SystemCli
from cli.tables import _legal, _table


def _plain(value: object) -> str:
    """A value as people read it: no Python reprs."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_plain(v)}" for k, v in value.items() if v not in (None, [], {}))
    if isinstance(value, (list, tuple)):
        return " ".join(_plain(v) for v in value)
    return "-" if value is None else str(value)


def _line(detail: dict) -> str:
    if "dice" in detail and isinstance(detail["dice"], list) and detail["dice"] and isinstance(detail["dice"][0], str):
        score = detail.get("score", {})
        return f"{'  '.join(detail['dice'])}  = {score.get('total', '?')} ({score.get('more', '')})"
    return "; ".join(f"{k}: {_plain(v)}" for k, v in detail.items() if v not in (None, [], {}))


def beast_sheet(s: schemas.BeastSheet) -> RenderableType:
    head = _table(f"{s.name} ({s.seat})", "humanity", "beast", "willpower", "status")
    head.add_row(str(s.humanity), str(s.beast), f"{s.willpower}/{s.willpower_max}", s.status)
    parts: list[RenderableType] = [head]
    if s.history:
        history = _table("History", "when", "what", "detail")
        for line in s.history[:15]:
            history.add_row(f"{line.at:%Y-%m-%d %H:%M}", line.what, _line(line.detail))
        parts.append(history)
    return Group(*parts)


def sheets(items: list[schemas.BeastSheet]) -> RenderableType:
    table = _table("Characters", "seat", "character", "humanity", "beast", "willpower", "status")
    for s in items:
        table.add_row(s.seat, s.name, str(s.humanity), str(s.beast), f"{s.willpower}/{s.willpower_max}",
                      s.status)
    return table


def house_characters(items: list[schemas.HouseCharacter]) -> RenderableType:
    table = _table("The House's characters", "name", "humanity", "beast", "willpower")
    for a in items:
        hidden = a.humanity is None
        table.add_row(a.name, "hidden" if hidden else str(a.humanity), "hidden" if hidden else str(a.beast),
                      "hidden" if hidden else f"{a.willpower}/{a.willpower_max}")
    return table


def _roll(data: dict) -> str:
    roll = data.get("roll")
    if roll is None:
        return "not rolled"
    if roll.get("hidden"):
        return "rolled (hidden until the House reveals it)"
    dice = "  ".join(d["text"] for d in roll["dice"])
    score = roll["score"]
    wp = " +1 Willpower" if roll["willpower_before"] else ""
    seen = " (seen before the rewind)" if roll.get("seen_before_rewind") else ""
    return f"{dice}{wp}  = {score['total']} (H {score['humanity']}, B {score['beast']}){seen}"


def beast_view(v: schemas.BeastView) -> RenderableType:
    """A roll or conflict: each side's dice as ``H 10→7 ✓✓``, the outcome, and what the seat may do."""
    s = v.state
    title = f"Action, difficulty {s['difficulty']} ({s['difficulty_name']})" if s["kind"] == "action" else "Conflict"
    table = _table(f"{title}  {v.id}  {v.phase}", "side", "character", "dice", "check")
    for side, data in s["sides"].items():
        check = data.get("check") or {}
        shown = "hidden" if check.get("hidden") else check.get("outcome") or ("due" if check else "-")
        if check.get("dice"):
            shown += " " + " ".join(map(str, check["dice"]))
        table.add_row(side, data["name"], _roll(data), shown)
    parts: list[RenderableType] = [table]
    out = s.get("outcome")
    if out:
        if s["kind"] == "action":
            parts.append(f"{'Success' if out['success'] else 'Failure'}: {out['total']} against {s['difficulty']}; "
                         f"more: {out['more']}")
        else:
            parts.append(f"Winner: {out['winner'] or 'none (a tie does no harm)'}; Willpower lost: "
                         f"{_plain(out['damage']) or 'none'}")
        if out.get("checks"):
            parts.append(f"Humanity check due: {_plain(out['checks'])}")
    if s.get("overturned"):
        o = s["overturned"]
        parts.append(f"Overturned ({'void' if o['void'] else 'won by the ' + str(o['winner'])}): {o['reason']}")
    if s.get("seen_before_rewind"):
        parts.append("Seen by every seat before the rewind (C-8): "
                     f"{_plain([e['value'] for e in s['seen_before_rewind']])}")
    parts.append(_legal(v.legal_actions, v.waiting_for))
    return Group(*parts)


CLI = SystemCli(renderers={"BeastView": beast_view, "BeastSheet": beast_sheet, "list[BeastSheet]": sheets,
                           "list[HouseCharacter]": house_characters, "house-characters": house_characters},
                unit_kinds=("BeastRoll",))
