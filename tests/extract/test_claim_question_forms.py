"""Claims and feasibility questions about a named set-up, read per way of writing them, not per case.

Ways people ask (dev failures of evals v9 and the field-type brief): a question without its question
mark ("is 8xH100 enough to do it in 24h"), an indirect one ("wondering if ..."), the duration before the
hardware ("Is three days on 8x H100 realistic?"), "squeeze it into 48 hours", someone's estimate ("our ML
lead estimates 8 H100s for two days"), a follow-up "How long?" after a rental asked about, "in that time"
for the period the hardware is there. Near misses: a rental term, a paper's or last year's hardware, a
count of people.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    ("text", "gpu", "count", "hours"),
    [
        ("is 8xH100 enough to do it in 24h", "h100-sxm", 8, 24.0),
        ("How many hours on 4xH100", "h100-sxm", 4, None),
        ("is 8 a100 enough or do we need more", "a100-80gb-sxm", 8, None),
        ("wondering if 8x H100 could get it done within a day", "h100-sxm", 8, 24.0),
        ("not sure whether 4 L40S would finish it in 3 days", "l40s", 4, 72.0),
        ("Is three days on 8x H100 realistic?", "h100-sxm", 8, 72.0),
        ("can we squeeze it into 48 hours on 4 A100s?", "a100-80gb-sxm", 4, 48.0),
        ("Our ML lead estimates 8 H100s for two days.", "h100-sxm", 8, 48.0),
        ("Could we rent a single H100 from runpod for this instead? How long?", "h100-sxm", 1, None),
        ("Would 2x RTX 4090 be enough", "rtx-4090", 2, None),
    ],
)
def test_claim_forms(extract: Extract, text: str, gpu: str, count: int, hours: float | None) -> None:
    p = extract("LoRA fine-tune Llama 3 8B on 200M tokens. " + text)
    assert (p.claimed_gpu, p.claimed_gpu_count, p.claimed_hours) == (gpu, count, hours)


def test_rental_follow_up_keeps_provider(extract: Extract) -> None:
    p = extract("Could we rent a single H100 from runpod for this instead? How long?")
    assert p.providers_preferred == ["runpod-community", "runpod-secure"]


@pytest.mark.parametrize(
    "text",
    [
        "The paper used 8 A100s for 3 days.",  # a paper's set-up, stated, no cue
        "Last year the same job took 3 days on 8 A100s.",  # history, not a claim on this job
        "Meta trained Llama 3 on 16k H100s over 54 days.",
        "We have 40 engineers; 8 of them use H100s daily.",
        "We want to rent 8 H100s on Lambda. How much would that cost?",  # cost follow-up, not time
    ],
)
def test_not_claims(extract: Extract, text: str) -> None:
    p = extract(text)
    assert p.claimed_gpu is None and p.claimed_hours is None


def test_rental_term_is_not_claimed_hours(extract: Extract) -> None:
    # "for 3 months" is how long the cards are rented, not the run the estimate is about
    p = extract("My boss estimates we can rent 8 H100s for 3 months and be done.")
    assert p.claimed_hours is None


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        (
            "We have 16 H200s reserved on Nebius for the next 10 days, already paid. Can we get through "
            "this in that time, or do we need more?",
            240.0,
        ),
        ("We own 4 A100s and they are free for two weeks. Can we finish the LoRA run in that time?", 336.0),
    ],
)
def test_in_that_time_is_the_period_said(extract: Extract, text: str, hours: float) -> None:
    p = extract(text)
    assert p.claimed_hours == hours and p.claimed_gpu == p.owned_gpu


def test_that_time_without_a_period_reads_no_hours(extract: Extract) -> None:
    p = extract("We own 4 A100s. Can we finish the LoRA run in that time?")
    assert p.claimed_hours is None


def test_a_wish_without_question_mark_is_no_claim(extract: Extract) -> None:
    # evals v9: "would like it done in a week-ish" after "a 4090 or similar is fine" is a deadline
    p = extract(
        "qlora llama 3.1 8b, 4 epochs. I only have budget for ONE gpu, a 4090 or similar is fine. would "
        "like it done in a week"
    )
    assert p.claimed_gpu is None and p.claimed_hours is None


@pytest.mark.parametrize(("text", "count"), [("do 2 4090s cut it", 2), ("would 4 RTX 4090 do the job?", 4)])
def test_cut_it_asks_whether_hardware_suffices(extract: Extract, text: str, count: int) -> None:
    p = extract("QLoRA Llama 3 8B on 20M tokens. " + text)
    assert (p.claimed_gpu, p.claimed_gpu_count) == ("rtx-4090", count)


def test_a_past_run_for_weeks_is_no_claim(extract: Extract) -> None:
    # evals v7 hard negative: a competitor's hardware and last year's run, then the real question
    p = extract(
        "For context: Competitor X reportedly trained their model on 512 H100s, and last year our own v1 "
        "run used 64 A100s for six weeks. This time it's a full fine-tune of Llama 3.1 8B on 2B tokens."
    )
    assert p.claimed_gpu is None and p.claimed_hours is None


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("8xH100, 2 days — realistic?", 48.0),
        ("vendor quote: 8x H100, 72h", 72.0),
        ("can 8 H100s do it in half a day?", 12.0),
        ("my boss thinks 8 H100s can do it in a day and a half", 36.0),
        ("can 8 H100s do it in 2 and a half days?", 60.0),
        ("Can we get it done overnight-ish, like 24h, on 8 H100s?", 24.0),  # the number said wins
    ],
)
def test_durations_written_loosely(extract: Extract, text: str, hours: float) -> None:
    p = extract("Full fine-tune of Llama 3 8B on 1B tokens. " + text)
    assert (p.claimed_gpu, p.claimed_gpu_count, p.claimed_hours) == ("h100-sxm", 8, hours)


def test_a_rental_request_with_a_term_is_no_claim(extract: Extract) -> None:
    p = extract("We need 8 H100s for 3 days, please quote.")
    assert p.claimed_hours is None
