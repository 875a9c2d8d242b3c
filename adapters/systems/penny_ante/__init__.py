"""Penny Ante's adapter module: its read models and projection, its sheet, its challenge view, and its own
reads (the House budget, the debt register, the antagonists). See ``adapters/systems/__init__.py``."""

from adapters.systems.penny_ante import schemas
from adapters.systems.penny_ante.projection import PROJECTION
from adapters.systems.penny_ante.reads import ANSWERS, READS, players, sheet, unit_view

SHEET = schemas.Sheet
UNITS = (schemas.ChallengeView,)

__all__ = ["ANSWERS", "PROJECTION", "READS", "SHEET", "UNITS", "players", "sheet", "unit_view"]
