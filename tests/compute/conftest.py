"""GPU and model records for the compute tests, built directly from the schema.

Figures are dense datasheet values from shared/references/gpu-specs.md (the catalog, owned by H1,
carries the same figures with their sources); building them here keeps these tests independent of
catalog edits.
"""

from __future__ import annotations

import datetime as dt

import pytest

from tools.catalog.schema import GpuSpec, ModelArch

AS_OF = dt.date(2026, 11, 1)


def _gpu(**kw: object) -> GpuSpec:
    base: dict[str, object] = {"source": "shared/references/gpu-specs.md", "as_of": AS_OF, "vendor": "nvidia"}
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
        fp8_dense_tflops=1979,
        scale_up_link="nvlink4",
        scale_up_bandwidth_gb_per_s=900,
        tdp_w=700,
        form_factor="SXM5",
    ),
    "h100-pcie": _gpu(
        id="h100-pcie",
        name="H100 PCIe 80GB",
        memory_gb=80,
        usable_memory_gib=79.6,
        memory_bandwidth_tb_per_s=2.0,
        bf16_dense_tflops=756,
        fp8_dense_tflops=1513,
        scale_up_link="nvlink_bridge",
        tdp_w=350,
        form_factor="PCIe",
    ),
    "a100-80gb-sxm": _gpu(
        id="a100-80gb-sxm",
        name="A100 SXM 80GB",
        memory_gb=80,
        usable_memory_gib=79.2,
        memory_bandwidth_tb_per_s=2.039,
        bf16_dense_tflops=312,
        scale_up_link="nvlink3",
        scale_up_bandwidth_gb_per_s=600,
        tdp_w=400,
        form_factor="SXM4",
    ),
    "l40s": _gpu(
        id="l40s",
        name="L40S",
        memory_gb=48,
        usable_memory_gib=44.4,
        memory_bandwidth_tb_per_s=0.864,
        bf16_dense_tflops=362,
        fp8_dense_tflops=733,
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
        tdp_w=450,
        form_factor="PCIe",
    ),
    "mi300x": _gpu(
        id="mi300x",
        name="MI300X",
        vendor="amd",
        memory_gb=192,
        usable_memory_gib=191.5,
        memory_bandwidth_tb_per_s=5.3,
        bf16_dense_tflops=1307,
        scale_up_link="infinity_fabric",
        tdp_w=750,
        form_factor="OAM",
    ),
    "gaudi3": _gpu(
        id="gaudi3",
        name="Gaudi 3",
        vendor="intel",
        memory_gb=128,
        usable_memory_gib=119,
        memory_bandwidth_tb_per_s=3.7,
        bf16_dense_tflops=1835,
        scale_up_link="roce",
        tdp_w=900,
        form_factor="OAM",
    ),
}


def _arch(**kw: object) -> ModelArch:
    base: dict[str, object] = {"source": "Hugging Face config.json", "as_of": AS_OF}
    base.update(kw)
    return ModelArch.model_validate(base)


MODELS: dict[str, ModelArch] = {
    "llama-3.1-8b": _arch(
        id="llama-3.1-8b",
        name="Llama 3.1 8B",
        family="llama",
        n_layers=32,
        hidden_size=4096,
        n_heads=32,
        n_kv_heads=8,
        head_dim=128,
        intermediate_size=14336,
        vocab_size=128256,
        max_context=131072,
        published_params_b=8.03,
    ),
    "llama-3-70b": _arch(
        id="llama-3-70b",
        name="Llama 3 70B",
        family="llama",
        n_layers=80,
        hidden_size=8192,
        n_heads=64,
        n_kv_heads=8,
        head_dim=128,
        intermediate_size=28672,
        vocab_size=128256,
        max_context=8192,
        published_params_b=70.6,
    ),
    "llama-3.1-405b": _arch(
        id="llama-3.1-405b",
        name="Llama 3.1 405B",
        family="llama",
        n_layers=126,
        hidden_size=16384,
        n_heads=128,
        n_kv_heads=8,
        head_dim=128,
        intermediate_size=53248,
        vocab_size=128256,
        max_context=131072,
        published_params_b=405.9,
    ),
    "mixtral-8x7b": _arch(
        id="mixtral-8x7b",
        name="Mixtral 8x7B",
        family="mixtral",
        n_layers=32,
        hidden_size=4096,
        n_heads=32,
        n_kv_heads=8,
        head_dim=128,
        intermediate_size=14336,
        vocab_size=32000,
        n_experts=8,
        n_active_experts=2,
        moe_intermediate_size=14336,
        max_context=32768,
        published_params_b=46.7,
    ),
}


@pytest.fixture(scope="session")
def gpus() -> dict[str, GpuSpec]:
    return GPUS


@pytest.fixture(scope="session")
def models() -> dict[str, ModelArch]:
    return MODELS
