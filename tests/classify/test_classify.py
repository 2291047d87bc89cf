"""Seed 000's classification test and deployment-model rule of thumb."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tools.classify import classify_workload, deployment_model
from tools.errors import InputError


def test_under_10b_tokens_and_days_is_fine_tuning_class() -> None:
    # Seed 000: "under ten billion tokens and the run completes in days rather than months".
    c = classify_workload(dataset_tokens=2e9, duration_hours=72, method="full")
    assert c.workload == "fine_tuning" and c.infrastructure_class == "fine_tuning"
    assert any("seed 000" in r for r in c.reasons)


def test_full_training_on_a_huge_corpus_is_continual_pretraining() -> None:
    # Seed 000: "a model trained further on a large vertical corpus" is the middle ground.
    c = classify_workload(dataset_tokens=50e9, duration_hours=300, method="full")
    assert c.workload == "continual_pretraining" and c.infrastructure_class == "pretraining"
    lora = classify_workload(dataset_tokens=50e9, duration_hours=300, method="lora")
    assert lora.workload == "continual_pretraining" and "adapters" in lora.reasons[0]


def test_months_long_run_needs_pretraining_class_infrastructure() -> None:
    c = classify_workload(dataset_tokens=5e9, duration_hours=24 * 45, method="full")
    assert c.workload == "fine_tuning" and c.infrastructure_class == "pretraining"


def test_from_scratch_is_pretraining_and_boundary_is_10b() -> None:
    assert (
        classify_workload(dataset_tokens=15e12, duration_hours=None, method="pretraining").workload
        == "pretraining"
    )
    assert classify_workload(
        dataset_tokens=1e9, duration_hours=None, method="full", from_scratch=True
    ).workload == ("pretraining")
    assert (
        classify_workload(dataset_tokens=9.99e9, duration_hours=None, method="full").workload == "fine_tuning"
    )
    assert classify_workload(dataset_tokens=10e9, duration_hours=None, method="full").workload == (
        "continual_pretraining"
    )
    unknown = classify_workload(dataset_tokens=None, duration_hours=None, method=None)
    assert unknown.workload == "fine_tuning" and "unknown" in unknown.reasons[0]
    assert (
        classify_workload(dataset_tokens=None, duration_hours=None, method="inference").workload
        == "inference"
    )


def test_deployment_model_thresholds() -> None:
    # Seed 000: cloud below ~30% sustained utilisation, dedicated above ~70%.
    assert deployment_model(utilization=0.2).model == "cloud"
    assert deployment_model(utilization=0.85).model == "dedicated"
    mid = deployment_model(utilization=0.5)
    assert mid.model == "depends" and len(mid.depends_on) == 4 and mid.leaning is None
    assert any(a.name == "cloud_max_utilization" and a.value == 0.30 for a in mid.assumptions)


def test_depends_leans_by_the_facts_given() -> None:
    by_price = deployment_model(utilization=0.5, break_even_utilization=0.4, job_hours=4, intermittent=True)
    assert by_price.leaning == "dedicated"  # the price comparison wins over the qualitative rules
    assert deployment_model(utilization=0.5, break_even_utilization=0.66).leaning == "cloud"
    assert deployment_model(utilization=0.5, horizon_months=24).leaning == "dedicated"
    assert deployment_model(utilization=0.5, ops_capacity="none", job_hours=6).leaning == "cloud"
    no_ops = deployment_model(utilization=0.9, ops_capacity="none")
    assert no_ops.options[0] == "reserved cloud capacity"


@pytest.mark.parametrize("bad", [-0.1, 1.2, float("nan")])
def test_bad_utilization(bad: float) -> None:
    with pytest.raises(InputError):
        deployment_model(utilization=bad)


def test_bad_tokens() -> None:
    with pytest.raises(InputError):
        classify_workload(dataset_tokens=-5, duration_hours=None, method="full")
    with pytest.raises(InputError):
        classify_workload(dataset_tokens=5, duration_hours=None, method="dpo")


@given(u=st.floats(0, 1))
def test_deployment_model_total(u: float) -> None:
    d = deployment_model(utilization=u)
    assert d.model == ("cloud" if u < 0.3 else "dedicated" if u > 0.7 else "depends")
    assert d.options and d.trace
