"""Expert review 9: "someone told me we can run Llama 3.1 405B on a single 8xH100 node in FP8. true?" is a
serving claim on 8x H100 (R05; it became a LoRA job), and a choice asked between GPUs is a comparison
("Is an H200 worth it over H100 ...?", R20; "H200 or H100 for ...?", "1x L40S or 1x H100?")."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


def test_a_model_run_on_named_hardware_is_a_serving_claim(extract: Extract) -> None:
    p = extract("someone told me we can run Llama 3.1 405B on a single 8xH100 node in FP8. true?")
    assert (p.workload, p.precision) == ("inference", "fp8")
    assert (p.claimed_gpu, p.claimed_gpu_count) == ("h100-sxm", 8)


def test_a_run_of_a_training_job_stays_training(extract: Extract) -> None:
    p = extract("Run a LoRA of Llama 3.1 8B on 2B tokens on our 4 A100s.")
    assert p.workload == "fine_tuning"


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("Is an H200 worth it over H100 for serving Llama 3.3 70B to 100 users?", ["h200", "h100-sxm"]),
        ("H200 or H100 for serving Llama 3.3 70B to 100 users?", ["h200", "h100-sxm"]),
        ("Serve Llama 3.1 8B to 40 users. 1x L40S or 1x H100?", ["l40s", "h100-sxm"]),
    ],
)
def test_a_choice_asked_is_a_comparison(extract: Extract, text: str, ids: list[str]) -> None:
    assert extract(text).gpus_compared == ids


def test_a_stated_preference_is_not_a_comparison(extract: Extract) -> None:
    p = extract("We prefer H100 over A100 for this LoRA of Llama 3.1 8B on 20M tokens.")
    assert not p.gpus_compared
