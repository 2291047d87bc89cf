"""The design.md `recommendation` JSON object and the Option keys the CLI contract names."""

from __future__ import annotations

import json

from tools.catalog.load import Catalog
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.models import RecommendSettings, recommendation_json

CONTRACT_KEYS = {
    "gpu",
    "gpus_per_node",
    "nodes",
    "total_gpus",
    "vram_gib_per_gpu",
    "peak_gib_per_gpu",
    "provider",
    "pricing",
    "usd_per_gpu_hour",
    "wall_hours",
    "cost_usd",
}


def test_recommendation_json_has_the_contract_keys(catalog: Catalog) -> None:
    rec = recommend(
        profile=WorkloadProfile(model_id="llama-3-8b", dataset_tokens=1e8, eu_only=True),
        catalog=catalog,
        settings=RecommendSettings(sensitivity=False),
    )
    data = json.loads(json.dumps(recommendation_json(rec)))  # JSON-serialisable
    assert data["primary"] is not None and isinstance(data["alternatives"], list)
    for opt in [data["primary"], *data["alternatives"]]:
        assert set(opt) >= CONTRACT_KEYS
        assert opt["pricing"] in ("on_demand", "spot", "reserved", "owned")
        assert set(opt["wall_hours"]) == {"low", "high"} and set(opt["cost_usd"]) == {"low", "high"}
        assert opt["total_gpus"] == opt["gpus_per_node"] * opt["nodes"]
        assert opt["peak_gib_per_gpu"] <= opt["vram_gib_per_gpu"] * 0.9 + 1e-9  # 10% headroom
        assert catalog.gpu(opt["gpu"]).id == opt["gpu"]
    assert all(set(r) >= {"gpu", "reason"} for r in data["rejected"])
    assert data["catalog_as_of"]["prices"]


def test_primary_is_first_in_options_and_labels_differ(catalog: Catalog) -> None:
    rec = recommend(
        profile=WorkloadProfile(model_id="llama-3-8b", dataset_tokens=1e8),
        catalog=catalog,
        settings=RecommendSettings(sensitivity=False),
    )
    assert rec.primary is not None and rec.options[0] is rec.primary and rec.primary.label == "primary"
    assert 2 <= len(rec.alternatives) <= 4
    keys = [o.key for o in rec.options]
    assert len(keys) == len(set(keys))
    assert rec.primary.why and rec.primary.tco and rec.primary.memory is not None
    assert rec.trace and any(s.step.startswith("memory: ") for s in rec.trace)


def test_workload_class_and_deployment_advice(catalog: Catalog) -> None:
    quiet = RecommendSettings(sensitivity=False)
    rec = recommend(
        profile=WorkloadProfile(model_id="llama-3-8b", dataset_tokens=1e8), catalog=catalog, settings=quiet
    )
    assert rec.workload_class is not None and rec.workload_class.startswith("fine_tuning")
    assert rec.deployment_advice is None  # no utilisation figure from the user: no buy/rent call
    busy = recommend(
        profile=WorkloadProfile(
            model_id="llama-3-8b", dataset_tokens=1e8, utilization=0.9, horizon_months=36
        ),
        catalog=catalog,
        settings=quiet,
    )
    assert busy.deployment_advice is not None and busy.deployment_advice.startswith("dedicated")


def test_summaries_for_chat(catalog: Catalog) -> None:
    quiet = RecommendSettings(sensitivity=False)
    rec = recommend(
        profile=WorkloadProfile(model_id="llama-3-8b", dataset_tokens=1e8), catalog=catalog, settings=quiet
    )
    assert rec.primary is not None
    assert rec.summary.startswith("Recommended: ") and rec.primary.summary in rec.summary
    assert rec.primary.gpu_name in rec.primary.summary and "$" in rec.primary.summary
    none = recommend(
        profile=WorkloadProfile(
            model_id="llama-3.1-405b", method="full", dataset_tokens=1e9, deployment_preference="consumer"
        ),
        catalog=catalog,
        settings=quiet,
    )
    assert none.summary.startswith("Nothing in the catalog can run this workload")
