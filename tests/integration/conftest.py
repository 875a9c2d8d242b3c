"""Integration tests drive the service one use case per call (``tests/drivers.py``).

The ``stakes`` fixture of ``tests/conftest.py`` stays the bare service: the end-to-end tests hand it to
the API and the CLI, which must call the service's own methods. Here it is wrapped in the driver.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from adapters.service import Stakes
from adapters.settings import Settings
from tests.drivers import ServiceDriver
from tests.integration.conformance import PROFILES, Table


@pytest.fixture
def stakes(stakes: Stakes) -> ServiceDriver:
    return ServiceDriver(stakes)


@pytest.fixture
def conformance_table(settings: Settings) -> Iterator[Callable[[str], Table]]:
    """The conformance suite's table of a system (``tests/integration/conformance.py``), on one service of the
    test's own store, closed with the test."""
    service = Stakes(settings)
    try:
        yield lambda system: Table(service, PROFILES[system])
    finally:
        service.close()
