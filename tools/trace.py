"""Trace steps and the base class of every calculator result.

Every number a calculator returns is recorded as a step: a name, the formula in words or symbols,
the inputs with their units, and the output with its unit. The report's calculation appendix and the
LLM's number check both read these steps.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

Scalar = float | int | str | bool | None


class TraceStep(BaseModel):
    """One step of a calculation. `inputs` maps 'name_unit' -> value; `unit` is the output's unit."""

    model_config = ConfigDict(frozen=True)

    step: str
    formula: str
    inputs: dict[str, Scalar] = Field(default_factory=dict)
    output: float | int | str | bool | None
    unit: str = ""
    source: str = ""


class Assumption(BaseModel):
    """A named assumption a result depends on (a default, a constant, an estimate)."""

    model_config = ConfigDict(frozen=True)

    name: str
    value: Scalar
    unit: str = ""
    source: str = ""

    def text(self) -> str:
        unit = f" {self.unit}" if self.unit else ""
        src = f" ({self.source})" if self.source else ""
        return f"{self.name}: {self.value}{unit}{src}"


class Traced(BaseModel):
    """Base of calculator results: frozen, with a trace and the assumptions used."""

    model_config = ConfigDict(frozen=True)

    trace: tuple[TraceStep, ...] = ()
    assumptions: tuple[Assumption, ...] = ()


class TraceBuilder:
    """Collects steps and assumptions while a calculator runs (local to one call, never global)."""

    def __init__(self) -> None:
        self.steps: list[TraceStep] = []
        self.assumptions: list[Assumption] = []

    def step(
        self,
        step: str,
        formula: str,
        output: float,
        unit: str = "",
        source: str = "",
        **inputs: Scalar,
    ) -> float:
        """Record a step and return its output, so a formula reads as one expression."""
        self.steps.append(
            TraceStep(
                step=step, formula=formula, inputs=dict(inputs), output=output, unit=unit, source=source
            )
        )
        return output

    def assume(self, name: str, value: Scalar, unit: str = "", source: str = "") -> Scalar:
        """Record an assumption (once per name) and return its value."""
        if not any(a.name == name for a in self.assumptions):
            self.assumptions.append(Assumption(name=name, value=value, unit=unit, source=source))
        return value

    def extend(self, other: Traced | TraceBuilder, prefix: str = "") -> None:
        """Append another result's steps and assumptions (e.g. a sub-calculation)."""
        steps = other.trace if isinstance(other, Traced) else tuple(other.steps)
        assumptions = other.assumptions if isinstance(other, Traced) else tuple(other.assumptions)
        for s in steps:
            self.steps.append(s.model_copy(update={"step": f"{prefix}{s.step}"}) if prefix else s)
        for a in assumptions:
            if not any(x.name == a.name for x in self.assumptions):
                self.assumptions.append(a)

    def fields(self) -> dict[str, Any]:
        """Keyword arguments for a Traced result: trace and assumptions as tuples."""
        return {"trace": tuple(self.steps), "assumptions": tuple(self.assumptions)}


class UntracedBuilder(TraceBuilder):
    """A TraceBuilder that records nothing: `step` and `assume` return their value as usual, so a
    calculator run with it computes exactly the same numbers through the same code, without building
    trace steps. For callers that only compare numbers (the recommender's sweep over hundreds of
    candidates); the result then has an empty trace. Never for a result that is shown or reported."""

    def step(
        self,
        step: str,
        formula: str,
        output: float,
        unit: str = "",
        source: str = "",
        **inputs: Scalar,
    ) -> float:
        return output

    def assume(self, name: str, value: Scalar, unit: str = "", source: str = "") -> Scalar:
        return value

    def extend(self, other: Traced | TraceBuilder, prefix: str = "") -> None:
        return None


def trace_numbers(steps: tuple[TraceStep, ...] | list[TraceStep]) -> list[float]:
    """Every numeric input and output in a trace (for the LLM number check)."""
    out: list[float] = []
    for s in steps:
        for v in list(s.inputs.values()) + [s.output]:
            if isinstance(v, bool):
                continue
            if isinstance(v, int | float):
                out.append(float(v))
    return out


def as_mapping(steps: tuple[TraceStep, ...]) -> list[Mapping[str, Any]]:
    """Trace steps as plain dicts (the JSON contract's `trace` list)."""
    return [s.model_dump() for s in steps]
