"""The recommender's fast paths give exactly the results of the plain ones.

Why: a chat turn must cost tens of milliseconds (issue 5), so the sweep uses calculators without trace
steps, shares results across sensitivity re-runs, skips variants whose resolved profile equals another
run's, and re-prices an earlier run's candidates (a sensitivity variant's, or another request's) when
a run changes only cost inputs. Each of these is
compared here with its reference path (traced calculators, a full engine run per variant), to the bit:
a faster answer that differs is a different answer.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

import tools.recommend.advise as recommend_mod
import tools.recommend.engine as recommend_engine
import tools.recommend.infeasible as infeasible
import tools.recommend.sensitivity as sensitivity
from tools.catalog.load import Catalog
from tools.compute.training import estimate_training_time
from tools.cost import tco
from tools.memory import estimate_memory
from tools.profile import WorkloadProfile
from tools.ranges import Range
from tools.recommend import recommend
from tools.recommend.models import recommendation_json
from tools.topology import plan_topology

PROFILES: dict[str, dict[str, Any]] = {
    # seed 001's shape with a deadline and budget nothing meets (closest-options path)
    "qlora 70B, S3, deadline, budget": {
        "model_id": "llama-3-70b",
        "method": "qlora",
        "dataset_gb": 500,
        "data_location": "aws",
        "deadline_hours": 140,
        "budget_usd": 5000,
    },
    # everything else assumed: every sensitivity variant, several of them cost-only or no-ops
    "lora 7B, budget": {"model_id": "mistral-7b-v0.3", "method": "lora", "epochs": 3, "budget_usd": 500},
    "full 8B, cheapest, excluded provider": {
        "model_id": "llama-3-8b",
        "method": "full",
        "dataset_tokens": 2e9,
        "objective": "cheapest",
        "providers_excluded": ["runpod"],
    },
    "fine-tuning, method assumed, data on gcp": {
        "model_id": "qwen2.5-72b",
        "workload": "fine_tuning",
        "dataset_gb": 200,
        "data_location": "gcp",
        "objective": "fastest",
    },
    "serving, EU": {
        "model_id": "llama-3.1-70b",
        "workload": "inference",
        "concurrency": 200,
        "context_len": 8192,
        "eu_only": True,
    },
}


def _dump(rec: Any) -> str:
    """Everything the recommender returns, trace included, as canonical JSON."""
    return json.dumps(
        {"json": recommendation_json(rec), "full": rec.model_dump(mode="json")}, sort_keys=True, default=str
    )


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_sensitivity_shortcuts_match_full_reruns(
    name: str, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    known = {m.id for m in catalog.models}
    fields = PROFILES[name]
    if fields["model_id"] not in known:
        pytest.skip(f"{fields['model_id']} not in the bundled catalog")
    profile = WorkloadProfile(**fields)
    runs: list[bool] = []  # one entry per engine run: True when it re-priced another run's candidates
    real_run_engine = recommend_mod.run_engine

    def counting(*args: Any, **kw: Any) -> Any:
        runs.append(kw.get("reprice") is not None)
        return real_run_engine(*args, **kw)

    for mod in (recommend_mod, sensitivity, infeasible):  # every caller of run_engine
        monkeypatch.setattr(mod, "run_engine", counting)
    fast = recommend(profile=profile, catalog=catalog)
    fast_runs, runs[:] = list(runs), []
    assert fast.sensitivity, "the profile should have uncertain inputs"

    # reference: every variant runs the whole engine (no shared outcome, no re-pricing, full selection)
    counter = itertools.count()
    monkeypatch.setattr(sensitivity, "_run_key", lambda w: str(next(counter)))
    monkeypatch.setattr(sensitivity, "_cost_only", lambda a, b: False)
    monkeypatch.setattr(sensitivity, "_same_costs", lambda a, b: False)
    monkeypatch.setattr(recommend_engine.Engine, "stored_enumeration", lambda self: None)
    monkeypatch.setattr(recommend_engine.Engine, "stored_costing", lambda self: None)
    real_rerank = sensitivity.rerank

    def full(*args: Any, **kw: Any) -> Any:
        runs.append(kw.get("reprice") is not None)
        return real_run_engine(*args, **{**kw, "primary_only": False})

    for mod in (recommend_mod, sensitivity, infeasible):
        monkeypatch.setattr(mod, "run_engine", full)
    monkeypatch.setattr(
        sensitivity, "rerank", lambda *a, **kw: real_rerank(*a, **{**kw, "primary_only": False})
    )
    slow = recommend(profile=profile, catalog=catalog)
    assert not any(runs) and len(runs) >= len(fast_runs)
    assert _dump(fast) == _dump(slow)


def test_cost_only_detects_a_data_change_and_not_a_token_change(catalog: Catalog) -> None:
    from tools.defaults import resolve_workload

    base = resolve_workload(profile=WorkloadProfile(**PROFILES["lora 7B, budget"]), catalog=catalog)
    data = resolve_workload(
        profile=base.profile.with_values("assumed", None, data_location="aws", data_cached=False),
        catalog=catalog,
    )
    tokens = resolve_workload(
        profile=base.profile.with_values("assumed", None, dataset_tokens=5e7), catalog=catalog
    )
    assert sensitivity._cost_only(base, data)
    assert not sensitivity._cost_only(base, tokens)
    assert sensitivity._run_key(base) != sensitivity._run_key(data)


def _numbers(result: Any) -> dict[str, Any]:
    return dict(result.model_dump(exclude={"trace", "assumptions"}))


def test_untraced_calculators_give_the_traced_numbers(catalog: Catalog) -> None:
    arch = catalog.model("llama-3-70b")
    gpus = [catalog.gpu(g.id) for g in catalog.gpus[:6]]
    for gpu, (n, per_node), method in itertools.product(gpus, [(1, 1), (8, 8), (16, 8)], ["qlora", "full"]):
        if per_node > gpu.max_gpus_per_node:
            continue
        kw: dict[str, Any] = dict(
            active_params=70e9,
            tokens=3e9,
            method=method,
            grad_checkpointing=True,
            gpu=gpu,
            n_gpus=n,
            gpus_per_node=per_node,
            scale_out="infiniband",
            arch=arch,
            seq_len=2048,
        )
        traced = estimate_training_time(**kw)
        plain = estimate_training_time(**kw, traced=False)
        assert traced.trace and not plain.trace and not plain.assumptions
        assert _numbers(traced) == _numbers(plain)

        mem_kw: dict[str, Any] = dict(
            arch=arch, method=method, gpus=n, sharding="zero3" if n > 1 else "none", seq_len=2048
        )
        assert _numbers(estimate_memory(**mem_kw)) == _numbers(estimate_memory(**mem_kw, traced=False))

        topo_kw: dict[str, Any] = dict(
            gpu=gpu,
            gpus_per_node=per_node,
            n_gpus=n,
            peak_gib_per_gpu=60.0,
            weights_gib_total=130.0,
            method=method,
            scale_out="infiniband" if n > per_node else "none",
        )
        assert _numbers(plan_topology(**topo_kw)) == _numbers(plan_topology(**topo_kw, traced=False))

    for premium in (None, 0.3):
        kw = dict(
            gpu_hours=Range(low=100.0, high=250.0),
            usd_per_gpu_hour=2.49,
            storage_usd=11.5,
            egress_usd=45.0,
            managed_premium_fraction=premium,
        )
        assert _numbers(tco(**kw)) == _numbers(tco(**kw, traced=False))


def test_caches_kept_across_requests_change_nothing(catalog: Catalog) -> None:
    """One Caches through a sequence of different requests (as the conversation keeps it per process)
    gives each request exactly what a fresh run gives (synthetic shapes from params_b included)."""
    from tools.recommend.caches import Caches

    known = {m.id for m in catalog.models}
    profiles = [WorkloadProfile(**f) for f in PROFILES.values() if f["model_id"] in known]
    profiles += [
        WorkloadProfile(params_b=13, method="lora", dataset_tokens=1e8),
        WorkloadProfile(params_b=13.4, method="lora", dataset_tokens=1e8),
        WorkloadProfile(**{**PROFILES["lora 7B, budget"], "model_id": "mistral-7b-v0.3", "budget_usd": 900}),
    ]
    shared = Caches()
    for profile in profiles + profiles[::-1]:
        kept = recommend(profile=profile, catalog=catalog, caches=shared)
        fresh = recommend(profile=profile, catalog=catalog)
        assert _dump(kept) == _dump(fresh)
    assert shared.hits > 0 and shared.size() > 0


def test_a_request_differing_only_in_cost_inputs_reprices_an_earlier_enumeration(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Kept caches hold each run's enumeration before pricing: a later request whose profile differs only
    in cost inputs (budget, data location and caching, runs per month) prices those candidates again and
    replays their trace, instead of enumerating the catalog. Its result, trace included, is what a fresh
    run gives, for training (owned hardware included) and serving."""
    from tools.recommend.caches import Caches

    known = {m.id for m in catalog.models}
    owned = {
        "model_id": "llama-3-8b",
        "method": "lora",
        "dataset_tokens": 2e8,
        "utilization": 0.6,
        "horizon_months": 24,
        "runs_per_month": 4,
    }
    pairs = [
        (PROFILES["lora 7B, budget"], {"budget_usd": 2000}),
        (PROFILES["qlora 70B, S3, deadline, budget"], {"data_location": "gcp", "data_cached": False}),
        (owned, {"runs_per_month": 20}),
        (owned, {"budget_usd": 800}),
        (PROFILES["serving, EU"], {"budget_usd": 30000}),
    ]
    enumerated: list[bool] = []
    real = recommend_engine.Engine.enumerate_gpu

    def counting(self: Any, *a: Any, **kw: Any) -> Any:
        enumerated.append(True)
        return real(self, *a, **kw)

    monkeypatch.setattr(recommend_engine.Engine, "enumerate_gpu", counting)
    for first, change in pairs:
        if first["model_id"] not in known:
            continue
        shared = Caches()
        recommend(profile=WorkloadProfile(**first), catalog=catalog, caches=shared)
        enumerated.clear()
        later = WorkloadProfile(**{**first, **change})
        kept = recommend(profile=later, catalog=catalog, caches=shared)
        base_enumerations = len(enumerated)
        fresh = recommend(profile=later, catalog=catalog)
        assert _dump(kept) == _dump(fresh), change
        assert len(enumerated) > base_enumerations  # the fresh run enumerated
        assert base_enumerations < len(enumerated) - base_enumerations, change


def test_trimmed_caches_keep_shapes_and_newest_enumerations_and_change_nothing(catalog: Catalog) -> None:
    """Caches.trimmed (what the conversation does past its bound) keeps the shape stores and the newest
    half of the others, and a run on the trimmed caches is a fresh run."""
    from tools.recommend.caches import Caches

    first = WorkloadProfile(**PROFILES["lora 7B, budget"])
    later = WorkloadProfile(**{**PROFILES["lora 7B, budget"], "budget_usd": 1500})
    shared = Caches()
    recommend(profile=first, catalog=catalog, caches=shared)
    trimmed = shared.trimmed(0.5)
    half = len(shared.enumerations) // 2
    assert list(trimmed.enumerations) == list(shared.enumerations)[len(shared.enumerations) - half :]
    assert trimmed.memory == shared.memory and trimmed.fitted == shared.fitted
    assert len(trimmed.scenarios) == len(shared.scenarios) // 2
    assert list(trimmed.scenarios)[-1] == list(shared.scenarios)[-1]
    assert trimmed.size() < shared.size()
    assert _dump(recommend(profile=later, catalog=catalog, caches=trimmed)) == _dump(
        recommend(profile=later, catalog=catalog)
    )


def test_pull_frequency_variants_are_shared_only_when_no_pull_costs_egress(catalog: Catalog) -> None:
    from tools.defaults import resolve_workload

    def variant(fields: dict[str, Any], **changes: Any) -> Any:
        base = resolve_workload(profile=WorkloadProfile(**fields), catalog=catalog)
        return base, resolve_workload(
            profile=base.profile.with_values("assumed", None, **changes), catalog=catalog
        )

    local = {**PROFILES["lora 7B, budget"], "dataset_tokens": 5e7}  # data on premises (the default)
    assert sensitivity._same_costs(*variant(local, data_cached=False))
    assert sensitivity._same_costs(*variant(local, runs_per_month=20.0))
    assert not sensitivity._same_costs(*variant(local, data_location="aws"))  # egress from S3
    assert not sensitivity._same_costs(*variant(local, epochs=1.0))  # not a pull frequency
    in_s3 = PROFILES["qlora 70B, S3, deadline, budget"]  # 500 GB in S3: each pull costs egress
    assert not sensitivity._same_costs(*variant(in_s3, data_cached=False))
    stated = {**local, "runs_per_month": 4.0}  # owned hardware's use reads a stated figure
    assert not sensitivity._same_costs(*variant(stated, data_cached=False))
