"""Owned hardware comes in sizes one can buy (auditor H8).

Before: owned options were enumerated at 1, 2, 4 or 8 GPUs for every type, e.g. '4x MI300X, your data
centre' or '1x B200 owned', but SXM/OAM modules are sold on 8-GPU baseboards (HGX H100/H200/B200,
AMD MI300X UBB, Gaudi 3 HLB), and H100 NVL in bridged pairs.
"""

from __future__ import annotations

from tools.catalog.load import Catalog
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend_engine import owned_node_sizes
from tools.recommend_models import RecommendSettings


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
