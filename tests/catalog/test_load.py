"""Loading the bundled catalogs: coverage, sourcing, internal consistency."""

from __future__ import annotations

import datetime as dt

import pytest

from tools.catalog.load import Catalog, load_catalog

REQUIRED_GPUS = [
    "rtx-3090", "rtx-4090", "rtx-5090", "l4", "a10", "a10g", "l40s", "a100-40gb-pcie", "a100-40gb-sxm",
    "a100-80gb-pcie", "a100-80gb-sxm", "h100-pcie", "h100-sxm", "h100-nvl", "h200", "gh200", "b200", "b300",
    "mi300x", "mi325x", "gaudi3",
]
REQUIRED_MODELS = [
    "llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3-8b", "llama-3-70b", "llama-3.1-8b", "llama-3.1-70b",
    "llama-3.1-405b", "llama-3.2-1b", "llama-3.2-3b", "llama-3.3-70b", "mistral-7b-v0.3", "mixtral-8x7b",
    "mixtral-8x22b", "qwen2.5-0.5b", "qwen2.5-1.5b", "qwen2.5-3b", "qwen2.5-7b", "qwen2.5-14b", "qwen2.5-32b",
    "qwen2.5-72b", "qwen3-8b", "qwen3-32b", "qwen3-30b-a3b", "qwen3-235b-a22b", "gemma-2-9b", "gemma-2-27b",
    "gemma-3-12b", "gemma-3-27b", "phi-3-mini", "phi-3-medium", "phi-3.5-mini", "phi-4", "deepseek-v3",
    "codellama-34b", "falcon-7b", "falcon-40b",
]
ESTIMATES = [
    "managed_premium_fraction", "colo_usd_per_kw_month", "power_usd_per_kwh", "pue",
    "server_overhead_fraction", "hardware_amortization_months", "ops_usd_per_gpu_month",
]
# The day the catalog was last reviewed; no record may be dated after it (a typo'd year would be).
# 2026-11-25: issue 16 added the reserved 1- and 3-year discount estimates (tools/catalog/costs.yaml).
REVIEWED = dt.date(2026, 11, 27)  # the RTX A6000 record was added that day


def test_bundled_catalog_is_cached_and_immutable(catalog: Catalog) -> None:
    assert load_catalog() is catalog
    assert isinstance(catalog.gpus, tuple) and isinstance(catalog.prices, tuple)
    with pytest.raises(Exception):  # noqa: B017 - frozen dataclass / frozen pydantic
        catalog.gpus = ()  # type: ignore[misc]
    with pytest.raises(Exception):  # noqa: B017
        catalog.gpus[0].memory_gb = 1  # type: ignore[misc]


@pytest.mark.parametrize("gpu_id", REQUIRED_GPUS)
def test_required_gpus_present(catalog: Catalog, gpu_id: str) -> None:
    assert catalog.gpu(gpu_id).id == gpu_id


def test_required_models_present_and_at_least_30(catalog: Catalog) -> None:
    ids = {m.id for m in catalog.models}
    assert set(REQUIRED_MODELS) <= ids
    assert len(ids) >= 30


@pytest.mark.parametrize("name", ESTIMATES)
def test_named_estimates_present(catalog: Catalog, name: str) -> None:
    assert catalog.estimate(name).name == name


def test_managed_premium_is_seed_001_value(catalog: Catalog) -> None:
    # seed 001: "SageMaker carries roughly 30% overhead vs self-managed"
    assert catalog.estimate("managed_premium_fraction").value == pytest.approx(0.30)


def test_every_record_sourced_and_dated(catalog: Catalog) -> None:
    records = [*catalog.gpus, *catalog.models, *catalog.prices, *catalog.egress, *catalog.storage,
               *catalog.estimates]
    for r in records:
        assert r.source.strip(), r
        assert dt.date(2020, 1, 1) <= r.as_of <= REVIEWED, r
    for g in catalog.gpus:
        if g.purchase_price_usd is not None:
            assert g.purchase_price_source, g.id


def test_usable_memory_below_marketed(catalog: Catalog) -> None:
    # usable GiB = marketed figure x 0.995 (H100 anchor), x 15/16 more with GDDR ECC: between 0.9 and 1.0
    for g in catalog.gpus:
        assert 0.9 <= g.usable_memory_gib / g.memory_gb <= 1.0, g.id


def test_h100_anchor_figures(catalog: Catalog) -> None:
    h100 = catalog.gpu("h100-sxm")
    assert h100.usable_memory_gib == pytest.approx(79.6)  # 81,559 MiB exposed to CUDA (gpu-specs.md)
    assert h100.bf16_dense_tflops == 989  # seed 001 dense figure; 1,979 is the sparse one
    assert h100.scale_up_bandwidth_gb_per_s == 900  # seed 001: NVLink 4.0 900 GB/s
    assert catalog.gpu("a100-80gb-sxm").scale_up_bandwidth_gb_per_s == 600  # seed 001


def test_tflops_are_dense_not_sparse(catalog: Catalog) -> None:
    # Dense FP8 is at most ~2x dense BF16 on every part listed; a sparse figure would break the H100 bound.
    for g in catalog.gpus:
        if g.fp8_dense_tflops is not None:
            assert g.fp8_dense_tflops <= 2.05 * g.bf16_dense_tflops, g.id
    assert catalog.gpu("h100-sxm").bf16_dense_tflops < 1979


def test_prices_reference_catalog_gpus_and_cover_pricing_models(catalog: Catalog) -> None:
    ids = {g.id for g in catalog.gpus}
    assert all(p.gpu in ids for p in catalog.prices)
    assert {p.pricing for p in catalog.prices} == {"on_demand", "spot", "reserved"}
    assert any(p.managed and p.cloud == "aws" for p in catalog.prices)  # SageMaker (seed 001)


def test_seed_001_bare_metal_record(catalog: Catalog) -> None:
    recs = [p for p in catalog.prices_for("h100-sxm") if p.usd_per_gpu_hour == pytest.approx(2.80)]
    assert any("seed 001" in p.source and not p.managed for p in recs)


def test_eu_offers_exist_for_training_gpus(catalog: Catalog) -> None:
    for gpu in ("h100-sxm", "h200"):
        eu = catalog.prices_for(gpu, eu=True)
        assert eu and all(p.eu for p in eu)


def test_prices_for_sorted_and_filtered(catalog: Catalog) -> None:
    recs = catalog.prices_for("H100 SXM")
    assert [p.usd_per_gpu_hour for p in recs] == sorted(p.usd_per_gpu_hour for p in recs)
    assert all(p.pricing == "spot" for p in catalog.prices_for("h100-sxm", pricing="spot"))
    assert all(p.provider == "aws" for p in catalog.prices_for("h100-sxm", provider="AWS"))


def test_aws_egress_schedule_matches_seed_001(catalog: Catalog) -> None:
    aws = catalog.egress_for("AWS")
    assert aws.free_gb_per_month == 100
    assert [t.usd_per_gb for t in aws.tiers] == [0.09, 0.085, 0.07, 0.05]
    assert aws.tiers[-1].up_to_gb is None


def test_storage_lookup_falls_back(catalog: Catalog) -> None:
    assert catalog.storage_for("aws").usd_per_gb_month == pytest.approx(0.023)
    assert catalog.storage_for("runpod-secure").provider == "runpod"
    assert catalog.storage_for("some-new-cloud").provider == "default"


def test_unknown_lookups_raise_input_error(catalog: Catalog) -> None:
    from tools.errors import InputError

    with pytest.raises(InputError, match="no egress schedule"):
        catalog.egress_for("oracle")
    with pytest.raises(InputError, match="unknown estimate"):
        catalog.estimate("nope")


def test_as_of_dates(catalog: Catalog) -> None:
    dates = catalog.as_of_dates()
    assert {"gpus", "models", "prices", "prices_oldest"} <= set(dates)
    assert dates["prices_oldest"] <= dates["prices"]


def test_price_node_sizes_fit_the_gpu(catalog: Catalog) -> None:
    # An offer cannot put more GPUs in a node than the part's baseboard/NVLink domain holds.
    for p in catalog.prices:
        assert max(p.gpus_per_node) <= catalog.gpu(p.gpu).max_gpus_per_node, (p.provider, p.gpu)
