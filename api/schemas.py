"""Request bodies that are not commands. Commands document their own (``api/commands.py``); responses use
the read-model schemas of ``adapters.schemas`` and each system's adapter module."""

from __future__ import annotations

from functools import reduce
from operator import or_
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, create_model

from domain.kernel.registry import default_system, supported, systems


def _settings() -> Any:
    return reduce(or_, [s.settings_model for s in supported() if s.settings_model is not None])


CampaignIn: type[BaseModel] = create_model(
    "CampaignIn",
    __config__=ConfigDict(extra="forbid"),
    name=(str, Field(max_length=120, examples=["Ninjas of the Jade Court"])),
    system=(str, Field(default_system(), description="One of: " + ", ".join(
        s.id + ("" if s.supported else " (not supported yet)") for s in systems()))),
    settings=(_settings() | None, Field(None, description="The system's settings; each is optional.")),
)
