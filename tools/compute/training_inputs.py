"""What the training-time estimate assumes when an input is left out (goodput, packing, the micro-batch a
free run takes) and the hints that would narrow its range: named, sourced, for tools.compute.training."""

from __future__ import annotations

from tools.errors import InputError
from tools.ranges import Range
from tools.vocabulary import BATCH_SIZE_DEFAULT, FRAMEWORKS, Framework

# Pretraining runs lose time to failures, restarts, checkpoint writes and evaluation. Llama 3 paper:
# "higher than 90% effective training time" over 54 days with 466 interruptions.
PRETRAINING_GOODPUT = Range(low=0.85, high=0.95)
PRETRAINING_GOODPUT_SOURCE = "Llama 3 paper (>90% effective training time); low end allows less mature stacks"


SEQUENCE_PACKING_SOURCE = (
    "the calibrated fine-tuning rows count tokens of packed or fixed-length sequences; a run that pads each "
    "batch to its longest sample (HF Trainer without packing, on chat or instruction data) computes the "
    "padding too, and its useful tokens/s can be 2-3x lower (PaddleNLP PEFT benchmark, unpacked instruction "
    "data, 1x A100 LoRA: 1,600-2,600 tokens/s against a packed estimate of 3,700-9,600). Pack the data, or "
    "say it is not packed (packed=False, with the data set's sample lengths if known: tools.compute.padding)"
)


HINT_FABRIC = "use InfiniBand / RoCE between nodes (over Ethernet a step can take ~10x longer)"
HINT_SEQ_LEN = "give the sequence length (attention FLOPs grow with it)"
HINT_MICRO_BATCH = "give the micro-batch size per GPU"
HINT_FRAMEWORK = "name the training framework (hf, deepspeed, axolotl, unsloth, torchtune, megatron, ...)"
HINT_GATHERS = "larger micro-batches, fewer GPUs per sharded copy or a faster link (gathers bound the step)"
HINT_SAMPLE_LENGTHS = "pack the samples, or give the data set's sample lengths (padding depends on them)"
HINT_ORDER = (HINT_FABRIC, HINT_GATHERS, HINT_SAMPLE_LENGTHS, HINT_SEQ_LEN, HINT_MICRO_BATCH, HINT_FRAMEWORK)
"""Inputs that would narrow a time range, the one that moves it most first; `narrowing` ends with the
one measurement that replaces the estimate (timing a step on that GPU, with that framework)."""


UNSTATED_MICRO_BATCH_TOKENS = 8192
"""Tokens per micro-batch a run takes when the user does not say (for the weight-gather cap only): a run
free to choose fills the GPU, and the pre-training configs published with their throughput run 8k tokens
per micro-batch (torchtitan's Llama 3 8B/70B: local batch 1 x 8,192; bench/data training rows)."""


def gather_tokens_per_micro_batch(batch_size: int | None, seq_len: float | None) -> float | None:
    """Tokens each GPU computes between two weight gathers: the stated micro-batch x sequence, else at
    least UNSTATED_MICRO_BATCH_TOKENS (the memory plan's 1 sequence is its floor, not the run's choice)."""
    if seq_len is None:
        return None
    if batch_size is not None:
        return batch_size * seq_len
    return max(BATCH_SIZE_DEFAULT * seq_len, UNSTATED_MICRO_BATCH_TOKENS)


def checked_framework(framework: str | None) -> Framework | None:
    """The framework, or an InputError listing the frameworks (None: none named)."""
    if framework is None:
        return None
    if framework not in FRAMEWORKS:
        raise InputError(f"unknown framework {framework!r}: use one of {', '.join(FRAMEWORKS)}")
    return framework  # type: ignore[return-value]
