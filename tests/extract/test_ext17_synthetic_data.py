"""A batch job that writes training data is inference, not the fine-tune the data is for
(advisor/extract/rules_workload.py; issue 12, evals v12 development case "synthetic data gen for our math
SFT set"): the phrasing, two variants, and near misses where the training word is the job."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    "text",
    [
        "synthetic data gen for our math SFT set: we want 3 million solutions sampled from Llama 3.3 70B, "
        "prompts ~200 tok, solutions avg ~1.1k tok. needs to be done in 72 hrs.",
        "We're sampling 2M answers from Qwen2.5 72B to build a DPO pairs dataset, ~500 tokens each, "
        "within 5 days.",
        "Data generation job: write 1M examples with Llama 3.1 70B for our SFT mix, ~400 tokens each, "
        "in 4 days.",
    ],
)
def test_generating_data_for_a_fine_tune_is_a_batch_inference_job(extract: Extract, text: str) -> None:
    p = extract(text)
    assert p.workload == "inference" and p.generation_tokens is not None and p.target_tokens_per_s is not None


@pytest.mark.parametrize(
    "text",
    [
        "Fine-tune Llama 3.1 8B on our SFT set of 50M tokens.",
        "SFT Llama 3.1 8B on the data set we generated last month, 50M tokens.",
    ],
)
def test_near_miss_training_on_the_data_is_fine_tuning(extract: Extract, text: str) -> None:
    assert extract(text).workload == "fine_tuning"
