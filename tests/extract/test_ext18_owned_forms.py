"""Owned-hardware phrasings from the v14 eval set (evals/cases_v14/, development data) read generally,
each with phrasings of our own and a near miss read the other way (issue 12): procurement verbs and
count words, machines put into service, a question naming the team's machine before describing it or
asked indirectly, one of two machines asked about in the same note, and renting ruled out."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


# ------------------------------------------------------------------ procurement verbs and count words
@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("Our institute has procured 4 nos. H100 PCIe GPUs in one server. Serve Llama 3 8B.", "h100-pcie", 4),
        ("We procured 2 units of A100 80GB last year. Serve Llama 3 8B.", "a100-80gb-sxm", 2),
        ("Our lab has acquired 8 L40S. Serve Llama 3 8B.", "l40s", 8),
    ],
)
def test_procured_hardware_is_owned(extract: Extract, text: str, gpu: str, count: int) -> None:
    p = extract(text)
    assert (p.owned_gpu, p.owned_gpu_count) == (gpu, count)


def test_a_planned_procurement_is_not_owned(extract: Extract) -> None:
    p = extract("Our institute plans to procure 4 H100 PCIe GPUs. Serve Llama 3 8B.")
    assert p.owned_gpu is None


# ------------------------------------------------------------------ machines put into service
@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("racked both HGX B200 boxes at the colo (ours, paid off). Serve DeepSeek-V3.", 16),
        ("We installed two DGX H100 in the basement last week. Serve DeepSeek-V3.", 16),
        ("Took delivery of 3 HGX H200 servers. Serve DeepSeek-V3.", 24),
    ],
)
def test_racked_machines_are_owned(extract: Extract, text: str, count: int) -> None:
    assert extract(text).owned_gpu_count == count


def test_machines_not_yet_racked_are_not_owned(extract: Extract) -> None:
    # a plan, not a past installation
    assert extract("We plan to install two DGX H100 next quarter. Serve DeepSeek-V3.").owned_gpu is None


# ------------------------------------------------------------------ the question names the machine first
@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("Can our cluster do this in 2 days? We own 2 nodes with 8x A100 80GB each. LoRA Llama 3.1 70B on "
         "300M tokens.", 48.0),
        ("Could this server finish it within 3 days? We have 4 H100 PCIe. Full fine-tune Qwen2.5 7B on 1B "
         "tokens.", 72.0),
        ("We have a reservation of 32 H100s. Continued pretraining of Llama 3.1 8B on 30B tokens. Does the "
         "reservation cover it in under 10 days?", 240.0),
        ("Our institute has procured 4 H100 PCIe GPUs. Full fine-tuning of Qwen2.5 7B on 1B tokens. Kindly "
         "advise whether the same will get completed in 3 days on this server.", 72.0),
    ],
)
def test_question_about_own_machine_is_a_claim(extract: Extract, text: str, hours: float) -> None:
    p = extract(text)
    assert p.claimed_gpu == p.owned_gpu is not None
    assert p.claimed_gpu_count == p.owned_gpu_count
    assert p.claimed_hours == hours


def test_a_deadline_statement_is_not_a_claim(extract: Extract) -> None:
    # no question, direct or indirect: the days are a deadline, not a time asked about
    p = extract("Our cluster needs to finish this in 2 days. We own 2 nodes with 8x A100 80GB each. LoRA "
                "Llama 3.1 70B on 300M tokens.")
    assert p.claimed_hours is None
    assert p.deadline_hours == 48.0


# ------------------------------------------------------------------ one of two machines, same note
@pytest.mark.parametrize(
    "text",
    [
        "racked both HGX B200 boxes at the colo. DeepSeek-V3 for 32 users: does ONE box handle that?",
        "We racked our two HGX B200 servers last month. Could one server handle DeepSeek-V3 for 32 users?",
    ],
)
def test_one_of_both_boxes_is_half_the_gpus(extract: Extract, text: str) -> None:
    p = extract(text)
    assert (p.owned_gpu_count, p.claimed_gpu, p.claimed_gpu_count) == (16, "b200", 8)


def test_one_box_said_as_a_fact_is_not_a_share(extract: Extract) -> None:
    p = extract("We own two DGX B200 boxes, one box is in Madrid. Serve DeepSeek-V3 to 32 users.")
    assert p.claimed_gpu_count is None


# ------------------------------------------------------------------ renting ruled out, hardware owned
@pytest.mark.parametrize(
    "text",
    [
        "We own 8 L40S. Serve Qwen2.5 32B to 70 users. We don't want to rent anything.",
        "Our lab has acquired 4 H100 PCIe. Fine-tune Qwen2.5 7B. We are not having any cloud budget.",
        "We have 16 B200 in our colo. Serve DeepSeek-V3. do NOT burst to the cloud, compliance said no",
        "We own 8 L40S. Serve Qwen2.5 32B; renting is not an option.",
    ],
)
def test_no_renting_with_owned_gpus_is_on_prem(extract: Extract, text: str) -> None:
    assert extract(text).deployment_preference == "on_prem"


@pytest.mark.parametrize(
    "text",
    [
        "We own 8 L40S. Serve Qwen2.5 32B. If renting is not possible we'd buy more.",  # a condition
        "We own 8 L40S. Serve Qwen2.5 32B. Renting is fine too.",  # renting allowed
    ],
)
def test_no_renting_near_misses(extract: Extract, text: str) -> None:
    assert extract(text).deployment_preference != "on_prem"
