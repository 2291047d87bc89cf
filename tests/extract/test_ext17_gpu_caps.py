"""A GPU cap with whose quota it is between the noun and the figure, or "Maximum is N GPU" (advisor/extract/
rules_gpus.py _MAX_GPUS; issue 12, evals v15 development cases): the phrasings, a variant, and near misses
(another unit after "Maximum is", a share of a quota)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
_JOB = "Serve Phi-4 to 35 concurrent users. "


@pytest.mark.parametrize(
    ("said", "cap"),
    [
        ("GPU quota on our account is 4 max.", 4),
        ("Maximum is 2 GPU, more our ops team cannot manage.", 2),
        ("The GPU limit for this project is 8.", 8),
    ],
)
def test_a_gpu_cap_is_read(extract: Extract, said: str, cap: int) -> None:
    assert extract(_JOB + said).max_gpus == cap


@pytest.mark.parametrize("said", ["Maximum is 2 weeks for the job.", "GPU quota on our account is 80% used."])
def test_near_miss_no_gpu_cap(extract: Extract, said: str) -> None:
    assert extract(_JOB + said).max_gpus is None
