"""The bound on every number a table enters (C-2): no table plays with more, and it keeps every sum well inside a
64-bit column. A system's own checks use it (Penny Ante's whole pennies, PA-1); an import refuses any number
beyond it."""

from __future__ import annotations

MAXIMUM = 1_000_000_000
