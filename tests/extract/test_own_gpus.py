"""'Can I do this on my 4090?': the user's own GPUs are read as claimed_gpu(_count)."""

from __future__ import annotations

import pytest

from advisor.extract.rules import RulesExtractor


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("Can I QLoRA fine-tune Llama 3 8B on my RTX 4090? 50M tokens", "rtx-4090", 1),
        ("Can a 4090 handle QLoRA on a 34b model?", "rtx-4090", 1),
        ("We have 4 A100 80GB; LoRA Llama 3 70B on 100M tokens", "a100-80gb-sxm", 4),
        ("our two H100s could do QLoRA of 70B?", "h100-sxm", 2),
        ("I want to fine-tune on one L40S", "l40s", 1),
        ("We have 8 A100s in-house and 3 data scientists.", "a100-80gb-sxm", 8),
    ],
)
def test_own_gpus_are_claimed(text: str, gpu: str, count: int) -> None:
    p = RulesExtractor().extract(text)
    assert (p.claimed_gpu, p.claimed_gpu_count) == (gpu, count)
    assert p.status_of("claimed_gpu") == "stated"


@pytest.mark.parametrize(
    "text",
    ["my budget is $5k for Llama 3 8B, our data is in S3", "Our H100 cluster has 64 GPUs across 8 nodes."],
)
def test_a_budget_a_model_or_a_fleet_of_unknown_size_is_not_a_claimed_gpu(text: str) -> None:
    p = RulesExtractor().extract(text)
    assert p.claimed_gpu is None and p.claimed_gpu_count is None
