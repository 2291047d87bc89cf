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


@pytest.mark.parametrize(
    "text",
    [
        "We hold a 30-day reservation on 8x H200 (one node) at Lambda. Is that enough to do a full-parameter "
        "SFT of Llama 3.1 70B on 1B tokens within the reservation?",
        "We have 8x H200 (one node) reserved at Lambda for 30 days. Is that enough to do a full-parameter "
        "SFT of Llama 3.1 70B on 1B tokens?",
        "We have a 30-day reservation for 8x H200 at Lambda. Can we full fine-tune Llama 3.1 70B on 1B "
        "tokens during the reservation?",
    ],
)
def test_the_reservation_length_is_the_window_asked_about(extract: Extract, text: str) -> None:
    # 30 days at the price sheet's month (advisor/extract/units_text.py DAYS_PER_MONTH)
    from advisor.extract.units_text import DAYS_PER_MONTH

    p = extract(text)
    assert p.owned_gpu == "h200"
    assert p.owned_months_left == pytest.approx(30 / DAYS_PER_MONTH)


def test_a_reservation_length_without_the_question_is_not_time_left(extract: Extract) -> None:
    # near miss: a 1-year reservation may be half used; nothing asks whether the job fits in it
    p = extract(
        "We hold a 1-year reservation on 8x H200 at Lambda. Full fine-tune Llama 3.1 70B on 1B tokens."
    )
    assert p.owned_gpu == "h200"
    assert p.owned_months_left is None
