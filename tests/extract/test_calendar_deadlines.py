"""Deadlines written against the calendar (advisor/extract/rules_calendar.py; evals v10 read as
development), with near misses. The extract fixture reads at Wed 18 Nov 2026, 09:00 UTC."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
JOB = "LoRA Llama 3.1 8B on 50M tokens"


@pytest.mark.parametrize(
    ("said", "hours"),
    [
        # Wed 18 Nov + 10 working days = Wed 2 Dec: 14 calendar days
        ("needs to be done in 10 business days.", 14 * 24),
        ("within 5 working days please.", 7 * 24),  # Wed 25 Nov
        ("3 work days max.", 5 * 24),  # Thu 19, Fri 20, Mon 23 Nov: 5 calendar days after Wed
    ],
)
def test_working_days_skip_the_weekend(extract: Extract, said: str, hours: float) -> None:
    assert extract(f"{JOB}, {said}").deadline_hours == pytest.approx(hours)


def test_a_past_span_in_working_days_is_no_deadline(extract: Extract) -> None:
    assert extract(f"{JOB}. Last year the same job took 10 working days.").deadline_hours is None


def test_a_weekday_week_is_that_day_of_the_following_week(extract: Extract) -> None:
    # "Friday week": Fri 27 Nov, end of day = 9 days 15 h after Wed 09:00; plain "Friday" is Fri 20 Nov
    assert extract(f"{JOB} by Friday week.").deadline_hours == pytest.approx(9 * 24 + 15)
    assert extract(f"{JOB}, a week on Friday.").deadline_hours == pytest.approx(9 * 24 + 15)
    assert extract(f"{JOB} by Friday.").deadline_hours == pytest.approx(2 * 24 + 15)


def test_a_period_then_its_date(extract: Extract) -> None:
    # end of Wed 2 Dec: 14 days 15 h after Wed 18 Nov 09:00
    end_of_2_dec = pytest.approx(14 * 24 + 15)
    assert extract(f"{JOB} by end of next sprint, which is Dec 2.").deadline_hours == end_of_2_dec
    assert extract(f"{JOB} before the code freeze (i.e. 2 December).").deadline_hours == end_of_2_dec


def test_a_window_from_one_weekday_to_another(extract: Extract) -> None:
    p = extract("Summarise 2M tickets with Llama 3.1 8B, 300 tokens out each. It can run from Saturday 00:00 "
                "to Monday 06:00.")  # fmt: skip
    assert p.deadline_hours == pytest.approx(54)
    p = extract("Summarise 2M tickets with Llama 3.1 8B, 300 tokens out each, between Friday 22:00 and "
                "Sunday 10:00.")  # fmt: skip
    assert p.deadline_hours == pytest.approx(36)


def test_a_list_of_gpus_closed_by_only_wants_each(extract: Extract) -> None:
    assert extract("Serve Llama 3.1 8B to 50 users. L4 and L40S only.").gpus_wanted == ["l4", "l40s"]
    p = extract("Serve Llama 3.1 8B to 50 users. We tried L4 and it was slow; L40S only from now on.")
    assert p.gpus_wanted == ["l40s"]
