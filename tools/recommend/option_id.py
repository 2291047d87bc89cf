"""The identity of a recommended configuration: GPU type and count at a provider, pricing and region.

Two options with the same identity are the same configuration to a buyer (the alternatives skip a
second one, sensitivity says the pick did not change). The JSON output and the reports print it as
the text `'h100-sxmx1@lambda/on_demand/-'` (`text()`; `parse` reads it back), so that text stays
byte-identical while code compares the fields.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict

NO_REGION = "-"
"""How the text writes an option without a region."""

_TEXT = re.compile(r"^(?P<gpu>.+)x(?P<count>\d+)@(?P<provider>[^/]*)/(?P<pricing>[^/]*)/(?P<region>.*)$")


class OptionId(BaseModel):
    """gpu x total_gpus @ provider / pricing / region (None: no region). Ordered as its text, so a sort
    that breaks ties on the identity orders as it did on the text."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    gpu: str
    total_gpus: int
    """GPUs of the configuration, replicas included."""
    provider: str
    pricing: str
    region: str | None = None

    @classmethod
    def of(cls, *, gpu: str, total_gpus: int, provider: str, pricing: str, region: str | None) -> OptionId:
        """An identity with the region normalised as the text has it (an empty region is no region)."""
        return cls(gpu=gpu, total_gpus=total_gpus, provider=provider, pricing=pricing, region=region or None)

    def text(self) -> str:
        """The identity as JSON and reports write it: 'h100-sxmx1@lambda/on_demand/-'."""
        return f"{self.gpu}x{self.total_gpus}@{self.provider}/{self.pricing}/{self.region or NO_REGION}"

    def __str__(self) -> str:
        return self.text()

    @classmethod
    def parse(cls, text: str) -> OptionId:
        """The identity `text()` wrote. Raises ValueError for any other string."""
        m = _TEXT.match(text)
        if m is None:
            raise ValueError(f"not an option identity: {text!r}")
        region = m["region"]
        return cls(
            gpu=m["gpu"],
            total_gpus=int(m["count"]),
            provider=m["provider"],
            pricing=m["pricing"],
            region=None if region == NO_REGION else region or None,
        )

    @property
    def configuration(self) -> tuple[str, int]:
        """The GPU type and count, without where it runs (sensitivity: does the configuration change)."""
        return self.gpu, self.total_gpus

    def __lt__(self, other: Any) -> bool:
        if not isinstance(other, OptionId):
            return NotImplemented
        return self.text() < other.text()

    def __le__(self, other: Any) -> bool:
        if not isinstance(other, OptionId):
            return NotImplemented
        return self.text() <= other.text()

    def __gt__(self, other: Any) -> bool:
        if not isinstance(other, OptionId):
            return NotImplemented
        return self.text() > other.text()

    def __ge__(self, other: Any) -> bool:
        if not isinstance(other, OptionId):
            return NotImplemented
        return self.text() >= other.text()


def option_id_from_text(value: Any) -> Any:
    """Pydantic before-validator: a stored identity text (JSON, fixtures) read as an OptionId."""
    return OptionId.parse(value) if isinstance(value, str) else value
