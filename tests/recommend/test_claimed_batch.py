"""A claimed time for a batch generation job is checked against the serving plan's job hours on the claimed
configuration (tools/recommend/claim_batch.py, issue 12, evals v10). The expected verdicts are not typed in:
the claims are placed around the job hours the recommender itself reports for that configuration, so the
check must agree with the plan it reads."""

from __future__ import annotations

from typing import Any

from tools.catalog.load import Catalog
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.models import ExpectationCheck, RecommendSettings

QUIET = RecommendSettings(sensitivity=False)
BATCH: dict[str, Any] = {
    "model_id": "llama-3.1-8b",
    "workload": "inference",
    "generation_tokens": 2e9,
    "prompt_tokens": 100,
    "output_tokens": 600,
    "claimed_gpu": "h100-sxm",
    "claimed_gpu_count": 2,
}


def _batch_check(catalog: Catalog, **fields: Any) -> ExpectationCheck | None:
    rec = recommend(profile=WorkloadProfile(**fields), catalog=catalog, settings=QUIET)
    found = [c for c in rec.expectation_checks if "tokens generated in" in c.claim]
    assert len(found) <= 1
    return found[0] if found else None


def test_claims_around_the_job_hours(catalog: Catalog) -> None:
    first = _batch_check(catalog, **BATCH, claimed_hours=1e6)  # any claim: the verdict says the hours
    assert first is not None and first.verdict == "holds" and first.factor is not None
    slow_hours = first.factor * 1e6  # the slow end of the configuration's job hours
    assert slow_hours > 0
    loose = _batch_check(catalog, **BATCH, claimed_hours=slow_hours * 1.5)
    far_too_short = _batch_check(catalog, **BATCH, claimed_hours=slow_hours / 100)
    assert loose is not None and loose.verdict == "holds"
    assert far_too_short is not None and far_too_short.verdict == "cannot_hold"


def test_no_batch_check_without_a_batch_job(catalog: Catalog) -> None:
    serving = {k: v for k, v in BATCH.items() if k != "generation_tokens"}
    assert _batch_check(catalog, **serving, concurrency=8, claimed_hours=24.0) is None
