"""What a follow-up that changes the weight precision did to the pick ("What if we run it in FP8 instead?",
"Use FP8 precision."): the pick before and after, side by side (expert review 12, R19 / P19: the what-if
was answered "nothing changes" and the reader could not see what FP8 bought).

FP8 and INT8 weights take 1 byte per parameter against 2 for BF16/FP16 (tools/memory_states.py, bytes
per weight by precision); the serving model sizes memory and decode speed from those bytes, so the GPUs,
their count, the speed and the monthly cost can all move.
This module only reports the move; it computes nothing."""

from __future__ import annotations

from typing import Any

from tools.present import gib, tokens_per_s_range, usd_range
from tools.profile import WorkloadProfile

PRECISION_DEFAULT = "bf16"
"""The precision the recommender assumes when none is said (its 'Assumed: precision bf16' line)."""


def _setup(opt: Any) -> str:
    """'4x NVIDIA B200 (HGX, 180GB) at runpod-secure'."""
    return f"{opt.total_gpus}x {opt.gpu_name or opt.gpu} at {opt.provider}"


def _cost(opt: Any) -> str:
    per = " per month" if getattr(opt, "cost_basis", "") == "per_month" else ""
    return f"{usd_range(opt.cost_usd)}{per}"


def precision_change_note(
    before: WorkloadProfile, profile: WorkloadProfile, last_rec: Any, rec: Any
) -> str | None:
    """One line, before -> after, when this turn changed the precision and both turns have a pick; None
    otherwise (nothing to compare, or the precision did not change)."""
    old_prec = before.precision or PRECISION_DEFAULT
    new_prec = profile.precision or PRECISION_DEFAULT
    if new_prec == old_prec:
        return None
    old = getattr(last_rec, "primary", None)
    new = getattr(rec, "primary", None)
    if old is None or new is None:
        return None
    head = f"With {new_prec.upper()} weights instead of {old_prec.upper()}"
    same = (old.gpu, old.total_gpus) == (new.gpu, new.total_gpus)
    setup = f"the same {_setup(new)}" if same else f"{_setup(old)} -> {_setup(new)}"
    parts = [setup]
    if old.peak_gib_per_gpu and new.peak_gib_per_gpu:
        parts.append(f"peak {gib(old.peak_gib_per_gpu)} -> {gib(new.peak_gib_per_gpu)} per GPU")
    if old.decode_tokens_per_s is not None and new.decode_tokens_per_s is not None:
        old_rate = tokens_per_s_range(old.decode_tokens_per_s)
        parts.append(f"{old_rate} -> {tokens_per_s_range(new.decode_tokens_per_s)}")
    parts.append(f"{_cost(old)} -> {_cost(new)}")
    return f"{head}: " + "; ".join(parts) + "."
