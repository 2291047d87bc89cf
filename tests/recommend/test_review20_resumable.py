"""Expert review 20, R09/P09: "Spot is fine since the job is restartable" still got "a lost spot host means
starting again, and two runs of up to 69 h do not fit in the 120 h deadline". A job the user says resumes
(cannot_resume False) loses only its in-flight work to a lost host: it needs one run plus
RESUME_ALLOWANCE_FRACTION within the deadline, and no reason given says "starting again"
(tools/recommend/rank.py restart_fits and _batch_reason)."""

from __future__ import annotations

from typing import Any

from advisor.service.profiles import profile_from_mapping
from advisor.service.recommending import recommend_for
from tools.recommend.models import Recommendation

R07: dict[str, Any] = {
    "workload": "inference", "model_id": "llama-3.1-70b", "generation_tokens": 5e7, "prompt_tokens": 500,
}  # fmt: skip


def _rec(**fields: Any) -> Recommendation:
    profile, settings = profile_from_mapping(fields)
    rec, _ = recommend_for(profile, settings=settings)
    assert rec.primary is not None
    return rec


def _why(rec: Recommendation) -> str:
    assert rec.primary is not None
    return " | ".join(rec.primary.why)


def test_a_resumable_job_asked_cheapest_gets_spot_where_two_runs_would_not_fit() -> None:
    """3 h: two spot runs of up to 1.9 h do not fit (test_cheapest_asked keeps on demand there); one run and
    a restart allowance do, once the job resumes."""
    rec = _rec(**R07, objective="cheapest", deadline_hours=3.0, cannot_resume=False)
    assert rec.primary is not None and rec.primary.pricing == "spot", _why(rec)
    assert "in-flight work" in _why(rec) and "starting again" not in _why(rec)


def test_a_resumable_job_with_no_room_even_for_one_restart_says_so_without_starting_again() -> None:
    rec = _rec(**R07, objective="cheapest", deadline_hours=2.0, cannot_resume=False)
    assert rec.primary is not None and rec.primary.pricing == "on_demand"
    why = _why(rec)
    assert "starting again" not in why, why
    if "put first over the lower-cost" in why:
        assert "in-flight work" in why and "do not fit in the 2.0 h deadline" in why, why


def test_a_resumable_job_not_asked_cheapest_is_not_told_it_starts_again() -> None:
    """P09 (no 'cheapest'): the on-demand pick may stay, but not for a restart the user ruled out."""
    rec = _rec(**R07, deadline_hours=3.0, cannot_resume=False, spot_ok=True)
    assert "starting again" not in _why(rec), _why(rec)


def test_unsaid_resumability_keeps_the_two_run_rule() -> None:
    rec = _rec(**R07, objective="cheapest", deadline_hours=3.0)
    assert rec.primary is not None and rec.primary.pricing == "on_demand"
    assert "starting again" in _why(rec)
