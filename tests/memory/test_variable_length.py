"""variable_length (tools.memory_phases.variable_length_reserve): batches padded to their longest sequence
leave the caching allocator holding earlier, shorter batches' logits segments. Only the reserved basis
changes, by VARIABLE_LENGTH_STALE_LOGITS x the loss-backward logits bytes; tensors do not."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tools.catalog.load import Catalog
from tools.memory import estimate_memory
from tools.memory_activations import FINAL_NORM_BYTES_PER_H, LOGITS_BYTES_PER_VALUE
from tools.memory_phases import VARIABLE_LENGTH_STALE_LOGITS


def _base(catalog: Catalog, **kw: object) -> dict[str, object]:
    base: dict[str, object] = dict(
        arch=catalog.model("llama-2-7b"), method="lora", seq_len=2048, batch_size=1, grad_checkpointing=True,
        lora_dropout=0.0,
    )  # fmt: skip
    base.update(kw)
    return base


def test_reserved_basis_grows_by_the_stale_logits_segments(catalog: Catalog) -> None:
    fixed = estimate_memory(**_base(catalog))  # type: ignore[arg-type]
    varied = estimate_memory(variable_length=True, **_base(catalog))  # type: ignore[arg-type]
    assert varied.peak_allocated_gib() == pytest.approx(fixed.peak_allocated_gib())
    logits_bytes = 2048 * (32000 * LOGITS_BYTES_PER_VALUE + 4096 * FINAL_NORM_BYTES_PER_H)  # + final norm
    grown_bytes = (varied.peak_without_context_gib() - fixed.peak_without_context_gib()) * 2**30
    assert grown_bytes == pytest.approx(VARIABLE_LENGTH_STALE_LOGITS * logits_bytes, rel=0.02)
    assert any(s.step == "variable_length_logits_reserve" for s in varied.trace)


def test_allocated_basis_and_inference_are_unchanged(catalog: Catalog) -> None:
    a = estimate_memory(memory_basis="allocated", **_base(catalog))  # type: ignore[arg-type]
    b = estimate_memory(memory_basis="allocated", variable_length=True, **_base(catalog))  # type: ignore[arg-type]
    assert a.peak_gib_per_gpu == b.peak_gib_per_gpu
    arch = catalog.model("llama-2-7b")
    c = estimate_memory(arch=arch, method="inference", seq_len=2048)
    d = estimate_memory(arch=arch, method="inference", seq_len=2048, variable_length=True)
    assert c.peak_gib_per_gpu == d.peak_gib_per_gpu


def test_the_flag_reaches_the_estimate_from_the_cli_and_the_api() -> None:
    """--variable-length (SizingRequest.variable_length) is a user option like the issue's others: the CLI
    and advisor.api.size pass it to the calculator, and the JSON echoes it in `inputs`."""
    from typer.testing import CliRunner

    import advisor.cli.size  # noqa: F401  (registers the command)
    from advisor.api import size
    from advisor.cli.app import app

    kw: dict[str, Any] = dict(model="llama-2-7b", method="lora", seq_len=2048, lora_dropout=0.0)
    fixed, varied = size(**kw), size(variable_length=True, **kw)
    assert varied["inputs"]["variable_length"] is True and fixed["inputs"]["variable_length"] is False
    assert varied["peak_gib_per_gpu"] > fixed["peak_gib_per_gpu"]
    assert varied["peak_allocated_gib"] == pytest.approx(fixed["peak_allocated_gib"])
    args = ["size", "--model", "llama-2-7b", "--method", "lora", "--seq-len", "2048", "--format", "json"]
    out = CliRunner().invoke(app, [*args, "--variable-length"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["peak_gib_per_gpu"] == pytest.approx(
        size(variable_length=True, model="llama-2-7b", method="lora", seq_len=2048)["peak_gib_per_gpu"]
    )
