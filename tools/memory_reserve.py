"""What PyTorch's caching allocator reserves beyond the tensors of a training step's peak (issue 15).

The reserved basis (torch.cuda.max_memory_reserved) counts every segment the allocator has cudaMalloc'd and
not given back. Its rules (pytorch/pytorch c10/cuda/CUDACachingAllocator.cpp, default settings, read
2026-11-28): a request is served from the smallest cached free block at least as large (best fit,
`get_free_block`), split when the remainder is large enough (`should_split`: > 1 MiB in the large pool); with
no such block it cudaMallocs a new segment of that request's size (rounded to 2 MiB; 20 MiB for 1-10 MiB
requests); freed blocks merge only with free neighbours of the same segment, never across segments; cached
segments are released only on empty_cache or when a cudaMalloc fails. So the pool grows to the step's
largest transient that no cached free block can hold, and keeps it. Two such transients show on the lent-GPU
sets:

- the loss's logits buffers under gradient checkpointing. At the loss backward transformers' fp32 loss holds
  three logits-sized fp32 buffers (tools.memory_activations LOGITS_BYTES_PER_VALUE: log-softmax output, its
  gradient, the loss gradient) while the freed bf16 logits block is half their size, so one request finds no
  cached block as large and gets a segment of its own. Checkpointed, the rest of the step needs only one
  layer's recompute at a time and the segment stays cached and unused at the peak: measured, reserved minus
  allocated is 0.77-1.29 x one fp32 logits block on 12 of the 15 checkpointed pure-bf16 rows (median 0.97;
  the other three, full or foreach runs, 1.75-2.25). The 14 rows without checkpointing keep 1.2-6.5 GiB
  (foreach aside), 0.1-2.4 x their logits block, loosely related to it (presumably the kept activations'
  segments, freed by each backward, host most of the next step's logits blocks): a quarter block.
- the optimizer step's temporaries (torch.optim AdamW foreach: one parameter-sized set in the state dtype,
  tools.memory_states.optimizer_step_temporaries), allocated when every activation is dead. Mixed precision
  (fp32 temporaries): reserved minus allocated is 0.67-1.18 x the temporaries (4 rows): few cached 16-bit
  blocks host them; pure bf16: 0.29-0.62 x (the 3 rows whose temporaries exceed their logits block),
  0.25 taken (the freed bf16 activation and gradient blocks host most of them).

These two are alternatives, not a sum (the later transient is carved from the earlier one's cached segments):
the pool keeps the larger, plus a residue of split remainders and 2 MiB rounding (RESIDUAL_FRACTION of the
dynamic bytes), plus a variable-length run's stale logits segments (tools.memory_phases). The shares are read
off the lent H200 sets, development sets (bench/data/memory_measurements_device.yaml and _device2.yaml); the
third lent set is the held-out check. FSDP / ZeRO-3 runs (not on those sets) all-gather and free a parameter
block every layer, which hosts the step's shard-sized temporaries: no step term for them. Serving keeps the
calibrated fraction of its activations (ALLOCATOR_FRAGMENTATION_FRACTION); quantised-base and CPU-offloaded
training runs, which the lent sets do not cover, keep it as their residue (residual_fraction).
"""

from __future__ import annotations

from tools.memory_types import Plan
from tools.trace import TraceBuilder

ALLOCATOR_FRAGMENTATION_FRACTION = 0.15
"""The reserve as a fraction of the dynamic bytes live at the peak (activations, gradients, adapter states,
optimizer temporaries), for serving and as the residue of the runs residual_fraction names; fitted on the
calibration rows marked for fitting (tools.memory_calibration.FIT_SOURCES: torchtune README, LLaMA-Factory
wiki; median |error| 6.4% at 0.15 vs 7.1% at 0.10, 2026-11-25), held-out rows not used."""
LOGITS_BUFFERS_AT_LOSS_BACKWARD = 3.0
"""fp32 logits-sized buffers live at the loss backward (tools.memory_activations LOGITS_BYTES_PER_VALUE =
4+4+4): one of them is the block the checkpointed step leaves cached."""
CHECKPOINTED_LOGITS_SEGMENTS: dict[bool, float] = {False: 1.0, True: 0.6}
"""Cached, unused logits-sized segments at a checkpointed step's peak, by mixed precision (module
docstring; lent-GPU rows: pure bf16 median 0.97 over 15 rows; mixed precision under autocast 0.60 on both of
its rows)."""
UNCHECKPOINTED_LOGITS_SEGMENTS = 0.25
"""The same without checkpointing (lent-GPU rows 0.1-2.4 x the block, mostly hosted by the freed kept
activations' segments; 0.25 scores as well as 0 on the device sets and keeps the fresh-4 rasbt rows)."""
STEP_TEMPORARIES_NEW_SEGMENTS: dict[bool, float] = {True: 1.0, False: 0.25}
"""Share of the optimizer step's temporaries that needs new segments: mixed precision (fp32 temporaries) 1.0,
pure 16-bit 0.25 (lent-GPU rows 0.67-1.18 and 0.29-0.62, module docstring)."""
RESIDUAL_FRACTION = 0.02
"""Split remainders and 2 MiB rounding, as a fraction of the dynamic bytes at the peak (lent-GPU rows: runs
without checkpointing keep 1.2-6.5 GiB beyond their tensors with 21-125 GiB dynamic; 0.02 scores best of
0-0.06 on both device sets)."""


NO_WHOLE_LOGITS_LOSSES = ("vocab-parallel", "fused-linear")
"""Unchunked loss implementations (tools.memory_frameworks.LOSS_IMPLS) that never hold a whole fp32
logits-sized buffer: Megatron's vocab-parallel loss works in place on its vocabulary slice; a fused-linear
loss makes no logits tensor at all (tools.memory_fused_loss)."""


ALLOCATOR_RULES_SOURCE = (
    "PyTorch caching allocator: best fit, new segment when no cached block is as large, no merging across"
    " segments (pytorch/pytorch c10/cuda/CUDACachingAllocator.cpp, read 2026-11-28)"
)
"""Where the training reserve's mechanism is read (module docstring)."""
LENT_SETS_SOURCE = (
    "reserved minus allocated on the lent H200 sets (bench/data/memory_measurements_device.yaml,"
    " _device2.yaml, 2026-11-28)"
)
"""Where the training reserve's shares are read off (module docstring)."""
CALIBRATED_FRACTION_SOURCE = (
    "fitted on tools.memory_calibration FIT_SOURCES (torchtune README, LLaMA-Factory wiki; median |error|"
    " 6.4% at 0.15 vs 7.1% at 0.10, 2026-11-25)"
)
"""Where ALLOCATOR_FRAGMENTATION_FRACTION comes from (its docstring)."""


def residual_fraction(plan: Plan) -> float:
    """The residue per dynamic byte (also what ranks a training step's phases on the reserved basis). Runs the
    lent sets do not cover keep the calibrated ALLOCATOR_FRAGMENTATION_FRACTION: a quantised base (its
    dequantised weight buffers, one per linear shape, are allocated and freed by every layer) and CPU
    offload (host-staged parameters and states)."""
    if plan.quantized or plan.offload != "none":
        return ALLOCATOR_FRAGMENTATION_FRACTION
    return RESIDUAL_FRACTION


def _segment_shares(plan: Plan, logits_backward_bytes: float) -> tuple[float, float, float]:
    """(fp32 logits block bytes, its cached share, the step temporaries' new-segment share): the two whole
    cached segments of the module docstring."""
    logits_block = logits_backward_bytes / LOGITS_BUFFERS_AT_LOSS_BACKWARD
    # a chunked, vocab-parallel or fused loss holds no whole logits-sized buffer (tools.memory_activations)
    whole_logits = not plan.loss_chunking and plan.loss_impl not in NO_WHOLE_LOGITS_LOSSES
    checkpointed = plan.grad_checkpointing and whole_logits
    share = CHECKPOINTED_LOGITS_SEGMENTS[plan.mixed] if checkpointed else UNCHECKPOINTED_LOGITS_SEGMENTS
    # FSDP / ZeRO-3 free an all-gathered (unsharded) parameter block after every layer: the step's shard-sized
    # temporaries are carved from those cached blocks and need no segment of their own
    gathers = plan.sharding in ("fsdp", "zero3")
    step_share = 0.0 if gathers else STEP_TEMPORARIES_NEW_SEGMENTS[plan.mixed]
    return logits_block, share if whole_logits else 0.0, step_share


def releasable_reserve(
    plan: Plan, logits_backward_bytes: float, step_temporaries_bytes: float, tb: TraceBuilder
) -> float:
    """Bytes of the training reserve that a card too small for it takes back for good (tools.memory_card):
    the cached whole segments (the larger of the logits segment and the step temporaries' segments). When a
    cudaMalloc fails the allocator frees every cached segment none of whose blocks is in use
    (`release_cached_blocks`, after `release_available_cached_blocks`) and retries; a step of fixed shapes
    then replays the same requests on a pool that held them, so those segments are not made again and the
    steady step keeps only the residue (split remainders). Lent H200, fifth set (development since mem22):
    Llama 3.1 8B LoRA at 4 x 16k tokens, checkpointed, 126.44 GiB allocated, 128.49 reserved on a 139.8 GiB
    card (residue 2.05 GiB, 0.018 of its dynamic bytes; the uncapped estimate adds a 31 GiB logits
    segment). A variable-length run (stale logits segments, tools.memory_phases) meets new shapes after the
    release and grows back to the card: nothing is released for good (ms-swift 1.x's batch-8 row, 76.1 GiB
    reserved on an 80 GB A100)."""
    if plan.variable_length:
        return tb.step(
            "allocator_reserve_releasable",
            "0: a variable-length run grows its segments back after a release",
            0.0,
            "B",
            source=ALLOCATOR_RULES_SOURCE,
        )
    logits_block, share, step_share = _segment_shares(plan, logits_backward_bytes)
    return tb.step(
        "allocator_reserve_releasable",
        "max(logits share x fp32 logits block, step share x step temporaries): whole cached segments",
        max(share * logits_block, step_share * step_temporaries_bytes),
        "B",
        logits_block_bytes=logits_block,
        logits_segment_share=share,
        step_temporaries_bytes=step_temporaries_bytes,
        step_temporaries_share=step_share,
        source=f"{ALLOCATOR_RULES_SOURCE} (release_cached_blocks on a failed cudaMalloc)",
    )


def training_reserve(
    plan: Plan,
    dynamic_bytes: float,
    logits_backward_bytes: float,
    step_temporaries_bytes: float,
    tb: TraceBuilder,
    stale_logits_bytes: float = 0.0,
) -> float:
    """Bytes the caching allocator holds beyond the tensors at a training step's peak (module docstring):
    the larger of the checkpointed logits segment and the step temporaries' new segments, plus a
    variable-length run's stale logits segments (tools.memory_phases.variable_length_reserve: earlier,
    shorter batches' blocks, beside the longest batch's own), plus the residue."""
    logits_block, share, step_share = _segment_shares(plan, logits_backward_bytes)
    residue = residual_fraction(plan)
    _assume_training_constants(plan, share, step_share, residue, tb)
    return tb.step(
        "allocator_reserve",
        "max(logits share x fp32 logits block, step share x step temporaries) + stale logits"
        " + residual fraction x dynamic",
        max(share * logits_block, step_share * step_temporaries_bytes)
        + stale_logits_bytes
        + residue * dynamic_bytes,
        "B",
        logits_block_bytes=logits_block,
        logits_segment_share=share,
        grad_checkpointing=plan.grad_checkpointing,
        step_temporaries_bytes=step_temporaries_bytes,
        step_temporaries_share=step_share,
        stale_logits_bytes=stale_logits_bytes,
        residual_fraction=residue,
        dynamic_bytes=dynamic_bytes,
        source=f"{ALLOCATOR_RULES_SOURCE}; shares: {LENT_SETS_SOURCE}",
    )


def _assume_training_constants(
    plan: Plan, logits_share: float, step_share: float, residue: float, tb: TraceBuilder
) -> None:
    """The training reserve's constants as applied to this plan, each with its source (every number in a
    report is traceable to its formula: the serving fraction is not named here, since training does not
    use it)."""
    whole_logits = not plan.loss_chunking and plan.loss_impl not in NO_WHOLE_LOGITS_LOSSES
    if not whole_logits:
        why = "a chunked, vocab-parallel or fused-linear loss holds no whole logits-sized buffer"
    elif plan.grad_checkpointing:
        why = (
            f"checkpointed, {'mixed precision' if plan.mixed else 'pure 16-bit'}"
            " (CHECKPOINTED_LOGITS_SEGMENTS: pure bf16 median 0.97 over 15 rows, mixed 0.60 on 2)"
        )
    else:
        why = "without checkpointing (UNCHECKPOINTED_LOGITS_SEGMENTS: 0.1-2.4 x the block, mostly hosted)"
    tb.assume(
        "allocator_logits_segment_share",
        logits_share,
        "fp32 logits blocks",
        f"cached, unused logits segments at the peak, {why}; {LENT_SETS_SOURCE}; {ALLOCATOR_RULES_SOURCE}",
    )
    if plan.sharding in ("fsdp", "zero3"):
        step_why = "0: FSDP / ZeRO-3 carve the step's temporaries from freed all-gathered parameter blocks"
    else:
        step_why = (
            "share of the optimizer step's temporaries in new segments (STEP_TEMPORARIES_NEW_SEGMENTS:"
            " fp32 temporaries 1.0, rows 0.67-1.18; pure 16-bit 0.25, rows 0.29-0.62)"
        )
    tb.assume("allocator_step_temporaries_share", step_share, "", f"{step_why}; {LENT_SETS_SOURCE}")
    if residue == RESIDUAL_FRACTION:
        res_why = (
            f"split remainders and 2 MiB rounding (RESIDUAL_FRACTION, best of 0-0.06; {LENT_SETS_SOURCE})"
        )
    else:
        res_why = (
            "quantised base or CPU offload, not on the lent sets: the calibrated fraction"
            f" ALLOCATOR_FRAGMENTATION_FRACTION, {CALIBRATED_FRACTION_SOURCE}"
        )
    tb.assume("allocator_residual_fraction", residue, "of dynamic bytes at the peak", res_why)


def serving_reserve(dynamic_bytes: float, tb: TraceBuilder) -> float:
    """Bytes the caching allocator holds beyond a serving peak's tensors: the calibrated fraction of the
    activations live at the peak (a KV cache is one preallocated block: none around it)."""
    tb.assume(
        "allocator_reserve_fraction",
        ALLOCATOR_FRAGMENTATION_FRACTION,
        "of activations at the peak",
        f"serving: PyTorch caching allocator, reserved vs allocated; {CALIBRATED_FRACTION_SOURCE}",
    )
    return tb.step(
        "allocator_reserve",
        "fraction x activations live at the peak",
        ALLOCATOR_FRAGMENTATION_FRACTION * dynamic_bytes,
        "B",
        fraction=ALLOCATOR_FRAGMENTATION_FRACTION,
        dynamic_bytes=dynamic_bytes,
        source=CALIBRATED_FRACTION_SOURCE,
    )
