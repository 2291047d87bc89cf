"""FSDP1's all-gather rate limiter (tools.memory_fsdp): off, every decoder unit of the stage may be gathered
at once (the CPU thread runs ahead); on (torch's default) the two-unit prefetch stays; ZeRO-3 ignores it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from advisor.api import size
from advisor.cli import main
from tools.catalog.load import Catalog
from tools.memory import estimate_memory
from tools.memory_arch import largest_layer_params
from tools.memory_states import GATHERED_UNITS_IN_FLIGHT


def _peak(catalog: Catalog, **kw: Any) -> float:
    # llama-recipes PR #41's run: Llama-2-7B LoRA r8 q/v, pure bf16, 4 x 2048 tokens, FSDP on 4 GPUs
    base: dict[str, Any] = dict(
        arch=catalog.model("llama-2-7b"), method="lora", seq_len=2048, batch_size=4, grad_checkpointing=True,
        training_precision="pure-bf16", memory_basis="allocated", gpus=4, sharding="fsdp",
    )  # fmt: skip
    base.update(kw)
    return float(estimate_memory(**base).peak_allocated_gib())


def test_limiter_off_gathers_every_unit_of_the_stage(catalog: Catalog) -> None:
    arch = catalog.model("llama-2-7b")
    unit_gib = largest_layer_params(arch) * 2.0 / 2**30  # one decoder layer's bf16 weights
    extra_gib = _peak(catalog, fsdp_limit_all_gathers=False) - _peak(catalog)
    assert extra_gib == pytest.approx((arch.n_layers - GATHERED_UNITS_IN_FLIGHT) * unit_gib, rel=1e-6)
    # under pipeline parallelism only the stage's units: half the layers at pp=2
    staged = _peak(catalog, fsdp_limit_all_gathers=False, gpus=8, pp=2) - _peak(catalog, gpus=8, pp=2)
    assert staged == pytest.approx((arch.n_layers // 2 - GATHERED_UNITS_IN_FLIGHT) * unit_gib, rel=1e-6)


def test_default_is_torchs_limiter_on_and_zero3_ignores_it(catalog: Catalog) -> None:
    assert _peak(catalog, fsdp_limit_all_gathers=True) == _peak(catalog)
    assert _peak(catalog, sharding="zero3", fsdp_limit_all_gathers=False) == _peak(catalog, sharding="zero3")


def test_pr41_rate_limiter_off_row_is_within_20_percent(catalog: Catalog) -> None:
    # llama-recipes PR #41 (2023-07-25): 'With limit_all_gathers=False', peak active 25.86 GB (1e9 B);
    # the bound (all 32 units) over-counts the ~14 the run held: +14% measured here, the 20% limit
    measured_gib = 25.86e9 / 2**30
    est_gib = _peak(catalog, fsdp_limit_all_gathers=False, returns_kv_cache=True, logits_held=True,
                    optimizer_impl="foreach", flash_attention=False, loss_impl="shift-logits",
                    lora_dropout=0.05)  # fmt: skip
    assert abs(est_gib / measured_gib - 1) <= 0.20, est_gib


def test_the_flag_reaches_the_estimate_and_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["size", "--model", "llama-2-7b", "--method", "lora", "--gpus", "4", "--sharding", "fsdp"]
    assert main([*args, "--no-fsdp-limit-all-gathers", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["memory_options"]["fsdp_limit_all_gathers"] == {"value": False, "source": "flag"}
    on = size(model="llama-2-7b", method="lora", gpus=4, sharding="fsdp")
    assert out["peak_gib_per_gpu"] > on["peak_gib_per_gpu"]
    assert on["memory_options"]["fsdp_limit_all_gathers"] == {"value": True, "source": "framework preset"}
