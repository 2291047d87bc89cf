"""A GPU count written with a classifier word ("4 pieces of A100 80GB", "8 units of H100", "2 pcs RTX
4090"): expert review 8, R05, where the team's own four A100s were listed as unused and 8x B200 rented."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
JOB = "Full fine-tune of Qwen2.5 14B on 500M tokens. "


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("we have 4 pieces of A100 80GB in our office.", "a100-80gb-sxm", 4),  # review 8, R05
        ("We have 8 units of H100 in our rack.", "h100-sxm", 8),
        ("we own 2 pcs RTX 4090.", "rtx-4090", 2),
    ],
)
def test_a_classifier_count_is_owned_hardware(extract: Extract, text: str, gpu: str, count: int) -> None:
    p = extract(JOB + text)
    assert (p.owned_gpu, p.owned_gpu_count) == (gpu, count)


def test_other_pieces_are_not_gpus(extract: Extract) -> None:
    p = extract(JOB + "We ordered 4 pieces of rack furniture for the lab.")
    assert p.owned_gpu is None and p.owned_gpu_count is None
