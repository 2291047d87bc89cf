"""The PCIe tensor-parallel note says what the figures already hold: serving times its all-reduces over PCIe
(tools.compute.serving_steps.link_kind), so its note does not warn of a slowdown the figures leave out; a
training plan keeps the warning."""

from __future__ import annotations

from tools.catalog.load import load_catalog
from tools.catalog.schema import GpuSpec
from tools.topology import plan_topology


def _gpu(gpu_id: str) -> GpuSpec:
    """A card from the shipped catalog (the H100 NVL's NVLink bridge joins pairs only)."""
    return next(g for g in load_catalog().gpus if g.id == gpu_id)


def _notes(gpu: GpuSpec, method: str) -> list[str]:
    plan = plan_topology(
        gpu=gpu,
        gpus_per_node=8,
        n_gpus=4,
        peak_gib_per_gpu=60.0,
        weights_gib_total=140.0,
        method=method,  # type: ignore[arg-type]
        scale_out="ethernet",
        tp=4,
    )
    return [w for w in plan.warnings if "tensor parallel 4" in w]


def test_serving_note_says_the_cost_is_counted() -> None:
    (note,) = _notes(_gpu("h100-nvl"), "inference")
    assert "serving figures include that cost" in note and "slowdown" not in note


def test_training_note_keeps_the_warning() -> None:
    (note,) = _notes(_gpu("h100-nvl"), "lora")
    assert "expect a large slowdown" in note


def test_no_note_on_nvswitch() -> None:
    assert _notes(_gpu("h100-sxm"), "inference") == []
