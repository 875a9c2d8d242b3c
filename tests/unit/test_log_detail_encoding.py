"""The log's detail column is encoded in one pass (issue 15): it is byte for byte what the plain detail,
encoded compactly, gives, for every event a game stores."""

from __future__ import annotations

import json

from adapters.views import event_detail, event_detail_json
from tests.unit.test_twenty_one_undo import play_until_reshuffled
from tests.unit.twenty_one_game import Game


def test_the_detail_encoded_in_one_pass_equals_the_plain_detail_encoded():
    game = Game(table=False, holds=1)
    game.act("ilse", "seed", seed="ilse's luck")
    game.inputs()
    play_until_reshuffled(game)
    recorder, mapper = game.app.recorder, game.app.mapper
    events = [mapper.to_domain_event(n) for n in recorder.select_notifications(start=1, limit=10_000)]
    assert len(events) > 50
    for e in events:
        assert event_detail_json(e) == json.dumps(event_detail(e), separators=(",", ":"))
