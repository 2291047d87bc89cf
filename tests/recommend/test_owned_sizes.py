"""Owned hardware comes in sizes one can buy (auditor H8).

Before: owned options were enumerated at 1, 2, 4 or 8 GPUs for every type, e.g. '4x MI300X, your data
centre' or '1x B200 owned', but SXM/OAM modules are sold on 8-GPU baseboards (HGX H100/H200/B200,
AMD MI300X UBB, Gaudi 3 HLB), and H100 NVL in bridged pairs.
"""

from __future__ import annotations

from tools.catalog.load import Catalog
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.models import RecommendSettings
from tools.recommend.owned import owned_node_sizes


def test_node_sizes_follow_the_form_factor(catalog: Catalog) -> None:
    assert owned_node_sizes(catalog.gpu("h100-sxm")) == (8,)
    assert owned_node_sizes(catalog.gpu("mi300x")) == (8,)
    assert owned_node_sizes(catalog.gpu("b200")) == (8,)
    assert owned_node_sizes(catalog.gpu("h100-nvl")) == (2, 4, 8)
    assert owned_node_sizes(catalog.gpu("l40s")) == (1, 2, 4, 8)
    assert owned_node_sizes(catalog.gpu("rtx-3090")) == (1, 2, 4)  # max 4 per node in the catalog


def test_on_prem_options_are_purchasable(catalog: Catalog) -> None:
    p = WorkloadProfile(
        workload="inference",
        model_id="llama-3.1-70b",
        concurrency=200,
        context_len=8192,
        utilization=0.9,
        horizon_months=36,
        deployment_preference="on_prem",
    )
    rec = recommend(profile=p, catalog=catalog, settings=RecommendSettings(sensitivity=False))
    assert rec.primary is not None
    for o in rec.options:
        assert o.pricing == "owned"
        assert o.gpus_per_node in owned_node_sizes(catalog.gpu(o.gpu)), o.key


def test_owned_option_states_buy_vs_rent(catalog: Catalog) -> None:
    # before: tools.cost.buy_vs_rent existed but no option said whether buying beats renting
    p = WorkloadProfile(
        workload="inference",
        model_id="llama-3.1-70b",
        concurrency=200,
        context_len=8192,
        utilization=0.9,
        horizon_months=36,
    )
    rec = recommend(profile=p, catalog=catalog, settings=RecommendSettings(sensitivity=False))
    owned = [o for o in rec.options if o.pricing == "owned" and catalog.prices_for(o.gpu)]
    assert owned
    text = [w for o in owned for w in o.why if w.startswith("buy vs rent")]
    assert text and "90% use, 36 months" in text[0] and "owning $" in text[0]
    assert any(s.step.startswith("buy vs rent") for s in rec.trace)


def test_lowest_risk_reason_is_true_of_owned_hardware(catalog: Catalog) -> None:
    # before: an owned option labelled 'lowest operational risk' was described as 'on-demand'
    p = WorkloadProfile(
        model_id="llama-3-8b",
        method="lora",
        dataset_tokens=500e6,
        utilization=0.4,
        horizon_months=24,
        deployment_preference="on_prem",
    )
    rec = recommend(profile=p, catalog=catalog, settings=RecommendSettings(sensitivity=False))
    for o in rec.options:
        if o.pricing == "owned":
            assert not any("on-demand" in w for w in o.why), o.why
