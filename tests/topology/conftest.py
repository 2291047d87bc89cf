"""GPU records for the topology tests (datasheet figures from shared/references/gpu-specs.md)."""

from __future__ import annotations

import datetime as dt

import pytest

from tools.catalog.schema import GpuSpec


def _gpu(**kw: object) -> GpuSpec:
    base: dict[str, object] = {
        "source": "shared/references/gpu-specs.md",
        "as_of": dt.date(2026, 11, 1),
        "vendor": "nvidia",
    }
    base.update(kw)
    return GpuSpec.model_validate(base)


GPUS: dict[str, GpuSpec] = {
    "h100-sxm": _gpu(
        id="h100-sxm",
        name="H100 SXM 80GB",
        memory_gb=80,
        usable_memory_gib=79.6,
        memory_bandwidth_tb_per_s=3.35,
        bf16_dense_tflops=989,
        scale_up_link="nvlink4",
        tdp_w=700,
        form_factor="SXM5",
    ),
    "l40s": _gpu(
        id="l40s",
        name="L40S",
        memory_gb=48,
        usable_memory_gib=44.4,
        memory_bandwidth_tb_per_s=0.864,
        bf16_dense_tflops=362,
        scale_up_link="pcie",
        tdp_w=350,
        form_factor="PCIe",
    ),
    "rtx-4090": _gpu(
        id="rtx-4090",
        name="RTX 4090",
        consumer=True,
        memory_gb=24,
        usable_memory_gib=23.6,
        memory_bandwidth_tb_per_s=1.008,
        bf16_dense_tflops=165,
        scale_up_link="none",
        max_gpus_per_node=4,
        form_factor="PCIe",
    ),
}


@pytest.fixture(scope="session")
def gpus() -> dict[str, GpuSpec]:
    return GPUS
