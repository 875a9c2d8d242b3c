"""Every edge layer finds a system's module one way (issue 30, ADR 0033): ``registry.edge_module``, which honours
``RuleSystem.modules`` in every layer, so a system kept outside the tree brings its own board and CLI too."""

from __future__ import annotations

import sys
import types

import pytest

from domain.kernel.registry import RuleSystem, edge_module, edge_module_name, rule_system


class Elsewhere(RuleSystem):
    """A system whose every edge module is kept outside the tree, named by ``modules``."""

    id = "elsewhere"
    package = "elsewhere"
    modules = {"adapters": "tests.unit.elsewhere_adapters", "web": "tests.unit.elsewhere_web",
               "cli": "tests.unit.elsewhere_cli"}


def test_a_system_in_the_tree_is_found_in_each_layers_systems_package():
    pool = rule_system("pool")
    assert edge_module_name(pool, "adapters") == "adapters.systems.pool"
    assert edge_module_name(pool, "web") == "api.web.systems.pool"
    assert edge_module_name(pool, "cli") == "cli.systems.pool"
    found = edge_module(pool, "web")
    assert found is not None and found.__name__ == "api.web.systems.pool"


def test_modules_name_a_systems_module_in_every_layer_not_only_the_adapters(monkeypatch):
    web = types.ModuleType("tests.unit.elsewhere_web")
    monkeypatch.setitem(sys.modules, web.__name__, web)
    assert edge_module(Elsewhere(), "web") is web
    assert edge_module_name(Elsewhere(), "cli") == "tests.unit.elsewhere_cli"


def test_a_layer_without_the_systems_module_answers_none_so_its_generic_one_serves():
    assert edge_module(Elsewhere(), "cli") is None


def test_a_module_that_is_there_but_imports_something_missing_is_an_error(monkeypatch, tmp_path):
    (tmp_path / "broken_edge_module.py").write_text("import no_such_module_anywhere\n")
    monkeypatch.syspath_prepend(str(tmp_path))

    class Broken(RuleSystem):
        id = package = "broken"
        modules = {"web": "broken_edge_module"}

    with pytest.raises(ModuleNotFoundError, match="no_such_module_anywhere"):
        edge_module(Broken(), "web")


def test_the_toy_system_outside_the_tree_gets_the_generic_board_and_cli(monkeypatch):
    from api.web import systems as boards
    from cli import systems as cli_systems
    from tests.toy_system import plug_in

    toy = plug_in(monkeypatch)
    boards.of.cache_clear()
    try:
        assert boards.of(toy.id) is boards.GENERIC
        assert cli_systems.of(edge_module_name(toy, "cli")) is cli_systems.NONE
    finally:
        boards.of.cache_clear()
