"""FSDP1's all-gather rate limiter (`limit_all_gathers`) and how many units' unsharded weights it lets live.

torch.distributed.fsdp.FullyShardedDataParallel(limit_all_gathers=True) (its default since torch 2.1:
pytorch/pytorch PR #104900 'Default limit_all_gathers=True', July 2023; pytorch.org/docs/stable/fsdp.html)
makes the CPU thread wait so that at most two units are unsharded at once: the one computing and the next
one's prefetched all-gather (tools.memory_states.GATHERED_UNITS_IN_FLIGHT). With limit_all_gathers=False
the CPU thread issues every unit's all-gather without waiting for the GPU (the same docstring: 'FSDP
allows the CPU thread to issue all-gathers without any extra synchronization'), so a forward can hold as
many units unsharded as the CPU has run ahead by: at most every decoder unit of the pipeline stage. The
calculator takes that bound: a peak estimate must not assume the CPU waits when nothing makes it.
Measured: meta-llama/llama-recipes PR #41 (awgu, 2023-07-25), Llama-2-7B LoRA on 4 A100s, the same run
with the limiter off and on: peak active 25.86 GB vs 20.2 GB (+5.3 GiB, about 14 of the 32 units of
0.38 GiB; the bound counts 32) and peak reserved 32.67 GB vs 27.36 GB.
FSDP2 (fully_shard) has no such option: its all-gathers are ordered by the stream and copy-in events.
"""

from __future__ import annotations

from typing import Final

from tools.memory_types import Plan

FSDP_LIMIT_ALL_GATHERS_DEFAULT: Final = True
"""torch FSDP1's `limit_all_gathers` default (FullyShardedDataParallel signature, torch >= 2.1)."""
LIMITER_SOURCE: Final = (
    "torch FullyShardedDataParallel(limit_all_gathers=False): the CPU thread issues all-gathers without "
    "synchronising (pytorch PR #104900; llama-recipes PR #41 measured the difference)"
)


def units_in_flight(plan: Plan, limited_units: int) -> int:
    """Decoder units whose unsharded weights can be live at once: `limited_units` (the rate limiter's two),
    or, under FSDP with the limiter off, every unit of the pipeline stage (the CPU may run ahead of all)."""
    if plan.sharding == "fsdp" and not plan.fsdp_limit_all_gathers:
        return max(limited_units, plan.layers_per_stage)
    return limited_units


__all__ = ["FSDP_LIMIT_ALL_GATHERS_DEFAULT", "LIMITER_SOURCE", "units_in_flight"]
