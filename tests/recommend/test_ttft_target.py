"""A time-to-first-token target sizes serving (tools/recommend/serving_plan.py): a replica whose time to
first token misses it even at the fast end carries fewer requests (more replicas), and an option that
meets it only at the fast end says so (expert review 5, R06)."""

from __future__ import annotations

from typing import Any

from tools.catalog.load import Catalog
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.models import Recommendation, RecommendSettings

QUIET = RecommendSettings(sensitivity=False)
CHAT_70B = dict(workload="inference", model_id="llama-3.1-70b", concurrency=100, prompt_tokens=3000,
                output_tokens=400, context_len=3400)  # fmt: skip


def _rec(catalog: Catalog, **fields: Any) -> Recommendation:
    profile = WorkloadProfile().with_values("stated", **fields)
    return recommend(profile=profile, catalog=catalog, settings=QUIET)


def test_every_option_meets_the_target_at_least_at_its_fast_end(catalog: Catalog) -> None:
    free = _rec(catalog, **CHAT_70B)
    bound = _rec(catalog, **CHAT_70B, ttft_target_s=0.5)
    options = [o for o in (bound.primary, *bound.alternatives) if o is not None]
    assert options
    for o in options:
        assert o.serving is not None and o.serving.time_to_first_token_s.low <= 0.5
        assert any("your 0.5 s target" in w for w in o.why)
    assert free.primary is not None and bound.primary is not None
    assert not any("to the first token" in w for w in free.primary.why)  # no target: no verdict


def test_a_target_no_configuration_meets_is_said_not_ignored(catalog: Catalog) -> None:
    rec = _rec(catalog, **CHAT_70B, ttft_target_s=0.001)
    assert rec.primary is None
    assert any("first token" in r.reason for r in rec.rejected)
