"""One time request: the flags of `gpu-advisor time`, declared once.

`TimeRequest` names every input of a training-time (or, with method `inference`, serving-time)
estimate: which model, how it is trained, on which GPUs, with which framework. The command line, the
Python API (advisor.api.time) and the MCP tool `estimate_time` derive their flags and parameters from
it (tests/compute/test_time_request.py checks they match), as tools.sizing_request does for `size`.

The request carries values as given: advisor.service.timing checks each one and raises the one-line
InputError the command line prints, so `from_flags` builds it without pydantic validation. A framework
name outside tools.vocabulary.FRAMEWORKS is not an error: the generic efficiency band is used and the
result says so.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from tools.preference import TRAINING_OBJECTIVE_DEFAULT, TRAINING_OBJECTIVES
from tools.vocabulary import (
    FRAMEWORK_DEFAULT,
    FRAMEWORKS,
    SEQ_LEN_DEFAULT,
    SERVING_FRAMEWORKS,
    TRAINING_PRECISIONS,
)

MODEL_FIELDS = ("model", "config", "params_b")
"""Exactly one of these names the architecture."""
TIME_PRECISIONS = ("bf16", "fp8")
"""Compute precisions a training time is estimated for (the GPU's dense peak at that precision)."""
INFERENCE_FIELDS = ("concurrency", "prompt_tokens", "output_tokens")
"""Fields only `method inference` reads (serving time)."""


class TimeRequest(BaseModel):
    """One run to time; results in hours and tokens/s. Descriptions are the CLI's help."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str | None = Field(None, description="catalog model id or alias, e.g. llama-3-70b")
    config: Path | None = Field(None, description="a Hugging Face config.json")
    params_b: float | None = Field(None, description="parameters in billions (Llama-like shape)")
    method: str = Field("full", description="full | lora | qlora | pretraining | inference")
    gpu: str | None = Field(None, description="catalog GPU id, e.g. h100-sxm")
    gpus: int = Field(1, description="number of GPUs")
    tokens: float | None = Field(
        None, description="training tokens per epoch (without it: throughput only, no duration)"
    )
    epochs: float = Field(1.0, description="passes over the tokens")
    seq_len: int = Field(SEQ_LEN_DEFAULT, description="training sequence length, tokens")
    batch_size: int | None = Field(None, description="micro-batch per GPU, sequences (unknown if not given)")
    grad_accumulation: int | None = Field(
        None,
        description="micro-batches per optimizer step (gradient accumulation; default 1): a step is "
        "micro-batch x accumulation x --seq-len tokens per GPU, over which the optimizer update "
        "(full/pretraining, with --batch-size) and the data-parallel gradient sync are paid",
    )
    precision: str = Field("bf16", description=" | ".join(TIME_PRECISIONS) + ": compute precision")
    training_precision: str | None = Field(
        None,
        description=f"{' | '.join(TRAINING_PRECISIONS)}: how weights and optimizer states are kept, as "
        "`size` takes it (mixed: FP32 master weights and moments, 28 B/param moved by each AdamW step; "
        "pure-bf16 / pure-fp16: all 16-bit, 14 B); full/pretraining with --batch-size; not given: mixed",
    )
    grad_checkpointing: bool = Field(True, description="activation recomputation")
    flash_attention: bool = Field(
        True,
        description="a memory-efficient attention kernel (FlashAttention, SDPA, cuDNN); "
        "--no-flash-attention: eager attention, whose s x s scores go through GPU memory (slower, "
        "quadratic in --seq-len)",
    )
    packed: bool = Field(
        True,
        description="training samples packed into full sequences; --no-packed: each micro-batch is padded "
        "to its longest sample (chat or instruction data without packing), which wastes compute",
    )
    framework: str | None = Field(
        None,
        description=f"training: {' | '.join(FRAMEWORKS)} (default {FRAMEWORK_DEFAULT}; another name: the "
        f"generic band); inference: {' | '.join(SERVING_FRAMEWORKS)}, optionally with the engine's release "
        "(e.g. vllm-0.5: vLLM before 0.8 ran its V0 engine, slower at high concurrency; default: a current "
        "release)",
    )
    training_objective: str = Field(
        TRAINING_OBJECTIVE_DEFAULT,
        description=f"{' | '.join(TRAINING_OBJECTIVES)}: preference tuning runs chosen + rejected (2 "
        "sequences per pair); dpo and kto add a frozen reference model's forward (2 x N per token)",
    )
    precompute_ref_log_probs: bool = Field(
        False, description="dpo/kto: reference log-probs computed before training (no reference forward)"
    )
    pairs: float | None = Field(
        None,
        description="preference pairs per epoch, instead of --tokens: tokens = pairs x (2 x prompt + chosen "
        "+ rejected) (each pair's two sequences repeat the prompt)",
    )
    pair_prompt_tokens: int | None = Field(
        None, description="with --pairs: prompt tokens per pair (0 if --chosen/--rejected-tokens include it)"
    )
    chosen_tokens: int | None = Field(None, description="with --pairs: tokens of the chosen answer")
    rejected_tokens: int | None = Field(None, description="with --pairs: tokens of the rejected answer")
    concurrency: int | None = Field(None, description="inference: requests in flight")
    prompt_tokens: int | None = Field(None, description="inference: input tokens per request")
    output_tokens: int | None = Field(None, description="inference: output tokens per request")

    @classmethod
    def from_flags(cls, **flags: Any) -> TimeRequest:
        """The request as given (unset flags take their defaults), unvalidated: the time use case checks
        each value. An unknown name raises TypeError, as a keyword call would."""
        unknown = [name for name in flags if name not in cls.model_fields]
        if unknown:
            raise TypeError(f"time() got an unexpected keyword argument {unknown[0]!r}")
        return cls.model_construct(**flags)


def cli_flag(name: str) -> str:
    """The command-line flag of a field: --seq-len for seq_len; booleans also get --no-..."""
    flag = "--" + name.replace("_", "-")
    if TimeRequest.model_fields[name].annotation in (bool, "bool"):
        return f"{flag}/--no-{flag[2:]}"
    return flag
