"""Topology: seed 001's node count, parallelism plans, interconnect requirements, NCCL checklist."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tools.catalog.schema import GpuSpec
from tools.errors import InputError
from tools.topology import nodes_required, plan_topology


def test_seed_001_full_fine_tuning_70b_needs_16_gpus_in_2_nodes() -> None:
    # Seed 001, calculation 3: 18 B/param x 70B = 1,260 GB aggregate; ceil(1,260 / 80) = 16 GPUs;
    # two eight-GPU H100 nodes. Exact integers, no tolerance.
    total_gb = 18 * 70e9 / 1e9
    assert total_gb == pytest.approx(1260)
    assert nodes_required(total_gb=total_gb, vram_gb_per_node=80).count == 16
    assert nodes_required(total_gb=total_gb, vram_gb_per_node=8 * 80).count == 2


def test_nodes_required_exact_multiple_and_trace() -> None:
    r = nodes_required(total_gb=160, vram_gb_per_node=80)
    assert r.count == 2  # 140 GB of BF16 70B weights fit "two 80GB GPUs" (seed 001), 160 exactly two
    assert r.trace[0].formula == "ceil(total_vram_required / vram_per_node)"
    assert nodes_required(total_gb=160.5, vram_gb_per_node=80).count == 3


def test_seed_001_full_ft_plan_two_nodes_zero3_needs_infiniband(gpus: dict[str, GpuSpec]) -> None:
    plan = plan_topology(
        gpu=gpus["h100-sxm"],
        gpus_per_node=8,
        n_gpus=16,
        peak_gib_per_gpu=72.0,
        weights_gib_total=130.4,
        method="full",
        scale_out="infiniband",
    )
    assert (plan.nodes, plan.gpus_per_node, plan.tp, plan.pp, plan.dp) == (2, 8, 1, 1, 16)
    assert plan.sharding == "zero3"
    assert plan.interconnect_inter_required == "infiniband_or_roce"
    assert plan.interconnect_intra_required == "nvlink"
    assert len(plan.interconnect_why) == 2 and "InfiniBand required" in plan.interconnect_why[1]
    assert plan.feasible and not plan.reasons
    joined = " ".join(plan.nccl_checklist)
    for item in (
        "NCCL_SOCKET_IFNAME",
        "topology detection",
        "per node or cluster-wide",
        "NVLink topology",
        "GPUs per node",
    ):
        assert item in joined


def test_seed_001_qlora_single_gpu_needs_no_fabric(gpus: dict[str, GpuSpec]) -> None:
    # Seed 001: "47 GB peak < 80 GB node capacity. No multi-node. No InfiniBand questions. No NCCL."
    plan = plan_topology(
        gpu=gpus["h100-sxm"],
        gpus_per_node=8,
        n_gpus=1,
        peak_gib_per_gpu=44.0,
        weights_gib_total=36.0,
        method="qlora",
        scale_out="none",
    )
    assert plan.feasible and plan.nodes == 1 and plan.interconnect_inter_required == "none"
    assert plan.nccl_checklist == []


def test_multi_node_without_fabric_is_infeasible(gpus: dict[str, GpuSpec]) -> None:
    plan = plan_topology(
        gpu=gpus["h100-sxm"],
        gpus_per_node=8,
        n_gpus=16,
        peak_gib_per_gpu=72.0,
        weights_gib_total=130.4,
        method="full",
        scale_out="none",
    )
    assert not plan.feasible
    assert "scale-out network" in plan.reasons[0]


def test_cross_node_tensor_parallel_over_ethernet_is_infeasible(gpus: dict[str, GpuSpec]) -> None:
    kw = dict(
        gpu=gpus["h100-sxm"],
        gpus_per_node=8,
        n_gpus=16,
        peak_gib_per_gpu=60.0,
        weights_gib_total=760.0,
        method="inference",
        tp=16,
    )
    eth = plan_topology(scale_out="ethernet", **kw)  # type: ignore[arg-type]
    assert not eth.feasible and "tensor parallelism across nodes" in eth.reasons[0]
    ib = plan_topology(scale_out="infiniband", **kw)  # type: ignore[arg-type]
    assert ib.feasible and ib.interconnect_inter_required == "infiniband"
    assert any("net loss" in w for w in ib.warnings)


def test_ethernet_data_parallel_is_feasible_with_warning(gpus: dict[str, GpuSpec]) -> None:
    plan = plan_topology(
        gpu=gpus["h100-sxm"],
        gpus_per_node=8,
        n_gpus=16,
        peak_gib_per_gpu=72.0,
        weights_gib_total=130.4,
        method="full",
        scale_out="ethernet",
    )
    assert plan.feasible
    assert any("15% to 10x" in w for w in plan.warnings)


def test_405b_inference_uses_tp_inside_node_and_pp_across(gpus: dict[str, GpuSpec]) -> None:
    # 405B in BF16 ~ 756 GiB: more than one 8 x 80 GB node at 80% weight share -> TP 8, PP 2.
    plan = plan_topology(
        gpu=gpus["h100-sxm"],
        gpus_per_node=8,
        n_gpus=16,
        peak_gib_per_gpu=70.0,
        weights_gib_total=756.0,
        method="inference",
        scale_out="infiniband",
    )
    assert (plan.tp, plan.pp, plan.dp, plan.nodes) == (8, 2, 1, 2)
    assert plan.tp <= plan.gpus_per_node
    assert plan.interconnect_inter_required == "any"


def test_70b_bf16_serving_on_two_gpus_is_tp2(gpus: dict[str, GpuSpec]) -> None:
    # Seed 001: "serve ... merged into the base model at BF16: 140 GB -> two 80GB GPUs".
    plan = plan_topology(
        gpu=gpus["h100-sxm"],
        gpus_per_node=8,
        n_gpus=2,
        peak_gib_per_gpu=70.0,
        weights_gib_total=131.4,
        method="inference",
        scale_out="none",
    )
    assert (plan.tp, plan.pp, plan.nodes) == (2, 1, 1) and plan.feasible


def test_peak_over_usable_memory_is_infeasible(gpus: dict[str, GpuSpec]) -> None:
    plan = plan_topology(
        gpu=gpus["l40s"],
        gpus_per_node=8,
        n_gpus=1,
        peak_gib_per_gpu=50.0,
        weights_gib_total=13.0,
        method="lora",
        scale_out="none",
    )
    assert not plan.feasible and "exceeds" in plan.reasons[0]


def test_tensor_parallel_over_pcie_warns(gpus: dict[str, GpuSpec]) -> None:
    plan = plan_topology(
        gpu=gpus["l40s"],
        gpus_per_node=4,
        n_gpus=4,
        peak_gib_per_gpu=40.0,
        weights_gib_total=131.0,
        method="inference",
        scale_out="none",
    )
    assert plan.tp == 4 and plan.feasible
    assert any("PCIe" in w for w in plan.warnings)


@pytest.mark.parametrize(
    "bad",
    [
        {"n_gpus": 0},
        {"gpus_per_node": 0},
        {"gpus_per_node": 16},
        {"method": "rlhf"},
        {"scale_out": "wifi"},
        {"peak_gib_per_gpu": float("nan")},
        {"sharding": "zero4"},
    ],
)
def test_bad_input(gpus: dict[str, GpuSpec], bad: dict[str, object]) -> None:
    kw: dict[str, object] = dict(
        gpu=gpus["h100-sxm"],
        gpus_per_node=8,
        n_gpus=8,
        peak_gib_per_gpu=40.0,
        weights_gib_total=20.0,
        method="full",
        scale_out="infiniband",
    )
    kw.update(bad)
    with pytest.raises(InputError):
        plan_topology(**kw)  # type: ignore[arg-type]
    with pytest.raises(InputError):
        nodes_required(total_gb=-1, vram_gb_per_node=80)


@settings(max_examples=60, deadline=None)
@given(
    n_gpus=st.integers(1, 256),
    per_node=st.sampled_from([1, 2, 4, 8]),
    weights=st.floats(0, 2000),
    method=st.sampled_from(["full", "lora", "qlora", "pretraining", "inference"]),
    fabric=st.sampled_from(["infiniband", "roce", "ethernet", "none"]),
)
def test_plan_invariants(n_gpus: int, per_node: int, weights: float, method: str, fabric: str) -> None:
    gpu = GpuSpec.model_validate(
        {
            "source": "test",
            "as_of": "2026-11-01",
            "id": "h100-sxm",
            "name": "H100",
            "vendor": "nvidia",
            "memory_gb": 80,
            "usable_memory_gib": 79.6,
            "memory_bandwidth_tb_per_s": 3.35,
            "bf16_dense_tflops": 989,
            "scale_up_link": "nvlink4",
            "form_factor": "SXM5",
        }
    )
    plan = plan_topology(
        gpu=gpu,
        gpus_per_node=per_node,
        n_gpus=n_gpus,
        peak_gib_per_gpu=50.0,
        weights_gib_total=weights,
        method=method,  # type: ignore[arg-type]
        scale_out=fabric,  # type: ignore[arg-type]
    )
    assert plan.nodes * plan.gpus_per_node >= n_gpus
    assert plan.tp <= plan.gpus_per_node  # TP never leaves the scale-up domain unless forced
    assert plan.tp * plan.pp * plan.dp <= n_gpus
    if plan.nodes > 1 and fabric == "none":
        assert not plan.feasible
    assert (plan.nodes > 1) == bool(
        plan.nccl_checklist and "NCCL_SOCKET_IFNAME" in " ".join(plan.nccl_checklist)
    )


def test_lora_data_parallel_inside_a_node_needs_only_pcie(gpus: dict[str, GpuSpec]) -> None:
    plan = plan_topology(
        gpu=gpus["l40s"],
        gpus_per_node=4,
        n_gpus=4,
        peak_gib_per_gpu=30.0,
        weights_gib_total=15.0,
        method="lora",
        scale_out="none",
    )
    assert (plan.tp, plan.dp, plan.sharding) == (1, 4, "ddp")
    assert plan.interconnect_intra_required == "pcie" and plan.feasible and not plan.warnings
