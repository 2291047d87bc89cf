"""The training step's memory by phase, and the peak as the largest phase (issue 15).

A training step does not hold all its memory at once. Per GPU, in bytes (W weights, O optimizer states,
A adapters with their gradients and states, A' the same without the adapters' gradients, G gradients,
T the optimizer step's temporaries, C AMP's cached bf16 weight copies; activations from
tools.memory_activations.ActivationParts):

    forward   = W + O + A' + C + kept + logits at the loss forward + dequant
                (with gradient accumulation every phase also holds G and A, the earlier micro-batches')
    loss      = W + O + A' + (C without checkpointing) + kept + logits at the loss backward + dequant
    backward  = W + O + A + dequant + max(kept + one layer + G_head, G + late)
                (early: every kept input and the head's gradient; late: all gradients, and the last
                layer's recompute or the embedding's backward, _late_backward_activations)
    optimizer = W + O + A + G + T        (the activations are dead by the step)

torch DDP's all-reduce buckets (ddp_bucket_bytes), where the stack keeps them apart from the gradients, add
one more gradient-sized set to every phase.

The peak is the largest phase (checked against the fake-tensor simulator's per-phase peaks,
bench/accuracy_sim.py). G_head is the lm_head's share of the gradients, made in the loss backward.
"""

from __future__ import annotations

from dataclasses import dataclass

from tools.memory_activations import ActivationParts
from tools.memory_frameworks import framework_defaults
from tools.memory_states import StateBytes, fsdp_under_pp, persistent_grad_buffer
from tools.memory_types import Plan
from tools.trace import TraceBuilder


@dataclass(frozen=True)
class PhaseLines:
    """What is live at one phase, bytes per GPU, by breakdown line."""

    weights: float
    gradients: float
    optimizer: float
    activations: float
    adapters: float

    step_temporaries: float = 0.0
    """The part of `optimizer` that is the step's temporaries (dynamic, like activations)."""

    def total(self) -> float:
        return self.weights + self.gradients + self.optimizer + self.activations + self.adapters

    def dynamic(self) -> float:
        """Bytes allocated and freed within the step (what the caching allocator keeps a reserve around)."""
        return self.activations + self.gradients + self.adapters + self.step_temporaries


def training_phases(plan: Plan, states: StateBytes, act: ActivationParts) -> dict[str, PhaseLines]:
    """Every phase of one training step (module docstring), bytes per GPU by line."""
    w, o, a, g = states.weights, states.optimizer, states.adapters, states.gradients
    arch = plan.arch
    head_share = min(1.0, arch.vocab_size * arch.hidden_size / max(1, arch.param_count()))
    g_head = g * head_share if not plan.optimizer_in_backward else g
    casts = states.weight_casts
    a_fwd = a - states.adapter_grads  # adapter gradients do not exist before the backward
    kept_plus_layer = act.kept + act.layer if plan.grad_checkpointing else 0.0
    early = kept_plus_layer + g_head
    late_act = _late_backward_activations(plan, g, g_head, act.layer)
    bwd_grads = g_head if early > g + late_act else g
    bwd_act = (kept_plus_layer if early > g + late_act else late_act) + act.dequant
    if fsdp_under_pp(plan):
        # 1F1B: the first micro-batch's backward makes the stage's (unsharded, accumulated) gradients while
        # the other micro-batches in flight still hold their kept activations
        bwd_grads, bwd_act = g, act.kept + act.layer + act.dequant
    g_fwd = 0.0
    if (
        accumulating(plan, g + states.adapter_grads)
        or persistent_grad_buffer(plan)
        or zero3_grad_buffer(plan)
    ):
        # the earlier micro-batches' gradients (and the adapters') are live from the forward on (a persistent
        # fp32 grad buffer is, at every step, tools.memory_states.persistent_grad_buffer); the
        # backward adds into them in place, with the head's new gradient a transient beside them early on
        g_fwd, a_fwd = g, a
        early_acc = kept_plus_layer + g_head
        bwd_grads = g + g_head if early_acc > late_act else g
        bwd_act = (kept_plus_layer if early_acc > late_act else late_act) + act.dequant
    buckets = ddp_bucket_bytes(plan, states)
    g_fwd, bwd_grads = g_fwd + buckets, bwd_grads + buckets
    return {
        "forward": PhaseLines(w + casts, g_fwd, o, act.kept + act.logits_forward + act.dequant, a_fwd),
        "loss": PhaseLines(
            w + (0.0 if plan.grad_checkpointing else casts),
            g_fwd,
            o,
            act.kept + act.logits_backward + act.logits_held + act.dequant,
            a_fwd,
        ),
        "backward": PhaseLines(w, bwd_grads, o, bwd_act + act.logits_held, a),
        "optimizer": PhaseLines(
            w - states.root_gathered,
            g + buckets,
            o + states.step_temporaries,
            act.logits_held,
            a,
            states.step_temporaries,
        ),
    }


def ddp_bucket_bytes(plan: Plan, states: StateBytes) -> float:
    """torch DDP's all-reduce buckets when the stack keeps gradient_as_bucket_view False
    (FrameworkMemoryDefaults.ddp_bucket_copies): one more copy of the trained gradients, in their dtype,
    allocated when the model is wrapped and live in every phase; 0 without data-parallel ranks, under
    ZeRO/FSDP (their own buffers), or with a step in backward (no DDP reducer)."""
    if plan.sharding != "ddp" or plan.dp < 2 or plan.optimizer_in_backward:
        return 0.0
    if not framework_defaults(plan.framework).ddp_bucket_copies:
        return 0.0
    return states.adapter_grads if plan.adapters else states.gradients


def zero3_grad_buffer(plan: Plan) -> bool:
    """DeepSpeed ZeRO-3 keeps every gradient partition in one flat buffer allocated with the optimizer and
    zeroed, never freed, between steps (deepspeed/runtime/zero/stage3.py _setup_for_real_optimizer:
    `grad_partitions_flat_buffer = torch.zeros(sum(p.partition_numel()), dtype=gradient_accumulation_dtype)`,
    on the GPU unless the optimizer is offloaded; the dtype is the model's unless data_types.grad_accum_dtype
    says otherwise): the sharded gradients are live in every phase of full training."""
    return plan.sharding == "zero3" and plan.full_training and plan.offload == "none"


def accumulating(plan: Plan, gradient_bytes: float) -> bool:
    """Gradient accumulation keeps gradients live across micro-batches (Plan.grad_accumulation_steps),
    unless a step in backward frees each gradient as it is made (no gradients to hold)."""
    return plan.grad_accumulation_steps > 1 and gradient_bytes > 0.0 and not plan.optimizer_in_backward


def _late_backward_activations(plan: Plan, g: float, g_head: float, layer: float) -> float:
    """Bytes beside the gradients at the end of the backward (module docstring, `late`).

    Measured with the fake-tensor simulator (bench/accuracy_sim.py grid): the last layer's backward
    holds its recomputed activations, but the input embedding's gradient (g_head-sized) arrives only
    after it, at the embedding backward, with the gradient of the embedding output (tokens x h) as
    its input. Tied embeddings: the head's gradient waits in autograd's input buffer for the
    embedding's, and their sum is a third head-sized tensor before AccumulateGrad takes it.
    """
    if g == 0.0 or plan.optimizer_in_backward:
        return layer
    arch = plan.arch
    residual_bytes = 4.0 if plan.amp else 2.0  # the residual stream's dtype (AMP: fp32)
    embedding_input = plan.tokens * arch.hidden_size * residual_bytes / plan.tp
    if arch.tied_embeddings:
        return max(layer, 2.0 * g_head + embedding_input)
    return max(layer - g_head, embedding_input)


def largest_phase(
    phases: dict[str, PhaseLines], tb: TraceBuilder, reserve_fraction: float = 0.0
) -> tuple[str, PhaseLines]:
    """The phase with the most bytes (ties: the earlier phase), traced with every phase's total.
    `reserve_fraction` (reserved basis) ranks phases by total + fraction x dynamic bytes, so the peak
    never falls when a phase's share grows."""
    name = max(phases, key=lambda k: phases[k].total() + reserve_fraction * phases[k].dynamic())
    tb.step(
        "peak_phase_bytes",
        "max over phases (forward, loss, backward, optimizer) of the bytes live then",
        phases[name].total(),
        "B",
        peak_phase=name,
        forward_bytes=phases["forward"].total(),
        loss_bytes=phases["loss"].total(),
        backward_bytes=phases["backward"].total(),
        optimizer_bytes=phases["optimizer"].total(),
    )
    return name, phases[name]


VARIABLE_LENGTH_STALE_LOGITS = 1.5
"""Cached-but-unusable logits blocks the allocator holds, in units of the longest batch's loss-backward
logits, when batches are padded to their longest sequence (Plan.variable_length). Mechanism: PyTorch's
caching allocator (c10/cuda/CUDACachingAllocator.cpp, default settings, no expandable_segments) serves a
request from a cached block at least as large, else cudaMallocs a new segment, and blocks never merge
across segments (E. Yang, 'When does fragmentation occur in the CUDA caching allocator?', PyTorch devlog,
2026-06-01). The fp32 logits blocks (log-softmax, its gradient, the loss gradient: 3 x 4 B x tokens x
vocabulary) are the step's largest, so each batch longer than every earlier one cudaMallocs them anew while
the shorter batches' blocks stay reserved: the reserve is the loss-backward logits times the lengths of the
earlier record-setting batches / the longest. With ~ln(steps) records over a run, most near the length cap,
the sum is a few times the cap. 1.5 is fitted on the ms-swift 1.x benchmark's Qwen-1 LoRA rows
(bench/data/memory_measurements_fresh2.yaml, `Model Type & Max Length` table, max_length 512-8192: 0.8-2.7
needed per row, lower at 8192 where the benchmark trained on 1000 samples only; 1.5 keeps those rows within
-21%..+12%, 2026-11-27) and checked on that page's other tables; a run's own value depends on its length
distribution and number of steps, so it is an estimate. The allocator frees cached blocks and retries before
it reports out-of-memory, so this reserve never makes a run fail: it shows in what the card reports.
Fixed shapes (packing, padding to max length) keep none (Qwen finetune.py pads to model_max_length: its
README rows fit without it). Re-checked 2026-11-28 (branch mem17) after the training reserve's residue fell
from 0.15 to 0.02 x dynamic (tools.memory_reserve): refitted on the family.s 37 rows, 2.0 gives median 5.8%
(from 9.7%) and worst 49.7% (from 52.7%), fresh-2 median 10.1% -> 7.8%, device sets unchanged; but the
8192-token rows go from +16..+31% to +27..+49% and the out-of-family variable-length check (LLaMA-Factory
GLM-4 calibration row, never fitted) from +13.1% to +27.4%: what the short rows miss does not scale with
the logits, so 1.5 is kept."""


def variable_length_reserve(plan: Plan, logits_backward: float, tb: TraceBuilder) -> float:
    """Bytes the caching allocator keeps in earlier, shorter batches' logits segments (reserved basis, a
    variable-length run; else 0): VARIABLE_LENGTH_STALE_LOGITS x the loss-backward logits bytes."""
    if not plan.variable_length or plan.memory_basis != "reserved":
        return 0.0
    tb.assume(
        "variable_length_stale_logits",
        VARIABLE_LENGTH_STALE_LOGITS,
        "loss-backward logits",
        "cached, unusable shorter batches' logits segments (PyTorch caching allocator: segments never merge);"
        " fitted on the ms-swift 1.x Qwen-1 LoRA rows (bench/data/memory_measurements_fresh2.yaml),"
        " 2026-11-27",
    )
    return tb.step(
        "variable_length_logits_reserve",
        "stale segments x logits bytes at the loss backward (shorter batches' blocks, cached, unusable)",
        VARIABLE_LENGTH_STALE_LOGITS * logits_backward,
        "B",
        stale_segments=VARIABLE_LENGTH_STALE_LOGITS,
        logits_backward_bytes=logits_backward,
        source="PyTorch CUDACachingAllocator: segments do not merge; fitted on ms-swift 1.x benchmark rows",
    )
