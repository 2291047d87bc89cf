"""A later turn that changes a deadline or swaps a provider preference for a requirement (issue 12, gap 6;
advisor/extract/rules_corrections.py _moved_deadline, advisor/extract/withdrawn_choice.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]

FIRST = "LoRA fine-tune Llama 3 8B on 200M tokens by December 20. We prefer Nebius."
# the extract fixture's clock: Wednesday 18 Nov 2026 09:00 UTC
JAN_15_HOURS = 58 * 24 + 15  # to the end of Fri 15 Jan 2027
JAN_31_HOURS = 74 * 24 + 15  # to the end of Sun 31 Jan 2027


@pytest.mark.parametrize(
    ("turn", "hours"),
    [
        ("The deadline is now January 15.", JAN_15_HOURS),
        # the way people write it: a contraction with an ordinal, a calendar phrase after "Update:"
        ("Deadline's now the 15th of January.", JAN_15_HOURS),
        ("Update: the deadline is now end of January.", JAN_31_HOURS),
    ],
)
def test_a_deadline_changed_in_a_later_turn(extract: Extract, turn: str, hours: int) -> None:
    p = extract(turn, extract(FIRST))
    assert p.deadline_hours == pytest.approx(hours, abs=0.01)


def test_deadline_said_with_now_but_not_changed(extract: Extract) -> None:
    # near miss: "now" beside the deadline with no new date keeps the old one
    before = extract(FIRST)
    assert extract("Our deadline is not the issue now.", before).deadline_hours == before.deadline_hours


@pytest.mark.parametrize(
    ("turn", "required"),
    [
        ("Scratch the Nebius preference: it has to be GCP", "gcp"),
        # variants: another withdrawal verb and requirement wording, a dash between the two
        ("Forget the Nebius preference, we must use AWS.", "aws"),
        ("Drop the Nebius idea - it needs to be on Azure.", "azure"),
    ],
)
def test_a_preference_withdrawn_and_a_requirement_set(extract: Extract, turn: str, required: str) -> None:
    p = extract(turn, extract(FIRST))
    assert p.providers_required == [required]
    assert "nebius" not in p.providers_preferred  # taken back, not kept beside the requirement
    assert "nebius" not in p.providers_excluded  # withdrawn, not ruled out
    assert required in p.providers_preferred  # a requirement is also the first choice


def test_scratching_a_provider_itself_excludes_it(extract: Extract) -> None:
    # near miss: no "preference" word: the provider itself is struck out
    p = extract("Actually scratch Nebius.", extract(FIRST))
    assert (p.providers_excluded, p.providers_preferred) == (["nebius"], [])


def test_has_to_be_negated_is_no_requirement(extract: Extract) -> None:
    p = extract("It doesn't have to be GCP.", extract(FIRST))
    assert p.providers_required == []


DEC_20_HOURS = 32 * 24 + 15  # to the end of Sun 20 Dec 2026 from the fixture's clock


@pytest.mark.parametrize(
    ("turn", "shift_hours"),
    [
        ("The deadline got pushed back by two weeks.", 14 * 24),
        # variants: a bare span after "moved out", a span pulled in, "is now ... later"
        ("Deadline moved out a week.", 7 * 24),
        ("The deadline got pulled in by 3 days.", -3 * 24),
        ("The deadline is now a week later.", 7 * 24),
    ],
)
def test_a_deadline_shifted_by_a_span(extract: Extract, turn: str, shift_hours: int) -> None:
    # the span moves the earlier deadline; read from now it had moved 20 December earlier, to 12 December
    p = extract(turn, extract(FIRST))
    assert p.deadline_hours == pytest.approx(DEC_20_HOURS + shift_hours, abs=0.01)


def test_a_span_with_no_earlier_deadline_is_not_a_shift(extract: Extract) -> None:
    # near miss: nothing to shift; the span is what it was before this change
    before = extract("LoRA fine-tune Llama 3 8B on 200M tokens.")
    assert extract("The deadline got pushed back by two weeks.", before).deadline_hours == 14 * 24
