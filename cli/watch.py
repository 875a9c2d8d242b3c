"""``stakes watch``: follow a table live and redraw it (rich Live), showing whom the table waits for.

Against a server it follows the seat's stream (``GET /campaigns/{id}/stream``, Server-Sent Events) and
reconnects with ``Last-Event-ID`` when the connection drops; a refused token (the seat handed out again) ends it,
said in words (exit code 7). Embedded, it reads the log the same way the
stream does (``adapters.ledger.entries_after``) every second. Either way each redraw reads the table as
the seat may see it (C-5). Everything heavy is imported inside the command, so ``stakes --help`` stays fast.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

#: Seconds between reads of an embedded store, and before reconnecting to a dropped stream.
PAUSE = 1.0


def watch(
    challenge: Annotated[str | None, typer.Argument(help="Challenge id (or its first characters); default: "
                                                          "the current or the only open one.")] = None,
    until_done: Annotated[bool, typer.Option("--until-done", help="Stop once nobody is waited for.")] = False,
    as_: Annotated[str | None, typer.Option("--as", envvar="STAKES_AS",
                                               help="Embedded use: the seat to watch as.")] = None,
    campaign: Annotated[str | None, typer.Option("--campaign", "-c", envvar="STAKES_CAMPAIGN",
                                                    help="Campaign id; defaults to the current one.")] = None,
) -> None:
    """Follow a challenge, roll or contest live: the table as your seat sees it, and whom it waits for."""
    from cli.session import run

    run(as_, campaign, lambda t: _follow(t, challenge, until_done))


def _frame(t: Any, unit: Any) -> tuple[Any, dict[str, list[str]]]:
    from rich.console import Group
    from rich.text import Text

    from cli import output
    from cli.inert import inert

    # Drawn outside output.show, so made inert here (issue 29: names in it are user text).
    view = inert(t.backend.challenge(t.campaign_id(), t.seat, unit))
    waiting = inert(t.backend.waiting_for(t.campaign_id(), t.seat, unit).seats)
    line = Text("Waiting for: ", style="bold")
    if waiting:
        line.append("; ".join(f"{seat} ({', '.join(names)})" if names else seat for seat, names in waiting.items()))
    else:
        line.append("nobody: this table is done.")
    return Group(output.resolution(view), line), waiting


def _head(t: Any) -> int:
    """Where the log is now: a watch follows what happens from here on."""
    if t.remote:  # the campaign's own numbering (issue 29): its last entry this seat reads, page by page
        from adapters import schemas
        from cli.errors import Unreachable

        position, after = 0, 0
        while True:
            # read as any answer is (``RemoteStakes._call``): a refusal is its problem, and a page that is no
            # log page (a position that is no integer, issue 29) a clear error, never a traceback
            page = t.backend._call("GET", f"/campaigns/{t.campaign_id()}/log", schemas.EventLog,
                                   params={"after": after, "limit": 1000})
            position = max([position, *(e.position for e in page.entries)])
            if not page.next_after:
                return max(position, after)
            if page.next_after <= after:  # a hostile server's pages that never end
                raise Unreachable(f"{t.backend.server} answered a log page that does not move on (next_after "
                                  f"{page.next_after} after {after}): it is not a Stakes server's log")
            after = page.next_after
    from adapters import ledger

    t.backend.catch_up()
    return ledger.last_position(t.backend, t.campaign_id())


def _changes(t: Any, head: int) -> Any:
    """Yields each time the seat's log grows after ``head`` (the stream's frames, or the embedded log read
    every PAUSE)."""
    import time

    if t.remote:
        import httpx

        last: str | None = None
        while True:
            headers = {"Last-Event-ID": last} if last else {}
            params = {"after": head} if last is None else None
            try:
                with t.backend.http.stream("GET", f"/campaigns/{t.campaign_id()}/stream", headers=headers,
                                           params=params, timeout=httpx.Timeout(30.0, read=None)) as r:
                    if r.is_client_error:  # refused (the token was handed out again): said in words, not retried
                        raise t.backend.refusal(r)
                    if not r.is_success:  # the server is not ready: try again shortly
                        time.sleep(PAUSE)
                        continue
                    for line in r.iter_lines():
                        found = line[3:].strip() if line.startswith("id:") else ""
                        # An entry's number is ASCII digits; anything else (a hostile server's rich markup or
                        # terminal escapes) is never printed, nor sent back as Last-Event-ID (issue 29, red team).
                        if found.isascii() and found.isdigit() and len(found) <= 19:
                            last = found
                            yield last
            except httpx.TransportError:
                time.sleep(PAUSE)  # the server went away: reconnect where we were
    else:
        from adapters import ledger

        after = head
        while True:
            entries, after = ledger.entries_after(t.backend, t.campaign_id(), t.seat, after)
            if entries:
                yield entries[-1].position
            else:
                time.sleep(PAUSE)
                t.backend.catch_up()


def _follow(t: Any, challenge: str | None, until_done: bool) -> None:
    from rich.live import Live

    from cli.commands import unit_id
    from cli.output import out as console

    unit = unit_id(t, challenge)
    head = _head(t)  # before the first drawing, so nothing between the two is missed
    drawn, waiting = _frame(t, unit)
    if until_done and not waiting:
        console.print(drawn)
        return
    if not console.is_terminal:  # a log, a pipe: one line per change, then the last table
        console.print(f"[{head}] waiting for: " + "; ".join(waiting), highlight=False)
        console.file.flush()
        for position in _changes(t, head):
            drawn, waiting = _frame(t, unit)
            console.print(f"[{position}] waiting for: " + ("; ".join(waiting) if waiting else "nobody"),
                          highlight=False)
            console.file.flush()
            if until_done and not waiting:
                console.print(drawn)
                return
        return
    with Live(drawn, console=console, auto_refresh=False, screen=False) as live:
        for _ in _changes(t, head):
            drawn, waiting = _frame(t, unit)
            live.update(drawn, refresh=True)
            if until_done and not waiting:
                return
