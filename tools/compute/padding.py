"""Padding on unpacked data: how many of the tokens a GPU computes are samples, not padding.

A run that does not pack its samples pads each micro-batch to its longest sample (the Hugging Face
collators' default, `padding=True` = "longest": DataCollatorWithPadding, DataCollatorForSeq2Seq). With b
samples per micro-batch whose lengths X_1..X_b follow the data set's distribution, truncated at the
run's maximum length L:

    padded length        = E[min(max(X_1..X_b), L)] = integral_0^L (1 - F(x)^b) dx
    useful tokens        = E[min(X, L)]              = integral_0^L (1 - F(x)) dx
    padding efficiency   = useful / padded            (1 with one sample per micro-batch)

F is a log-normal with the data set's stated mean and standard deviation (instruction data is
right-skewed: WildChat's Table 1 gives standard deviations of the order of the means). The GPU computes
b x padded length tokens per micro-batch; the attention runs over the padded length.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tools.errors import InputError


@dataclass(frozen=True)
class SampleLengths:
    """Tokens per training sample of a data set: mean and standard deviation, with their source."""

    mean_tokens: float
    sd_tokens: float
    source: str

    def __post_init__(self) -> None:
        if not (self.mean_tokens > 0 and self.sd_tokens >= 0):
            raise InputError(
                f"sample lengths need mean > 0 and sd >= 0, got {self.mean_tokens}, {self.sd_tokens}"
            )


# When a run does not pack and its data set's lengths are not given: the range between two published
# single-turn instruction sets (WildChat, Zhao et al. 2024, ICLR, Table 1, Llama-2 tokenizer; user + model
# turn, standard deviations added in quadrature): Alpaca 19.67 +- 15.19 and 64.51 +- 64.85 tokens; Dolly
# 110.25 +- 261.14 and 91.14 +- 149.15. Multi-turn chat data (ShareGPT: 3.5 turns of ~440 tokens) runs
# longer still: give its lengths.
WILDCHAT_TABLE_1_SOURCE = "WildChat (Zhao et al. 2024) Table 1, Llama-2 tokenizer: user + assistant tokens"
SHORT_INSTRUCTION_DATA = SampleLengths(
    mean_tokens=19.67 + 64.51,
    sd_tokens=math.hypot(15.19, 64.85),
    source=f"Alpaca: {WILDCHAT_TABLE_1_SOURCE}",
)
LONG_INSTRUCTION_DATA = SampleLengths(
    mean_tokens=110.25 + 91.14,
    sd_tokens=math.hypot(261.14, 149.15),
    source=f"Dolly: {WILDCHAT_TABLE_1_SOURCE}",
)
UNSTATED_LENGTHS: tuple[SampleLengths, SampleLengths] = (SHORT_INSTRUCTION_DATA, LONG_INSTRUCTION_DATA)
"""The two ends assumed for unpacked data of unstated lengths."""

UNSTATED_MAX_TOKENS = 2048
"""Truncation length assumed for unpacked data when no sequence length is given (the HF / TRL SFT
scripts' common max_seq_length; it only caps the long tail of the Dolly-like end)."""

PADDING_SOURCE = (
    "pad to the longest sample of each micro-batch (Hugging Face DataCollatorWithPadding / "
    "DataCollatorForSeq2Seq, padding='longest'); log-normal sample lengths"
)
_STEPS = 2000
"""Midpoint-rule steps of the integrals (the result moves < 0.1% beyond this)."""


@dataclass(frozen=True)
class Padding:
    """One micro-batch of unpacked samples, as the GPU computes it."""

    padded_tokens_per_sample: float
    """E[min(longest of the micro-batch, max_tokens)]: the sequence length the GPU computes"""
    useful_tokens_per_sample: float
    """E[min(sample, max_tokens)]: the tokens that count"""

    @property
    def efficiency(self) -> float:
        """useful / computed tokens (1 = no padding)"""
        return self.useful_tokens_per_sample / self.padded_tokens_per_sample


def padding(*, lengths: SampleLengths, samples_per_micro_batch: int, max_tokens: int) -> Padding:
    """Padded and useful tokens per sample for micro-batches of `samples_per_micro_batch` samples."""
    if samples_per_micro_batch < 1 or max_tokens < 1:
        raise InputError(
            f"padding needs >= 1 sample and max_tokens, got {samples_per_micro_batch}, {max_tokens}"
        )
    mean, sd = lengths.mean_tokens, lengths.sd_tokens
    if sd == 0:
        tokens = min(mean, float(max_tokens))
        return Padding(tokens, tokens)
    sigma2 = math.log1p((sd / mean) ** 2)
    mu, sigma = math.log(mean) - sigma2 / 2, math.sqrt(sigma2)

    def cdf(x: float) -> float:
        return 0.5 * (1.0 + math.erf((math.log(x) - mu) / (sigma * math.sqrt(2.0))))

    dx = max_tokens / _STEPS
    useful = padded = 0.0
    for i in range(_STEPS):
        f = cdf((i + 0.5) * dx)
        useful += (1.0 - f) * dx
        padded += (1.0 - f**samples_per_micro_batch) * dx
    return Padding(padded_tokens_per_sample=padded, useful_tokens_per_sample=useful)
