"""Expert review 9, R10: "a reserved p5.48xlarge (8x H100)" held "for 3 more months" was dropped and 8x
B200 sized instead. A reservation said before the GPUs without a term length, an instance type with its GPUs
in brackets, and "for N more months" as the term left."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
JOB = " Full fine-tune of Llama 3.1 70B on 1B tokens?"


@pytest.mark.parametrize(
    "text",
    [
        "We have a reserved p5.48xlarge (8x H100) on AWS for 3 more months.",
        "We have a reserved 8x H100 node on AWS for 3 more months.",
        "We have 8x H100 reserved on AWS for 3 more months.",
    ],
)
def test_a_held_reservation(extract: Extract, text: str) -> None:
    p = extract(text + JOB)
    assert (p.owned_gpu, p.owned_gpu_count, p.owned_reserved) == ("h100-sxm", 8, True)
    assert (p.owned_provider, p.owned_months_left) == ("aws", pytest.approx(3.0))


@pytest.mark.parametrize(
    "text", ["We got a quote for a reserved 8x H100 node on AWS.", "Should we get a reserved 8x H100 node?"]
)
def test_a_reservation_not_held(extract: Extract, text: str) -> None:
    assert extract(text + JOB).owned_gpu is None
