"""The luck report's goodness-of-fit (issue 31, ADR 0035): the exact chi-square survival function against
known quantiles, and Pearson's statistic on counted dice."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adapters.luck import chi_square_sf, goodness_of_fit, uniform


@pytest.mark.parametrize(("x", "dof", "p"), [
    (3.841459, 1, 0.05), (6.634897, 1, 0.01), (5.991465, 2, 0.05), (7.814728, 3, 0.05), (11.0705, 5, 0.05),
    (15.08627, 5, 0.01), (16.91898, 9, 0.05), (18.30704, 10, 0.05), (68.66929, 51, 0.05), (2.342534, 5, 0.80),
])
def test_the_survival_function_meets_the_tables_quantiles(x: float, dof: int, p: float) -> None:
    assert chi_square_sf(x, dof) == pytest.approx(p, rel=1e-4)


@given(st.floats(0.01, 500), st.integers(1, 80))
def test_the_survival_function_falls_from_one_as_x_grows(x: float, dof: int) -> None:
    here, further = chi_square_sf(x, dof), chi_square_sf(x * 1.5, dof)
    assert 0 <= further <= here + 1e-12 and here <= 1
    if dof == 2:
        assert here == pytest.approx(math.exp(-x / 2))


def test_fair_dice_fit_and_loaded_dice_do_not() -> None:
    fair = goodness_of_fit({str(v): 100 for v in range(1, 7)}, uniform(6))
    assert (fair.draws, fair.chi_square, fair.dof, fair.p_value) == (600, 0.0, 5, 1.0)
    loaded = goodness_of_fit({"6": 200, **{str(v): 80 for v in range(1, 6)}}, uniform(6))
    assert loaded.p_value is not None and loaded.p_value < 1e-6
    few = goodness_of_fit({"1": 3}, uniform(6))
    assert few.p_value is None and few.counts["6"] == 0  # too few draws to test
