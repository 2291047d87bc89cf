"""Nothing fits: a Recommendation with no primary, reasons per GPU type and advice from real numbers."""

from __future__ import annotations

import re

from tools.catalog.load import Catalog
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.models import RecommendSettings, recommendation_json

QUIET = RecommendSettings(sensitivity=False)


def _big_full_ft_on_consumer(catalog: Catalog) -> WorkloadProfile:
    return WorkloadProfile(
        model_id="llama-3.1-405b", method="full", dataset_tokens=1e9, deployment_preference="consumer"
    )


def test_infeasible_has_no_primary_and_says_why(catalog: Catalog) -> None:
    rec = recommend(profile=_big_full_ft_on_consumer(catalog), catalog=catalog, settings=QUIET)
    assert rec.primary is None and not rec.feasible and rec.alternatives == ()
    assert rec.rejected, "every GPU type needs a reason"
    mem = [r for r in rec.rejected if r.kind == "memory"]
    assert mem and all(re.search(r"needs [\d,.]+ GiB per GPU, has [\d.]+", r.reason) for r in mem)
    data = recommendation_json(rec)
    assert data["primary"] is None and data["rejected"]


def test_infeasible_advice_is_computed_and_points_to_a_fit(catalog: Catalog) -> None:
    rec = recommend(profile=_big_full_ft_on_consumer(catalog), catalog=catalog, settings=QUIET)
    advice = " | ".join(rec.infeasible_advice)
    consumer = [g for g in catalog.gpus if g.consumer and catalog.prices_for(g.id)]
    biggest = max(consumer, key=lambda g: g.usable_memory_gib)
    assert (
        f"largest GPU your constraints allow, {biggest.name}, has {biggest.usable_memory_gib:.1f}" in advice
    )
    assert any(a.startswith("Use QLoRA") for a in rec.infeasible_advice)
    fix = next(a for a in rec.infeasible_advice if a.startswith("Rent data-centre GPUs"))
    assert "then fits" in fix and "$" in fix


def test_qlora_advice_when_lora_does_not_fit_consumer_cards(catalog: Catalog) -> None:
    # 70B LoRA keeps 140 GB of BF16 weights: even sharded over 8 consumer cards it does not fit; QLoRA
    # (NF4 base, sharded) does, and the advice names the configuration and its per-GPU need.
    profile = WorkloadProfile(
        model_id="llama-3-70b", method="lora", dataset_tokens=1e8, deployment_preference="consumer"
    )
    rec = recommend(profile=profile, catalog=catalog, settings=QUIET)
    assert rec.primary is None
    qlora = next(a for a in rec.infeasible_advice if a.startswith("Use QLoRA"))
    assert re.search(r"[\d.]+ GiB peak per GPU; \d+x .+ then fits", qlora)


def test_inference_too_big_advises_quantisation(catalog: Catalog) -> None:
    profile = WorkloadProfile(
        model_id="llama-3.1-405b",
        workload="inference",
        concurrency=4,
        context_len=4096,
        deployment_preference="consumer",
    )
    rec = recommend(
        profile=profile, catalog=catalog, settings=RecommendSettings(sensitivity=False, max_nodes=1)
    )
    assert rec.primary is None
    assert any(a.startswith("Quantise the weights to int4") for a in rec.infeasible_advice)
