"""A stated run cadence that the primary cannot keep up with is called out (auditor H8).

Before: 20 QLoRA runs a month of Llama 3 70B on 1B tokens were priced (egress x 20) without saying
that each run takes 27-92 h on 8x B200, i.e. 545-1,830 h of a 730-hour month.
"""

from __future__ import annotations

from tools.catalog.load import Catalog
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.expectations import check_runs_per_month
from tools.recommend.models import RecommendSettings

QUIET = RecommendSettings(sensitivity=False)


def test_too_many_runs_a_month_is_flagged(catalog: Catalog) -> None:
    # Issue 13's calibrated time model puts one run at ~8-19 h on 8x B200 (it was 27-92 h before
    # recompute was counted once and the MFU bands were fitted), so 40 runs now read 'tight'; 100 runs
    # (820-1,900 h) cannot hold.
    p = WorkloadProfile(model_id="llama-3-70b", method="qlora", dataset_tokens=1e9, runs_per_month=100)
    rec = recommend(profile=p, catalog=catalog, settings=QUIET)
    assert rec.primary is not None
    busy_low = rec.primary.wall_hours.low * 100
    checks = [c for c in rec.expectation_checks if c.claim == "100 runs a month"]
    assert busy_low > 730 and checks and checks[0].verdict == "cannot_hold"
    assert "in parallel" in checks[0].explanation


def test_a_comfortable_cadence_adds_no_check(catalog: Catalog) -> None:
    p = WorkloadProfile(model_id="llama-3-8b", method="lora", dataset_tokens=1e8, runs_per_month=4)
    rec = recommend(profile=p, catalog=catalog, settings=QUIET)
    assert not [c for c in rec.expectation_checks if "runs a month" in c.claim]


def test_no_primary_is_unknown() -> None:
    assert check_runs_per_month(None, 3).verdict == "unknown"
