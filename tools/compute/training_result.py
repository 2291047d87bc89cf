"""The result of tools.compute.training.estimate_training_time (TrainingTime) and the span of two estimates
for either end of the unstated sample lengths (either_end): split from tools/compute/training.py (600-line
modules, design.md)."""

from __future__ import annotations

from pydantic import Field

from tools.compute.flops import GpuClass
from tools.compute.padding import UNSTATED_LENGTHS
from tools.compute.training_inputs import HINT_SAMPLE_LENGTHS
from tools.ranges import Range
from tools.trace import Assumption, Traced
from tools.vocabulary import Framework, TrainingMethod


class TrainingTime(Traced):
    """Training compute and time for one run. Hours are Ranges (low = optimistic)."""

    flops: float = Field(description="total training FLOPs")
    flops_per_token: float
    flops_factor: float = Field(description="k in k x N x D")
    tokens: float
    active_params: float
    method: TrainingMethod
    n_gpus: int
    peak_tflops_per_gpu: float
    gpu_class: GpuClass
    framework: Framework | None = Field(description="the framework whose band was used; None = generic")
    mfu: Range = Field(description="the MFU band used (before batch/MoE/QLoRA/scaling/goodput factors)")
    throughput_efficiency: Range = Field(description="MFU x small batch x MoE / QLoRA slowdown x scaling")
    effective_mfu: Range = Field(description="throughput_efficiency x goodput: what the hours use")
    tokens_per_s_per_gpu: Range = Field(description="trained tokens per second per GPU (no goodput loss)")
    narrowing: list[str] = Field(description="what would narrow the range, in plain words")
    scaling_efficiency: Range
    gpu_hours: Range
    wall_hours: Range
    gpu_hours_at_peak: float = Field(description="100% MFU, one GPU: the theoretical lower bound (seed 001)")
    wall_hours_at_peak: float


def either_end(ends: list[TrainingTime]) -> TrainingTime:
    """One estimate spanning the estimates for either end of UNSTATED_LENGTHS (unpacked data whose
    sample lengths were not given): the trace is the first end's, the ranges cover both."""
    first = ends[0]

    def span(name: str) -> Range:
        values: list[Range] = [getattr(t, name) for t in ends]
        return Range(low=min(v.low for v in values), high=max(v.high for v in values))

    names = ("throughput_efficiency", "effective_mfu", "tokens_per_s_per_gpu", "gpu_hours", "wall_hours")
    note = Assumption(
        name="sample_tokens_unstated",
        value="either end: " + " / ".join(f"mean {x.mean_tokens:.0f}" for x in UNSTATED_LENGTHS),
        unit="tokens",
        source="; ".join(x.source for x in UNSTATED_LENGTHS) + " (give the data set's lengths to narrow)",
    )
    return first.model_copy(
        update={name: span(name) for name in names}
        | {"assumptions": (*first.assumptions, note), "narrowing": [HINT_SAMPLE_LENGTHS, *first.narrowing]}
    )
