"""Owned GPUs from a pasted node listing the team calls its own (advisor/extract/rules_owned_table.py) and
own hardware only said as a refusal to rent (rules_stay_on.rule_own_hardware_only); issue 12, evals
v15/v12 development cases; each with two variants and a near miss."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
_KUBECTL = (
    "$ kubectl get nodes -L nvidia.com/gpu.product,nvidia.com/gpu.count\n"
    "NAME        STATUS   ROLES    AGE    VERSION   GPU.PRODUCT              GPU.COUNT\n"
    "gpu-a-01    Ready    <none>   212d   v1.30.4   NVIDIA-H100-80GB-HBM3    8\n"
    "gpu-a-02    Ready    <none>   212d   v1.30.4   NVIDIA-H100-80GB-HBM3    8\n"
    "cpu-01      Ready    control  401d   v1.30.4   <none>                   <none>\n\n"
)
_ASK = "Question: can we LoRA-tune Llama 3.1 70B on 2B tokens in 3 days on these two nodes?"


@pytest.mark.parametrize(
    "ours",
    [
        "^ that's our own cluster, bought last year; we won't rent anything.",
        "These are our machines, in our basement. We don't want to rent GPUs.",
        "We own these, no renting. Nothing may leave the building.",
    ],
)
def test_a_node_listing_said_to_be_ours_is_owned(extract: Extract, ours: str) -> None:
    p = extract(_KUBECTL + ours + "\n" + _ASK)
    assert (p.owned_gpu, p.owned_gpu_count) == ("h100-sxm", 16)
    assert (p.claimed_gpu, p.claimed_gpu_count, p.claimed_hours) == ("h100-sxm", 16, 72)
    assert p.deployment_preference == "on_prem"


def test_near_miss_a_listing_with_no_ownership_is_not_owned(extract: Extract) -> None:
    p = extract(_KUBECTL + "This is what the provider offered us for a month.\n" + _ASK)
    assert p.owned_gpu is None


def test_near_miss_renting_only_if_needed_is_no_own_hardware_rule(extract: Extract) -> None:
    p = extract("LoRA Llama 3.1 8B on 100M tokens. If we can't rent anything cheap, we'll wait.")
    assert p.deployment_preference != "on_prem"
