"""Physics checks of training claims: the most tokens n GPUs can train on in H hours, and whether a
claimed 'D tokens in H hours on n GPUs' is impossible (above 100% MFU), implausible (above the MFU
band) or plausible. FLOPs and MFU bands come from tools.compute.flops.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from tools import present
from tools.catalog.schema import GpuSpec
from tools.compute.flops import (
    MFU_SOURCES,
    QLORA_DEQUANT_SLOWDOWN,
    QLORA_DEQUANT_SLOWDOWN_SOURCE,
    check_positive,
    check_training_method,
    gpu_class_of,
    method_class,
    mfu_range_for,
    peak_tflops,
    training_flops_factor,
)
from tools.errors import InputError
from tools.ranges import Range
from tools.trace import TraceBuilder, Traced, TraceStep
from tools.units import SECONDS_PER_HOUR, tflops_to_flops
from tools.vocabulary import Precision, TrainingMethod

Verdict = Literal["impossible", "implausible", "plausible"]


class MaxTokens(Traced):
    """How many tokens a GPU budget can train on."""

    tokens_at_peak: float = Field(description="at 100% MFU: no run can do more")
    tokens: Range = Field(description="at the MFU band")


class ClaimCheck(Traced):
    """Does a claimed 'D tokens in H hours on n GPUs' fit within physics and observed MFU?"""

    required_flops: float
    available_flops_at_peak: float
    implied_mfu: float = Field(description="required / available at peak; > 1 is impossible")
    exceeds_peak_by: float | None = Field(description="factor over the 100%-MFU bound, None when under it")
    mfu_band: Range
    verdict: Verdict
    message: str


def _available_flops_at_peak(
    *, gpu: GpuSpec, precision: str, n_gpus: int, hours: float, tb: TraceBuilder
) -> float:
    """FLOPs that n_gpus can do in `hours` at 100% MFU (dense datasheet peak; seed 001's bound)."""
    peak = peak_tflops(gpu=gpu, precision=precision, tb=tb)
    return tb.step(
        "available_flops_at_peak",
        "n_gpus x peak_flops x hours x 3600",
        n_gpus * tflops_to_flops(peak) * hours * SECONDS_PER_HOUR,
        "FLOPs",
        n_gpus=n_gpus,
        peak_tflops=peak,
        hours=hours,
    )


def max_training_tokens(
    *,
    hours: float,
    gpu: GpuSpec,
    n_gpus: int,
    active_params: float,
    method: TrainingMethod,
    grad_checkpointing: bool = False,
    precision: Precision = "bf16",
    mfu_range: Range | None = None,
    flops_factor: float | None = None,
) -> MaxTokens:
    """Tokens n GPUs can train on in `hours`: at 100% MFU (a hard bound) and at the MFU band."""
    method = check_training_method(method)
    check_positive(hours=hours, active_params=active_params)
    if not isinstance(n_gpus, int) or n_gpus < 1:
        raise InputError(f"n_gpus must be a whole number >= 1, got {n_gpus!r}")
    tb = TraceBuilder()
    k = flops_factor or training_flops_factor(method=method, grad_checkpointing=grad_checkpointing)
    tb.step(
        "flops_factor",
        "6 full / 4 LoRA-QLoRA (+2 recompute) or override",
        k,
        "FLOPs/(param x token)",
        method=method,
        grad_checkpointing=grad_checkpointing,
    )
    available = _available_flops_at_peak(gpu=gpu, precision=precision, n_gpus=n_gpus, hours=hours, tb=tb)
    at_peak = tb.step(
        "tokens_at_peak",
        "available_flops / (k x N_active)",
        available / (k * active_params),
        "tokens",
        k=k,
        active_params=active_params,
    )
    mfu = mfu_range or mfu_range_for(gpu=gpu, method=method)
    tb.assume(
        "mfu",
        f"{mfu.low:.2f}-{mfu.high:.2f}",
        "fraction of peak",
        "caller" if mfu_range else MFU_SOURCES[(gpu_class_of(gpu), method_class(method))],
    )
    slowdown = QLORA_DEQUANT_SLOWDOWN if method == "qlora" else Range(low=1.0, high=1.0)
    if method == "qlora":
        tb.assume(
            "qlora_dequant_slowdown", f"{slowdown.low}-{slowdown.high}", "x", QLORA_DEQUANT_SLOWDOWN_SOURCE
        )
    tokens = Range(low=at_peak * mfu.low / slowdown.high, high=at_peak * mfu.high / slowdown.low)
    tb.step(
        "tokens_at_mfu_band",
        "tokens_at_peak x mfu / qlora_slowdown",
        tokens.mid,
        "tokens",
        low=tokens.low,
        high=tokens.high,
    )
    return MaxTokens(tokens_at_peak=at_peak, tokens=tokens, **tb.fields())


def check_claim(
    *,
    tokens: float,
    hours: float,
    gpu: GpuSpec,
    n_gpus: int,
    active_params: float,
    method: TrainingMethod,
    grad_checkpointing: bool = False,
    precision: Precision = "bf16",
    flops_factor: float | None = None,
) -> ClaimCheck:
    """Physics check of a claim 'trains `tokens` in `hours` on n x gpu'.

    implied MFU = required FLOPs / (n x peak x hours). Above 1 the claim is impossible (by that
    factor); above the MFU band's high end it is implausible; otherwise plausible. The FLOPs use the
    cheapest honest count (no recompute unless stated), so the verdict is generous to the claim.
    """
    method = check_training_method(method)
    check_positive(tokens=tokens, hours=hours, active_params=active_params)
    if not isinstance(n_gpus, int) or n_gpus < 1:
        raise InputError(f"n_gpus must be a whole number >= 1, got {n_gpus!r}")
    tb = TraceBuilder()
    k = flops_factor or training_flops_factor(method=method, grad_checkpointing=grad_checkpointing)
    required = tb.step(
        "required_flops",
        "k x N_active x tokens",
        k * active_params * tokens,
        "FLOPs",
        k=k,
        active_params=active_params,
        tokens=tokens,
    )
    available = _available_flops_at_peak(gpu=gpu, precision=precision, n_gpus=n_gpus, hours=hours, tb=tb)
    implied = tb.step(
        "implied_mfu",
        "required_flops / available_flops_at_peak",
        required / available,
        "fraction of peak",
        required_flops=required,
        available_flops=available,
    )
    band = mfu_range_for(gpu=gpu, method=method)
    tb.assume(
        "mfu",
        f"{band.low:.2f}-{band.high:.2f}",
        "fraction of peak",
        MFU_SOURCES[(gpu_class_of(gpu), method_class(method))],
    )
    # QLoRA runs slower than its FLOPs suggest: the plausible ceiling is the band's high / slowdown.
    ceiling = band.high / (QLORA_DEQUANT_SLOWDOWN.low if method == "qlora" else 1.0)
    claim = f"{present.count(tokens)} tokens in {hours:g} h on {n_gpus}x {gpu.name}"
    if implied > 1.0:
        verdict: Verdict = "impossible"
        exceeds: float | None = implied
        msg = (
            f"{claim} is impossible: it needs {implied:.1f}x the GPUs' peak FLOPs even at 100% MFU "
            f"({present.scientific(required)} FLOPs needed, {present.scientific(available)} available)."
        )
    elif implied > ceiling:
        verdict, exceeds = "implausible", None
        msg = f"{claim} implies {implied:.0%} MFU, above the {ceiling:.0%} that such runs reach in practice."
    else:
        verdict, exceeds = "plausible", None
        msg = (
            f"{claim} implies {implied:.0%} MFU, within what such runs reach ({band.low:.0%}-{ceiling:.0%})."
        )
    tb.steps.append(
        TraceStep(
            step="verdict",
            formula="impossible if implied_mfu > 1; implausible if > mfu_high",
            inputs={"implied_mfu": implied, "mfu_high": ceiling},
            output=verdict,
        )
    )
    return ClaimCheck(
        required_flops=required,
        available_flops_at_peak=available,
        implied_mfu=implied,
        exceeds_peak_by=exceeds,
        mfu_band=band,
        verdict=verdict,
        message=msg,
        **tb.fields(),
    )
