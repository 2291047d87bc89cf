"""Expert review 18, R03 and R13: owned clusters larger than one node were used as one node. "16x A100 80GB
(2 nodes, InfiniBand)" ran on 8 of them (182-408 h) where `gpu-advisor time` gives 91-204 h on all 16; "4
servers with 8x A100 40GB each, 100 Gb Ethernet" was planned as one 16-GPU node, which the team does not have.
The owned offer keeps the team's node size and network (WorkloadProfile.owned_gpus_per_node, owned_fabric;
tools/recommend/owned.py owned_layout) and a training job may use several of their nodes."""

from __future__ import annotations

from typing import Any

from advisor.api import time as time_api
from advisor.service.profiles import profile_from_mapping
from advisor.service.recommending import recommend_for
from tools.catalog.load import load_catalog
from tools.profile import WorkloadProfile
from tools.recommend.owned import OWNED_GPUS_PER_NODE_DEFAULT, owned_layout

R03: dict[str, Any] = {
    "workload": "pretraining",
    "params_b": 1.3,
    "method": "full",
    "dataset_tokens": 100e9,
    "seq_len": 2048,
    "owned_gpu": "a100-80gb-sxm",
    "owned_gpu_count": 16,
}
R13: dict[str, Any] = {
    "workload": "fine_tuning",
    "model_id": "qwen2.5-14b",
    "method": "full",
    "dataset_tokens": 300e6,
    "deployment_preference": "on_prem",
    "owned_gpu": "a100-40gb-sxm",
    "owned_gpu_count": 32,
}


def _primary(fields: dict[str, Any]) -> Any:
    profile, settings = profile_from_mapping(fields)
    rec, _ = recommend_for(profile, settings=settings)
    assert rec.primary is not None
    return rec.primary


def test_r03_two_owned_infiniband_nodes_are_both_used() -> None:
    p = _primary({**R03, "owned_gpus_per_node": 8, "owned_fabric": "infiniband"})
    assert p.deployment == "owned" and p.gpu == "a100-80gb-sxm"
    assert (p.total_gpus, p.gpus_per_node, p.nodes) == (16, 8, 2)
    # the same hours as the time command on 16 of them (2 x 8 over InfiniBand)
    t = time_api(params_b=1.3, method="pretraining", gpu="a100-80gb-sxm", gpus=16, tokens=100e9, seq_len=2048)
    assert abs(p.wall_hours.low - t["wall_hours"]["low"]) / t["wall_hours"]["low"] < 0.01
    assert abs(p.wall_hours.high - t["wall_hours"]["high"]) / t["wall_hours"]["high"] < 0.01
    assert any("2 servers of 8 over InfiniBand; 16 used" in w for w in p.why), p.why
    # and not the amortised rate of a bought option (the slice of the generic lines took it over two nodes)
    assert not any(w.startswith("amortised") for w in p.why), p.why


def test_r03_layout_unsaid_is_assumed_and_said_so() -> None:
    p = _primary(R03)
    assert p.total_gpus == 16 and p.gpus_per_node == OWNED_GPUS_PER_NODE_DEFAULT
    assert any("(servers and network assumed: say yours)" in w for w in p.why), p.why


def test_r13_no_bigger_node_than_the_team_has() -> None:
    # the catalog allows 16 A100 40GB in one node (HGX-2 style baseboard); the team's servers hold 8
    p = _primary({**R13, "owned_gpus_per_node": 8, "owned_fabric": "ethernet"})
    assert p.deployment == "owned" and p.gpus_per_node <= 8
    # over 100 Gb Ethernet, ZeRO-3 across servers is no faster at the middle of the ranges: one server
    assert (p.total_gpus, p.nodes) == (8, 1)
    assert any("4 servers of 8 over Ethernet; 8 used" in w for w in p.why), p.why
    assert any(w.startswith("on 32 of them (4 servers of 8 over Ethernet)") for w in p.why), p.why


def test_r13_unsaid_node_size_is_never_the_catalog_maximum() -> None:
    p = _primary(R13)
    assert p.gpus_per_node <= OWNED_GPUS_PER_NODE_DEFAULT


def test_near_miss_infiniband_scales_where_ethernet_does_not() -> None:
    # the same 32 owned A100 40GB over InfiniBand: several servers finish sooner, so more of them are used
    p = _primary({**R13, "owned_gpus_per_node": 8, "owned_fabric": "infiniband"})
    assert p.total_gpus > 8 and p.gpus_per_node == 8


def test_owned_layout_defaults_and_caps() -> None:
    catalog = load_catalog()
    a100 = catalog.gpu("a100-40gb-sxm")
    lay = owned_layout(a100, WorkloadProfile(owned_gpu=a100.id, owned_gpu_count=32))
    assert (lay.gpus_per_node, lay.nodes, lay.per_node_said, lay.fabric_said) == (8, 4, False, False)
    said = owned_layout(
        a100,
        WorkloadProfile(owned_gpu=a100.id, owned_gpu_count=24, owned_gpus_per_node=8, owned_fabric="roce"),
    )
    assert (said.gpus_per_node, said.nodes, said.fabric) == (8, 3, "roce")
    one = owned_layout(a100, WorkloadProfile(owned_gpu=a100.id, owned_gpu_count=4))
    assert (one.gpus_per_node, one.nodes, one.fabric) == (4, 1, "none")
