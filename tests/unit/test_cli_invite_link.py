"""An invite's link names the address the table is served at (README, "A first evening"): an embedded CLI in
another shell than ``stakes serve --port N`` names port N, not the default (found on a phone walk)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

from adapters.settings import Settings
from cli import operations
from cli.session import served_at


def embedded(tmp_path: Path) -> SimpleNamespace:
    settings = Settings(store="sqlite", sqlite_path=tmp_path / "stakes.sqlite", config=tmp_path / "config.json")
    return SimpleNamespace(remote=False, backend=SimpleNamespace(settings=settings))


def test_a_running_serve_of_the_same_store_names_its_own_port_in_the_invite_link(tmp_path: Path):
    target = embedded(tmp_path)
    assert served_at(target) == ("http://127.0.0.1:8000", True)  # nothing serves it: the settings' address
    assert operations._note_served(target.backend.settings, "127.0.0.1", 8801)
    assert json.loads((tmp_path / "stakes.served.json").read_text())["pid"] == os.getpid()
    assert served_at(target) == ("http://127.0.0.1:8801", True)
    operations._note_served(target.backend.settings, "0.0.0.0", 8802)  # served to the network
    assert served_at(target) == ("http://127.0.0.1:8802", True)


def test_a_note_left_by_a_server_that_is_gone_is_not_followed(tmp_path: Path):
    target = embedded(tmp_path)
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    (tmp_path / "stakes.served.json").write_text(json.dumps({"host": "127.0.0.1", "port": 8803,
                                                             "pid": int(gone.stdout)}))
    assert served_at(target) == ("http://127.0.0.1:8000", True)
    (tmp_path / "stakes.served.json").write_text("not json")
    assert served_at(target) == ("http://127.0.0.1:8000", True)
