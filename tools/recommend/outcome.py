"""The outcome of one engine run, before sensitivity and expectation checks (which re-run it)."""

from __future__ import annotations

from dataclasses import dataclass, field

from tools.defaults import ResolvedWorkload
from tools.recommend.candidates import Candidate, GpuNotes
from tools.recommend.engine import Engine
from tools.recommend.models import Label, Rejection


@dataclass
class Outcome:
    """One engine run before sensitivity and expectation checks (also used by those re-runs)."""

    workload: ResolvedWorkload
    ranked: list[Candidate]
    primary: Candidate | None
    alternatives: list[tuple[Candidate, Label]]
    rejected: list[Rejection]
    notes: list[str]
    all_feasible: list[Candidate]
    engine: Engine
    smallest_peak_gib: float | None = None
    considered: int = 0
    notes_by_gpu: dict[str, GpuNotes] = field(default_factory=dict)
