"""The fp32 gradient partition a ZeRO-1/2 optimizer builds for its fp32 master at the step.

A ZeRO stage 1 or 2 optimizer that keeps a 16-bit model and an fp32 master partition per rank steps the master
with fp32 gradients: before the step it casts the rank's 16-bit gradient partition to fp32, all of it at once,
and frees the copy only after the step:

- DeepSpeed runtime/zero/stage_1_and_2.py, step(): `single_grad_partition = self.flatten(
  self.averaged_gradients[i]).to(self.single_partition_of_fp32_groups[i].dtype)`, assigned as the fp32
  partition's `.grad` for `self.optimizer.step()` (deepspeedai/DeepSpeed, read 2026-11-27);
- ColossalAI colossalai/zero/low_level/low_level_optim.py, step(): `grads[grad_index].to(splited_param.dtype)
  .to(splited_param.device)` for every master shard of the rank, kept in `grad_partition_groups` through
  `self.optim.step()` (hpcaitech/ColossalAI, read 2026-11-27).

So the optimizer phase holds 4 B per trained parameter / the optimizer shard on top of the 16-bit gradients
(tools.memory_phases: the step's temporaries). Not counted: DeepSpeed's transient 16-bit flat copy made by
`flatten` just before the cast (one group at a time). With the optimizer offloaded the fp32 copy is made on
the host (`.to(splited_param.device)`, DeepSpeed's CPU-offload path copies into a host buffer), so none on the
GPU; AMP stacks (an fp32 model) and a persistent fp32 grad buffer (Megatron) already hold fp32 gradients, and
ZeRO-3 / FSDP cast one sub-group at a time (not counted).
"""

from __future__ import annotations

from tools.memory_frameworks import framework_defaults
from tools.memory_types import Plan
from tools.trace import TraceBuilder

FP32_GRAD_BYTES = 4.0
"""Bytes per element of the fp32 gradient partition (torch.float32)."""
ZERO_FP32_GRAD_SOURCE = (
    "DeepSpeed stage_1_and_2.py step(): single_grad_partition = flatten(averaged_gradients).to(fp32); "
    "ColossalAI low_level_optim.py step(): grads.to(master dtype) per master shard (read 2026-11-27)"
)


def zero_fp32_grad_partition(plan: Plan, trainable: int, split: float, tb: TraceBuilder) -> float:
    """Bytes per GPU of the fp32 gradient partition a ZeRO-1/2 optimizer with an fp32 master makes for its
    step (module docstring); 0 where the stack has none."""
    if not (
        plan.full_training
        and plan.mixed
        and not plan.amp
        and plan.sharding in ("zero1", "zero2")
        and plan.offload == "none"
        and not plan.optimizer_in_backward
        and not framework_defaults(plan.framework).persistent_fp32_grads  # Megatron's fp32 buffer
    ):
        return 0.0
    return tb.step(
        "zero_fp32_grad_partition",
        "trained params x 4 B (fp32) x stage_fraction / tp / shard_o (cast for the fp32 master's step)",
        trainable * FP32_GRAD_BYTES * split / plan.shard("optimizer"),
        "B",
        ZERO_FP32_GRAD_SOURCE,
        trained_params=trainable,
        shard_o=plan.shard("optimizer"),
        sharding=plan.sharding,
    )
