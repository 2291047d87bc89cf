"""Deadlines in their general written forms (rd12; advisor/extract/rules_deadline_forms.py): a day with a
time or a time zone, a weekday with a day of the month, an offset before a date, a limit after a duration,
a labelled time, an event's end, a weekday window, and dates that are not the work's deadline.

The reference time is Wed 2026-11-18 09:00 UTC (tests/extract/conftest.py); each expected value is the
wall-clock hours from it, worked out in the comment beside it (tolerance 0.5 h)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
JOB = " LoRA Llama 3 8B on 50M tokens."


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("We need it by Friday EOD Pacific.", 71),  # Fri 20 Nov 24:00 UTC-8 = Sat 08:00 UTC
        ("Due 26 Nov AoE.", 219),  # Thu 26 Nov 24:00 UTC-12 = Fri 27 Nov 12:00 UTC
        ("We have until Monday 9:00 our time (CET).", 119),  # Mon 23 Nov 09:00 UTC+1 = 08:00 UTC
        ("It needs to finish by 5pm Friday.", 56),  # Fri 20 Nov 17:00 UTC
        ("Results are needed by Monday 23 November, 09:00 CET (board prep).", 119),
        ("PM moved the date, it's now due Tuesday 24th 18:00 UTC.", 153),  # Tue 24 Nov 18:00
        ("deadline is fri the 27th", 207),  # the start of Fri 27 Nov
        ("deadlnie is fri teh 27th", 207),  # typed in a hurry
        # two weeks before the start of Fri 5 Mar 2027 = Fri 19 Feb 00:00
        ("The conference deadline is March 5th and we need the run finished two weeks before that.", 2223),
        ("We need it a week before launch on December 10.", 351),  # Thu 3 Dec 00:00
        ("full fine-tune, 10 days max", 240),
        ("Time available: 5 days", 120),  # a table row "| Time available | 5 days |"
        ("Completion window\t10\tbusiness days\tfrom PO date", 336),  # Wed 2 Dec, 14 calendar days
        ("Sprint: Sprint 47 (ends 2026-12-04). Adapter delivered before sprint end.", 375),  # Fri 4 Dec 00:00
        ("and it needs to be done before the sprint ends on Fri 4 Dec", 375),
        ("The run has to fit into a weekend, Saturday 00:00 to Monday 06:00.", 54),
        ("The window is Saturday 00:00 to Sunday 24:00 UTC and nothing may run outside it.", 48),
    ],
)
def test_deadline_forms(extract: Extract, text: str, hours: float) -> None:
    p = extract(text + JOB)
    assert p.deadline_hours == pytest.approx(hours, abs=0.5)
    assert p.provenance["deadline_hours"].evidence


@pytest.mark.parametrize(
    "text",
    [
        "Let me know by Friday and I'll hold the slot.",  # when to answer
        "Questions by 30 November 2026 to the procurement office.",
        "We meet on 24/11 at 14:00 to decide.",  # a meeting
        "Proposed SLOs (draft, for Tuesday's ops review).",
        "I need the comparison ideally before Thursday's pre-read goes out.",
        "It's still LoRA, but the 3-day deadline is gone too, so whatever is cheapest.",
        "One job can get max 48h wall time on the cluster.",  # a job limit, not a deadline
        "Our team meets every Friday at 10:00 CET.",  # a schedule, no deadline word
        "Last year the deadline was 26 Nov.",  # no cue word before the date ("was")
    ],
)
def test_dates_that_are_not_the_deadline(extract: Extract, text: str) -> None:
    assert extract(text + JOB).deadline_hours is None


def test_the_answer_date_does_not_hide_the_work_deadline(extract: Extract) -> None:
    p = extract("We need it done by Friday, let me know by Wednesday." + JOB)
    assert p.deadline_hours == pytest.approx(63, abs=0.5)  # the end of Fri 20 Nov


def test_time_kept_for_something_else_is_not_the_deadline(extract: Extract) -> None:
    p = extract(
        "The paper deadline is Dec 9, so the run itself must be done by Dec 2 at the latest to leave a week "
        "for evals." + JOB
    )
    assert p.deadline_hours == pytest.approx(351, abs=0.5)  # the end of Wed 2 Dec, not "a week" (168 h)


def test_an_older_message_below_a_reply_is_quoted(extract: Extract) -> None:
    # the reply's "in 3 weeks" wins over the forwarded plan's "end of June" (-----Original Message-----)
    p = extract(
        "Hi,\n\nwe need it in 3 weeks." + JOB + "\n\n-----Original Message-----\nFrom: Marta\n"
        "Sent: Tuesday, April 14, 2026 10:02\n\nLoRA of Llama 3 8B, deadline end of June.\n"
    )
    assert p.deadline_hours == pytest.approx(504, abs=0.5)


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("Every night we re-score the day's ~300k conversations between 1 and 5am.", 4),
        ("The nightly batch runs between 1 and 5pm.", 4),  # 13:00 to 17:00
        ("We label 40M queries within 3 days of training finishing.", 72),
    ],
)
def test_windows_and_spans_after_an_event(extract: Extract, text: str, hours: float) -> None:
    assert extract(text + JOB).deadline_hours == pytest.approx(hours, abs=0.5)


def test_days_of_training_are_compute_time(extract: Extract) -> None:
    assert extract("It takes about 3 days of training on 8 GPUs." + JOB).deadline_hours is None


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("We need it by mid-December.", 663),  # the end of Tue 15 Dec
        ("Need it by EOW.", 63),  # the end of Fri 20 Nov, as "by the end of the week"
        ("Need it by EOM.", 303),  # the end of Mon 30 Nov
        ("It has to be done by end of Q1.", 3207),  # the end of Wed 31 Mar 2027
        ("The adapter must be ready before Thanksgiving.", 183),  # the start of Thu 26 Nov 2026
        ("It must be done two weeks from Monday.", 447),  # Mon 23 Nov 00:00 + 14 days
        ("It must be done in 3 weeks from kick-off, which is today.", 504),
        ("We need it done in 2 wks.", 336),
        ("It has to be finished no later than Dec 4.", 399),  # the end of Fri 4 Dec
        ("The deadline is the 4th.", 399),
        ("The deadline: 2026-12-04", 399),
    ],
)
def test_calendar_words(extract: Extract, text: str, hours: float) -> None:
    assert extract(text + JOB).deadline_hours == pytest.approx(hours, abs=0.5)


@pytest.mark.parametrize(
    "text",
    [
        "The new cluster arrives 3 weeks from now.",  # no one asks for the work by then
        "We moved to the 4th floor last month.",
        "Thanksgiving traffic doubles our load.",  # the holiday without a cue
    ],
)
def test_calendar_words_that_are_not_deadlines(extract: Extract, text: str) -> None:
    assert extract(text + JOB).deadline_hours is None


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("We need it by this time next week.", 168),
        ("It has to be done within the next 10 days.", 240),
        ("We need it by next Friday EOD.", 231),  # the Friday of next week, as "by next Friday" reads
        ("We need it by tomorrow 5pm.", 32),  # Thu 19 Nov 17:00
    ],
)
def test_relative_days_with_a_time(extract: Extract, text: str, hours: float) -> None:
    assert extract(text + JOB).deadline_hours == pytest.approx(hours, abs=0.5)
