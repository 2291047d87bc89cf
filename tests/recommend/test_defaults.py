"""Unknown profile fields become named defaults, each marked assumed with its source."""

from __future__ import annotations

import pytest

from tools.catalog.load import Catalog
from tools.defaults import BYTES_PER_TOKEN, CHINCHILLA_TOKENS_PER_PARAM, resolve_workload
from tools.errors import InputError
from tools.profile import Provenance, WorkloadProfile


def test_defaults_are_marked_assumed_and_listed(catalog: Catalog) -> None:
    w = resolve_workload(profile=WorkloadProfile(model_id="llama-3-8b"), catalog=catalog)
    p = w.profile
    assert p.workload == "fine_tuning" and p.method == "lora" and p.precision == "bf16"
    for field in ("workload", "method", "precision", "seq_len", "epochs", "dataset_tokens", "objective"):
        assert p.status_of(field) == "assumed", field
        assert any(a.name.startswith(field) for a in w.assumptions), field
    assert p.status_of("model_id") is None  # the user's own value keeps its provenance


def test_stated_values_are_kept(catalog: Catalog) -> None:
    profile = WorkloadProfile(
        model_id="llama-3-8b",
        method="qlora",
        epochs=3,
        provenance={
            "method": Provenance(status="stated", evidence="QLoRA"),
            "epochs": Provenance(status="stated"),
        },
    )
    p = resolve_workload(profile=profile, catalog=catalog).profile
    assert p.method == "qlora" and p.precision == "nf4" and p.epochs == 3
    assert p.status_of("method") == "stated" and p.status_of("precision") == "assumed"


def test_dataset_tokens_from_dataset_size(catalog: Catalog) -> None:
    p = resolve_workload(
        profile=WorkloadProfile(model_id="llama-3-8b", dataset_gb=40), catalog=catalog
    ).profile
    assert p.dataset_tokens == pytest.approx(40e9 / BYTES_PER_TOKEN)


def test_pretraining_defaults_to_chinchilla_tokens(catalog: Catalog) -> None:
    w = resolve_workload(profile=WorkloadProfile(params_b=1.0, workload="pretraining"), catalog=catalog)
    assert w.profile.method == "full"
    assert w.profile.dataset_tokens == pytest.approx(CHINCHILLA_TOKENS_PER_PARAM * 1e9)
    assert w.params_for_flops == pytest.approx(1e9)


def test_inference_hint_selects_inference(catalog: Catalog) -> None:
    w = resolve_workload(profile=WorkloadProfile(model_id="llama-3-8b", concurrency=32), catalog=catalog)
    assert w.profile.workload == "inference" and w.profile.context_len is not None
    assert w.training_tokens == 0


def test_no_model_is_an_input_error(catalog: Catalog) -> None:
    with pytest.raises(InputError, match="model"):
        resolve_workload(profile=WorkloadProfile(method="lora"), catalog=catalog)
