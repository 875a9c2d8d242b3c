"""Integration tests drive the service one use case per call (``tests/drivers.py``).

The ``stakes`` fixture of ``tests/conftest.py`` stays the bare service: the end-to-end tests hand it to
the API and the CLI, which must call the service's own methods. Here it is wrapped in the driver.
"""

from __future__ import annotations

import pytest

from adapters.service import Stakes
from tests.drivers import ServiceDriver


@pytest.fixture
def stakes(stakes: Stakes) -> ServiceDriver:
    return ServiceDriver(stakes)
