"""The prompt a time-to-first-token target is checked for when the request gives a context but no prompt.

Expert review 20 (P16b): "Qwen2.5 32B with a context length 100k tokens ... time-to-first-token under 10 s"
was answered 2x A100 with "0.14-0.48 s to the first token": the TTFT was computed for the 4,000-token
benchmark prompt (tools/compute/serving_constants.py), while a 100k prefill takes ~42 s on those GPUs.

The rule (what a buyer signing a TTFT target would hold the seller to): a TTFT target is a promise for
the requests the service accepts; when the request states a context length and no prompt size, the
longest prompt it accepts fills that context less the answer, so the target is checked for that prompt.
It is named as an assumption in the answer ("prompt length ... tokens: a prompt filling the stated
context"), so a user whose prompts are shorter says so and the TTFT is sized on theirs. Without a TTFT
target, or with a stated prompt, nothing changes (the context stays the longest sequence the service
holds; the speed is sized on the typical prompt).
"""

from __future__ import annotations

TTFT_FULL_CONTEXT_WHY = (
    "a time-to-first-token target with a stated context and no prompt size: checked for a prompt that fills "
    "the context less the answer, the longest prompt the service accepts (say your typical prompt if shorter)"
)


def ttft_prompt_tokens(
    *, ttft_target_s: float | None, context_len: int | None, prompt_tokens: int | None, output_tokens: int
) -> int | None:
    """The prompt length to assume for a TTFT target (module docstring), or None when none is to be assumed.

    `context_len` is the stated context (None when it is not stated), `output_tokens` the answer length
    (stated or default)."""
    if ttft_target_s is None or context_len is None or prompt_tokens is not None:
        return None
    prompt = context_len - output_tokens
    return prompt if prompt >= 1 else None
