"""Integration tests drive the service one use case per call (``tests/drivers.py``).

The ``stakes`` fixture of ``tests/conftest.py`` stays the bare service: the end-to-end tests hand it to
the API and the CLI, which must call the service's own methods. Here it is wrapped in the driver.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from adapters.service import Stakes
from adapters.settings import Settings
from tests.drivers import ServiceDriver
from tests.integration.conformance import PROFILES, Table


@pytest.fixture
def stakes(stakes: Stakes) -> ServiceDriver:
    return ServiceDriver(stakes)


@pytest.fixture
def penny_ante_table(settings: Settings) -> Iterator[Table]:
    """The conformance suite's Penny Ante table on a service of its own (``tests/integration/conformance.py``)."""
    service = Stakes(settings)
    try:
        yield Table(service, PROFILES["penny-ante"])
    finally:
        service.close()
