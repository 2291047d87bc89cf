"""Expert review 14, R10 and P10b: a held reservation written "a 30-day reservation on 8x H200" or "a
30-day reservation for 8x H200" was dropped and a fresh rental sized; "8x H200 reserved at Lambda" (P10)
was read. The pool noun followed by on/for and the GPUs is held capacity, like "a reservation of"."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
JOB = " Is that enough to do a full-parameter SFT of Llama 3.1 70B on 1B tokens?"


@pytest.mark.parametrize(
    "text",
    [
        "We hold a 30-day reservation on 8x H200 (one node) at Lambda.",
        "We have a 30-day reservation for 8x H200 at Lambda.",
        "We have a reservation on 8 H200 at Lambda.",
        "Our team holds a 2-week reserved block for 8x H200 at Lambda.",
    ],
)
def test_a_reservation_on_or_for_gpus_is_held(extract: Extract, text: str) -> None:
    p = extract(text + JOB)
    assert (p.owned_gpu, p.owned_gpu_count, p.owned_reserved) == ("h200", 8, True)
    assert p.owned_provider == "lambda"


@pytest.mark.parametrize(
    "text",
    [
        "We have a quote for a 30-day reservation on 8x H200 at Lambda.",  # priced, not held
        "We have budget for 8x H200 at Lambda.",
        "We need a 30-day reservation on 8x H200 at Lambda.",  # wanted, not held
    ],
)
def test_a_reservation_weighed_is_not_held(extract: Extract, text: str) -> None:
    assert extract(text + JOB).owned_gpu is None
