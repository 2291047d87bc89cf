"""model_code (tools.memory_model_code): 'plain' drops transformers' per-layer extras
(tools.memory_activations.LAYER_EXTRA_H_BYTES), 'hf' keeps them, None takes the framework preset's."""

from __future__ import annotations

import pytest

from tools.catalog.load import Catalog
from tools.errors import InputError
from tools.memory import estimate_memory
from tools.memory_activations import LAYER_EXTRA_H_BYTES


def _forward_gib(catalog: Catalog, **kw: object) -> float:
    est = estimate_memory(
        arch=catalog.model("llama-2-7b"), method="full", seq_len=1024, batch_size=2, grad_checkpointing=False,
        training_precision="pure-bf16", memory_basis="allocated", **kw,  # type: ignore[arg-type]
    )  # fmt: skip
    return est.phase_peaks_gib["forward"]  # every layer's kept activations are live at the forward's end


def test_plain_model_code_drops_the_hf_extras(catalog: Catalog) -> None:
    arch = catalog.model("llama-2-7b")
    hf, plain = _forward_gib(catalog), _forward_gib(catalog, model_code="plain")
    extras_gib = LAYER_EXTRA_H_BYTES[("full", "16-bit")] * arch.hidden_size * 2048 * arch.n_layers / 2**30
    assert hf - plain == pytest.approx(extras_gib, rel=0.01)
    assert _forward_gib(catalog, model_code="hf") == pytest.approx(hf)


def test_megatron_preset_keeps_no_extras_and_hf_code_restores_them(catalog: Catalog) -> None:
    meg = _forward_gib(catalog, framework="megatron", loss_impl="shift-labels")
    meg_hf = _forward_gib(catalog, framework="megatron", loss_impl="shift-labels", model_code="hf")
    assert meg_hf > meg


def test_unknown_model_code_is_refused(catalog: Catalog) -> None:
    with pytest.raises(InputError):
        _forward_gib(catalog, model_code="jax")
