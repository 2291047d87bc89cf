"""Preference tuning (DPO, ORPO, SimPO, KTO) as a training objective, orthogonal to full / LoRA / QLoRA.

What a preference objective changes against plain supervised fine-tuning (SFT), per training example:

- sequences: DPO, ORPO and SimPO train on pairs; the chosen and the rejected answer, each after the same
  prompt, are two sequences that run through the policy in one concatenated batch (TRL DPOTrainer
  `concatenated_forward`: "concatenating the chosen and rejected inputs together", huggingface/trl
  trl/trainer/dpo_trainer.py, read 2026-11-27). A micro-batch of b pairs is 2b sequences: twice the
  activations of b SFT samples. KTO trains on unpaired examples: one sequence each.
- reference model: DPO and KTO compare the policy's log-probabilities with a frozen reference model's
  (Rafailov et al. 2023, eq. 7; TRL DPOTrainer / KTOTrainer). ORPO (Hong et al. 2024) and SimPO (Meng et
  al. 2024) need none. Full fine-tuning keeps a second copy of the weights (TRL `create_reference_model`,
  16-bit); with a PEFT adapter (LoRA / QLoRA) TRL uses the same base with the adapter disabled as the
  reference, so no second copy (TRL docs, DPO Trainer, "reference model" with PEFT: ref_model=None,
  https://huggingface.co/docs/trl/dpo_trainer, read 2026-11-27). `precompute_ref_log_probs=True` runs
  the reference once over the data before training and keeps no reference model in memory at train time
  (TRL DPOConfig docstring: "allows training without needing the reference model during training",
  huggingface/trl trl/trainer/dpo_config.py, read 2026-11-27).
- compute: the policy's forward + backward is k x N per token (6 full, 4 adapters); the reference's
  forward is 2 x N per token on the same sequences (forward only: Kaplan et al. 2020, 2N per token), so
  DPO full fine-tuning is (6 + 2) x N per token and LoRA DPO (4 + 2) x N. With precomputed reference
  log-probs the training loop runs no reference forward (6 or 4 x N); the one-off pass before training
  (2 x N x tokens of one epoch) is left out of the hours and named in the trace. KTO's KL-estimate forward
  on mismatched pairs is not counted (an extra forward without gradients, about 2 x N per token more;
  said in the trace).

Tokens: for a paired objective the dataset's training tokens per epoch are the tokens of both sequences
of every pair, the prompt counted twice (once before the chosen, once before the rejected answer):

    tokens = pairs x (2 x prompt + chosen + rejected)

`preference_tokens` gives this; when each "side" is stated with its prompt included (chosen sequence
and rejected sequence lengths) it is pairs x (chosen side + rejected side).
"""

from __future__ import annotations

from typing import Literal

from tools.trace import TraceBuilder

TrainingObjective = Literal["sft", "dpo", "orpo", "simpo", "kto"]
TRAINING_OBJECTIVES: tuple[str, ...] = ("sft", "dpo", "orpo", "simpo", "kto")
TRAINING_OBJECTIVE_DEFAULT = "sft"

PAIRED_OBJECTIVES: frozenset[str] = frozenset({"dpo", "orpo", "simpo"})
"""Trained on (prompt, chosen, rejected) pairs: two sequences per example (TRL concatenated_forward)."""
REFERENCE_OBJECTIVES: frozenset[str] = frozenset({"dpo", "kto"})
"""Need a frozen reference model's log-probabilities (DPO paper eq. 7; KTO paper eq. 8). ORPO and SimPO
are reference-free by design (their papers' titles say so)."""

REFERENCE_FORWARD_FLOPS_FACTOR = 2.0
"""FLOPs per parameter per token of a forward pass without gradients (Kaplan et al. 2020: 2N)."""
REFERENCE_ATTENTION_SHARE = 1.0 / 3.0
"""The forward's share of the PaLM attention term 12 x L x width x seq (forward 4, backward 8: PaLM App. B
counts the backward as twice the forward)."""

PREFERENCE_SOURCE = (
    "TRL DPOTrainer (concatenated chosen + rejected forward; frozen reference, or the PEFT base with the "
    "adapter disabled; DPOConfig.precompute_ref_log_probs), huggingface/trl, read 2026-11-27"
)

PAIR_SIDE_TOKENS_ASSUMED = 1024
"""Tokens of one side of a preference pair (prompt + answer) when only the pair count is said ("200k
preference pairs", expert review 19, R08): the sequence length TRL truncates each side to by default
(DPOConfig max_length=1024, max_prompt_length=512; huggingface/trl trl/trainer/dpo_config.py, 2025
releases). An assumption, said in the reading's evidence and asked about; stated lengths replace it."""

OBJECTIVE_TEXT = {
    "sft": "supervised fine-tuning",
    "dpo": "DPO (direct preference optimization)",
    "orpo": "ORPO (odds-ratio preference optimization, no reference model)",
    "simpo": "SimPO (simple preference optimization, no reference model)",
    "kto": "KTO (unpaired preference tuning with a reference model)",
}


def check_objective(objective: str | None) -> str:
    """The objective, or the default for None; an unknown name raises ValueError (callers wrap it)."""
    if objective is None:
        return TRAINING_OBJECTIVE_DEFAULT
    if objective not in TRAINING_OBJECTIVES:
        allowed = ", ".join(TRAINING_OBJECTIVES)
        raise ValueError(f"unknown training objective {objective!r}: use one of {allowed}")
    return objective


def sequences_per_example(objective: str) -> int:
    """Sequences the policy runs per training example: 2 for a pair (chosen + rejected), else 1."""
    return 2 if objective in PAIRED_OBJECTIVES else 1


def reference_at_train_time(objective: str, precompute_ref_log_probs: bool) -> bool:
    """Whether the reference model runs during training (DPO/KTO unless its log-probs are precomputed)."""
    return objective in REFERENCE_OBJECTIVES and not precompute_ref_log_probs


def reference_copy_needed(objective: str, method: str, precompute_ref_log_probs: bool) -> bool:
    """Whether a second copy of the weights sits on the GPUs: full training with a reference at train time;
    adapters (LoRA / QLoRA) use the base with the adapter disabled (TRL with peft)."""
    return reference_at_train_time(objective, precompute_ref_log_probs) and method in ("full", "pretraining")


def preference_tokens(
    *, pairs: float, chosen_tokens: float, rejected_tokens: float, prompt_tokens: float = 0.0
) -> float:
    """Training tokens per epoch of `pairs` preference pairs: pairs x (2 x prompt + chosen + rejected).
    With `prompt_tokens` 0, chosen and rejected are whole sequences (prompt included)."""
    stated = (("pairs", pairs), ("chosen_tokens", chosen_tokens), ("rejected_tokens", rejected_tokens))
    for name, value in stated:
        if value <= 0:
            raise ValueError(f"{name} must be > 0, got {value}")
    if prompt_tokens < 0:
        raise ValueError(f"prompt_tokens must be >= 0, got {prompt_tokens}")
    return pairs * (2 * prompt_tokens + chosen_tokens + rejected_tokens)


def reference_forward_flops(
    tb: TraceBuilder,
    *,
    objective: str | None,
    precompute_ref_log_probs: bool,
    active_params: float,
    attention_flops_per_token: float,
) -> tuple[float, float]:
    """FLOPs per training token the reference model's forward adds: (dense, attention) = (2 x N, the
    forward third of the attention term) when the reference runs at train time, else (0, 0). Records the
    objective's assumptions in `tb` (nothing for SFT)."""
    obj = check_objective(objective)
    if obj == TRAINING_OBJECTIVE_DEFAULT:
        return 0.0, 0.0
    seqs = sequences_per_example(obj)
    tb.assume(
        "training_objective",
        f"{OBJECTIVE_TEXT[obj]}: {seqs} sequence(s) per example; tokens = every sequence the policy runs "
        "(a pair: 2 x prompt + chosen + rejected)",
        "",
        PREFERENCE_SOURCE,
    )
    if obj == "kto":
        tb.assume("kto_kl_forward", "not counted (one more forward without gradients)", "", PREFERENCE_SOURCE)
    if obj not in REFERENCE_OBJECTIVES:
        tb.assume("reference_model", "none (reference-free objective)", "", PREFERENCE_SOURCE)
        return 0.0, 0.0
    if precompute_ref_log_probs:
        tb.assume(
            "reference_model",
            "log-probs precomputed: no reference forward in training; the one-off pass before it "
            "(2 x N x one epoch's tokens) is not in the hours",
            "",
            PREFERENCE_SOURCE,
        )
        return 0.0, 0.0
    dense = tb.step(
        "reference_forward_flops_per_token",
        "2 x N_active (frozen reference: forward only, on the same sequences)",
        REFERENCE_FORWARD_FLOPS_FACTOR * active_params,
        "FLOPs/token",
        "Kaplan et al. 2020 (forward 2N); " + PREFERENCE_SOURCE,
        active_params=active_params,
    )
    return dense, attention_flops_per_token * REFERENCE_ATTENTION_SHARE


def with_reference_forward(
    tb: TraceBuilder,
    objective: str | None,
    precompute_ref_log_probs: bool,
    *,
    active_params: float,
    per_token: float,
    dense: float,
    attention: float,
) -> tuple[float, float, float]:
    """(flops_per_token, dense, attention) with the reference's forward added when it runs at train time
    (tools.compute.training's per-token FLOPs; unchanged for SFT and reference-free objectives)."""
    ref_dense, ref_attn = reference_forward_flops(
        tb,
        objective=objective,
        precompute_ref_log_probs=precompute_ref_log_probs,
        active_params=active_params,
        attention_flops_per_token=attention,
    )
    if ref_dense == 0:
        return per_token, dense, attention
    total = tb.step(
        "flops_per_token_with_reference",
        "policy (k x N + attention) + reference forward (2 x N + attention / 3)",
        per_token + ref_dense + ref_attn,
        "FLOPs/token",
        PREFERENCE_SOURCE,
        policy_flops_per_token=per_token,
        reference_flops_per_token=ref_dense + ref_attn,
    )
    return total, dense + ref_dense, attention + ref_attn


def objective_basis(objective: str | None, method: str | None, precompute_ref_log_probs: bool) -> str | None:
    """One sentence for the reply and report: the objective and the reference-model assumption behind the
    memory and time ('Objective: DPO ... with a frozen reference model ...'); None for SFT or unknown."""
    if objective is None or objective == TRAINING_OBJECTIVE_DEFAULT or objective not in TRAINING_OBJECTIVES:
        return None
    text = f"Objective: {OBJECTIVE_TEXT[objective]}"
    text += " on chosen + rejected, 2 sequences per pair" if objective in PAIRED_OBJECTIVES else ""
    if objective not in REFERENCE_OBJECTIVES:
        return text + "."
    if precompute_ref_log_probs:
        return text + "; reference log-probs precomputed, so no reference model during training."
    if method in ("lora", "qlora"):
        ref = "the base model with the adapter off is the frozen reference (no second copy; TRL with PEFT)"
    else:
        ref = "a frozen reference copy of the weights (bf16) is held beside the policy"
    return (
        f"{text}; {ref}, and its forward pass on both sequences is in the time (2 x N per token). "
        "Precomputing reference log-probs removes it."
    )
