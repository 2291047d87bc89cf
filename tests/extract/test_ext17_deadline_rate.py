"""A later turn that moves a batch job's deadline re-derives the rate the job needs from the earlier
volume (advisor/extract/rules_deadline_rate.py; issue 12, evals v12 multi-turn development case), with two
variants and near misses (a rate the user stated stands; a turn with no deadline keeps the rate)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile
from tools.units import SECONDS_PER_HOUR

Extract = Callable[..., WorkloadProfile]
_FIRST = (
    "Labelling job: 8M product reviews through Qwen2.5 7B, ~60 output tokens each (a label plus a "
    "one-line reason), ~350 tokens in. Due Dec 10."
)
_VOLUME_TOKENS = 8e6 * 60  # 8M reviews x 60 output tokens (the first turn)


@pytest.mark.parametrize(
    ("second", "hours"),
    [
        ("Client moved it up. They need it by this Friday, end of day their time (Singapore).", 55.0),
        ("Change of plan: it has to be done within 3 days.", 72.0),
        ("Update: we need it by Monday 23 November, 09:00 UTC.", 120.0),
    ],
)
def test_a_new_deadline_in_a_later_turn_gives_the_rate_over_the_new_time(
    extract: Extract, second: str, hours: float
) -> None:
    first = extract(_FIRST)
    assert first.generation_tokens == pytest.approx(_VOLUME_TOKENS)
    p = extract(second, first)
    assert p.deadline_hours == pytest.approx(hours)
    assert p.target_tokens_per_s == pytest.approx(_VOLUME_TOKENS / (hours * SECONDS_PER_HOUR), rel=1e-6)


def test_near_miss_a_rate_the_user_stated_stands_when_the_deadline_moves(extract: Extract) -> None:
    first = extract(_FIRST + " We need at least 900 tokens/s of throughput.")
    assert first.target_tokens_per_s == pytest.approx(900)
    p = extract("Change of plan: it has to be done within 3 days.", first)
    assert p.deadline_hours == pytest.approx(72) and p.target_tokens_per_s == pytest.approx(900)


def test_near_miss_a_turn_without_a_deadline_keeps_the_earlier_rate(extract: Extract) -> None:
    first = extract(_FIRST)
    p = extract("Also, keep it in the EU.", first)
    assert p.target_tokens_per_s == pytest.approx(first.target_tokens_per_s)
