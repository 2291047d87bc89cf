"""Owned hardware written as machines (issue 12): DGX boxes, N x M-GPU nodes, racks and clusters of N,
"our lab has N"; rented machines and plain mentions are not owned."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.rules_fleet import GPUS_PER_DGX
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("We have two DGX A100s. LoRA Llama 3 8B on 10M tokens.", "a100", 2 * GPUS_PER_DGX),
        ("We've got a DGX H100 box.", "h100", GPUS_PER_DGX),
        ("On our DGX H100 we want to LoRA Llama 3 8B.", "h100", GPUS_PER_DGX),
        ("We own a rack of 32 H100s.", "h100", 32),
        ("I have 4x 3090 in a workstation.", "rtx-3090", 4),
        ("We have two 8xH100 nodes in our basement.", "h100", 16),
        ("We have 3 servers with 4x L40S each.", "l40s", 12),
        ("Our lab has 8 A100 80GB.", "a100-80gb", 8),
        ("There are 16 A100s in our cluster.", "a100", 16),
    ],
)
def test_owned_machines_give_type_and_gpu_count(extract: Extract, text: str, gpu: str, count: int) -> None:
    p = extract(text)
    assert p.owned_gpu is not None and p.owned_gpu.startswith(gpu), text
    assert p.owned_gpu_count == count, text


def test_a_question_about_owned_machines_is_a_claim_with_their_count(extract: Extract) -> None:
    p = extract("Could our two DGX A100s finish it in a day? LoRA Llama 3 8B on 50M tokens.")
    assert (p.owned_gpu_count, p.claimed_gpu_count, p.claimed_hours) == (16, 16, 24)


@pytest.mark.parametrize(
    "text",
    [
        "We have two 8xH100 nodes reserved at CoreWeave.",
        "A DGX H100 has eight GPUs; LoRA Llama 3 8B on 10M tokens.",
        "There are 16 A100s in the Lambda region we use.",
        "We rent 4x H100 on demand.",
    ],
)
def test_rented_or_merely_mentioned_machines_are_not_owned(extract: Extract, text: str) -> None:
    p = extract(text)
    assert p.owned_gpu is None and p.owned_gpu_count is None, text
