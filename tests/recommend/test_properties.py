"""Properties over generated workloads: no negative costs, the primary always fits, ranges ordered."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tools.catalog.load import Catalog, load_catalog
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.models import RecommendSettings

CATALOG: Catalog = load_catalog()
MODELS = ["llama-3-8b", "llama-3-70b", "mistral-7b", "qwen2.5-14b", "mixtral-8x7b"]
QUIET = RecommendSettings(sensitivity=False)

profiles = st.builds(
    WorkloadProfile,
    model_id=st.sampled_from([m for m in MODELS if CATALOG.has_model(m)] or [CATALOG.models[0].id]),
    method=st.sampled_from(["full", "lora", "qlora"]),
    dataset_tokens=st.floats(min_value=1e6, max_value=5e10),
    epochs=st.sampled_from([1.0, 2.0, 3.0]),
    eu_only=st.booleans(),
    budget_usd=st.one_of(st.none(), st.floats(min_value=10, max_value=1e6)),
    deadline_hours=st.one_of(st.none(), st.floats(min_value=1, max_value=2000)),
    data_location=st.sampled_from(["aws", "gcp", "on_prem", None]),
    runs_per_month=st.sampled_from([1.0, 5.0, 20.0]),
    objective=st.sampled_from(["cheapest", "fastest", "balanced", None]),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(profiles)
def test_costs_non_negative_and_primary_feasible(profile: WorkloadProfile) -> None:
    rec = recommend(profile=profile, catalog=CATALOG, settings=QUIET)
    for opt in rec.options:
        assert opt.memory is not None and opt.memory.fits
        # judged on tensors + CUDA context with 10% kept free; the shown peak (with the allocator's reserve,
        # capped by the card) stays within the card (tools.recommend.memory_rule)
        assert opt.memory.judged_gib <= opt.vram_gib_per_gpu * 0.9 + 1e-9
        assert opt.peak_gib_per_gpu <= opt.vram_gib_per_gpu + 1e-9
        assert opt.topology is not None and not any("not workable" in n for n in opt.topology.notes)
        assert 0 <= opt.cost_usd.low <= opt.cost_usd.high
        assert 0 < opt.wall_hours.low <= opt.wall_hours.high
        for t in opt.tco:
            assert t.storage_usd >= 0 and t.egress_usd >= 0 and t.total_usd.low >= 0
            assert t.total_usd.low <= t.total_usd.high
        if profile.eu_only:  # an EU region, or a provider's sourced EU data centres (expert review 19, R12)
            assert opt.eu or "eu" in opt.areas
    if rec.primary is None:
        assert rec.infeasible_advice and rec.rejected
