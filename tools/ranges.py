"""A low-high range of one quantity (the unit is in the field name that holds it)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, model_validator


class Range(BaseModel):
    """Closed interval [low, high]; low <= high."""

    model_config = ConfigDict(frozen=True)

    low: float
    high: float

    @model_validator(mode="after")
    def _ordered(self) -> Range:
        if self.low > self.high:
            raise ValueError(f"range low {self.low} exceeds high {self.high}")
        return self

    @property
    def mid(self) -> float:
        return (self.low + self.high) / 2

    def scale(self, factor: float) -> Range:
        """Both ends times a non-negative factor."""
        return Range(low=self.low * factor, high=self.high * factor)
