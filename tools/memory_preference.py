"""Memory of preference tuning (tools.preference): the micro-batch's sequences and the frozen reference.

- activations: a pair is two sequences (chosen + rejected) in one concatenated batch (TRL DPOTrainer
  concatenated_forward), so a micro-batch of b pairs holds the activations of 2b sequences;
- reference model: full training with DPO or KTO keeps a second copy of the weights in 16-bit, split by
  tensor / pipeline parallelism like the policy and sharded only by ZeRO-3 / FSDP (TRL prepares the
  reference with the same DeepSpeed ZeRO-3 or FSDP plan as the policy; otherwise each rank holds it
  whole). LoRA / QLoRA: the base with the adapter disabled is the reference, no second copy; precomputed
  reference log-probs: no reference model at train time. Sources: tools.preference.PREFERENCE_SOURCE.

- reference forward: the reference runs without gradients AFTER the policy's forward, while the policy still
  holds its kept activations and its logits (TRL DPOTrainer.get_batch_loss_metrics: concatenated_forward, then
  compute_ref_log_probs; ColossalAI coati/trainer/dpo.py: `actor_all_logits = self.model(...)`, then
  `ref_all_logits = self.ref_model(...)` under no_grad, read 2026-11-27), so its logits add to the forward
  phase: 16-bit, and where the model code upcasts them (loss_impl shift-logits / shift-logits-downcast:
  `logits.float()` in transformers' Llama before 4.45) the 16-bit output and its fp32 copy together at the
  cast (reference_forward_bytes).

Not counted: KTO's KL-estimate batch, and the reference's log-softmax where it is taken row by row (TRL's
selective_log_softmax) or on a half of the batch (coati: the fp32 logits + one half's log-softmax, 6 B per
value, the same as at the cast).
"""

from __future__ import annotations

from tools.memory_states import _stage_fraction, stored_weight_bytes
from tools.memory_types import Plan
from tools.preference import (
    OBJECTIVE_TEXT,
    PREFERENCE_SOURCE,
    check_objective,
    reference_at_train_time,
    reference_copy_needed,
    sequences_per_example,
)
from tools.trace import TraceBuilder, UntracedBuilder

REFERENCE_LOGITS_BYTES = 2.0
"""Bytes per logit value of the reference's forward when the model code leaves the logits 16-bit (the loss
upcasts them: transformers >= 4.45 ForCausalLMLoss; TRL's selective_log_softmax works row by row)."""
REFERENCE_LOGITS_BYTES_UPCAST = 6.0
"""Bytes per logit value when the model code upcasts them (`logits = logits.float()`, transformers' Llama
before 4.45; loss_impl shift-logits / shift-logits-downcast): the 16-bit lm_head output (2 B) and its fp32
copy (4 B) are both live at the cast."""

REFERENCE_WEIGHT_PRECISION = "bf16"
"""TRL loads the reference like the policy (torch_dtype bf16 in its examples); it holds no fp32 master."""


def sequences_in_micro_batch(objective: str, batch_size: int, tb: TraceBuilder) -> int:
    """Sequences the policy holds activations for: batch_size x sequences per example (2 for a pair)."""
    seqs = sequences_per_example(objective)
    if seqs == 1:
        return batch_size
    return int(
        tb.step(
            "sequences_per_micro_batch",
            "micro-batch of pairs x 2 (chosen + rejected, one concatenated batch)",
            batch_size * seqs,
            "sequences",
            PREFERENCE_SOURCE,
            pairs_per_micro_batch=batch_size,
            objective=objective,
        )
    )


def reference_weight_bytes(plan: Plan, objective: str, precomputed: bool, tb: TraceBuilder) -> float:
    """Bytes per GPU of the frozen reference model (0 when none is held: adapters, reference-free, or
    precomputed log-probs), with the assumption that says which."""
    obj = check_objective(objective)
    if obj == "sft":
        return 0.0
    if not reference_at_train_time(obj, precomputed):
        why = "log-probs precomputed" if precomputed else "reference-free"
        tb.assume("reference_model_memory", f"none ({OBJECTIVE_TEXT[obj]}: {why})", "", PREFERENCE_SOURCE)
        return 0.0
    if not reference_copy_needed(obj, plan.method, precomputed):
        tb.assume(
            "reference_model_memory",
            "no second copy: the base model with the adapter disabled is the reference (TRL with PEFT)",
            "",
            PREFERENCE_SOURCE,
        )
        return 0.0
    split = _stage_fraction(plan, UntracedBuilder()) / plan.tp
    return tb.step(
        "reference_weights_per_gpu",
        "params x 2 B (bf16 frozen copy) x stage_fraction / tp / shard (ZeRO-3/FSDP only)",
        stored_weight_bytes(plan.arch, REFERENCE_WEIGHT_PRECISION) * split / plan.shard("weights"),
        "B",
        PREFERENCE_SOURCE,
        params=plan.arch.param_count(),
        tp=plan.tp,
        shard=plan.shard("weights"),
    )


def reference_forward_bytes(plan: Plan, objective: str, precomputed: bool, tb: TraceBuilder) -> float:
    """Bytes per GPU of the reference's logits during its forward, beside the policy's forward-phase memory
    (module docstring); 0 without a reference at train time. With adapters the reference is the base with the
    adapter disabled: the same forward runs."""
    obj = check_objective(objective)
    if not plan.training or not reference_at_train_time(obj, precomputed):
        return 0.0
    upcast = plan.loss_impl in ("shift-logits", "shift-logits-downcast")
    per_value = REFERENCE_LOGITS_BYTES_UPCAST if upcast else REFERENCE_LOGITS_BYTES
    return tb.step(
        "reference_forward_logits",
        "tokens x vocab x bytes / tp (the reference's logits, beside the policy's after its forward)",
        plan.tokens * plan.arch.vocab_size * per_value / plan.tp,
        "B",
        PREFERENCE_SOURCE,
        tokens=plan.tokens,
        vocab=plan.arch.vocab_size,
        bytes_per_value=per_value,
        loss_impl=plan.loss_impl,
    )
