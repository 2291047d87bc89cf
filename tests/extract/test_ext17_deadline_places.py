"""Deadlines with a clock time in a place's time, a weekday before a full date, and a form's "Needed by:"
label (advisor/extract/rules_deadline_forms.py; issue 12, evals v12/v15 development sets), each with two
variants and a near miss. The eval reference time is Wed 18 Nov 2026 09:00 UTC; zones are November offsets."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
_JOB = "Judge 3.2M answer pairs with Gemma 2 9B, ~40 output tokens per verdict. "


@pytest.mark.parametrize(
    ("said", "hours"),
    [
        ("Deadline: results on the dashboard by 07:00 UK time on Friday.", 46.0),  # Fri 07:00 UTC
        ("We need the results by 18:00 Berlin time on Thursday.", 32.0),  # Thu 17:00 UTC
        (
            "They need it by this Friday, end of day their time (Singapore).",
            55.0,
        ),  # Fri 24:00 SGT = 16:00 UTC
    ],
)
def test_a_time_in_a_places_time_is_the_deadline(extract: Extract, said: str, hours: float) -> None:
    assert extract(_JOB + said).deadline_hours == pytest.approx(hours)


@pytest.mark.parametrize(
    ("said", "hours"),
    [
        ("Needed by:    Friday 4 December 2026, 18:00 CET", 392.0),  # Fri 4 Dec 17:00 UTC
        ("Required by: Mon 30 Nov, 09:00 UTC", 288.0),
        ("Results by: Thursday 26 November 2026", 207.0),  # the end of that day
    ],
)
def test_a_forms_needed_by_label_with_a_weekday_and_date(extract: Extract, said: str, hours: float) -> None:
    assert extract(_JOB + "\n" + said).deadline_hours == pytest.approx(hours)


def test_near_miss_a_weekday_before_a_date_is_that_date_not_this_weeks_weekday(extract: Extract) -> None:
    # "by Friday 4 December" is 4 Dec, not Friday 20 Nov (63 h)
    assert extract(_JOB + "We need it by Friday 4 December.").deadline_hours == pytest.approx(399.0)


def test_near_miss_another_forms_label_with_a_weekday_and_date_is_no_deadline(extract: Extract) -> None:
    p = extract(_JOB + "\nRequested on: Thursday 19 November 2026\nApproved: Friday 20 November 2026")
    assert p.deadline_hours is None
