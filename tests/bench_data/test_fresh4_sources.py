"""Fresh-4 development rows mapped from their sources' code (bench.memory_fresh_stacks and
bench.memory_fresh_archs): the LLMs-from-scratch GPTModel shape and 16-bit loss, llama-recipes' mid-2023 loop,
attention and use_cache."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench import accuracy_fresh_memory as fresh

FRESH4 = Path(__file__).resolve().parents[2] / "bench" / "data" / "memory_measurements_fresh4.yaml"


@pytest.fixture(scope="module")
def rows() -> dict[str, dict[str, Any]]:
    return {str(r["id"]): r for r in fresh.load_rows(FRESH4)}


def test_rasbt_rows_use_the_books_gpt_shape_and_a_16_bit_loss(rows: dict[str, dict[str, Any]]) -> None:
    m = fresh.map_row(rows["rasbt-gpt2-163m-a100-step5"], include_ambiguous=True)
    shape = (m.arch.n_layers, m.arch.hidden_size, m.arch.vocab_size, m.arch.mlp_gated)
    assert shape == (12, 768, 50257, False)
    # 163.0M as the collector counted it (row's `ambiguous`), within the position embedding's 0.8M
    assert m.arch.param_count() == pytest.approx(0.163e9, rel=0.01)
    assert m.inputs["loss_upcast"] is False and m.inputs["model_code"] == "plain"
    padded = fresh.map_row(rows["rasbt-gpt2-163m-a100-step9"], include_ambiguous=True)
    assert padded.arch.vocab_size == 50304


def test_llama_recipes_loop_held_only_where_pr41_says(rows: dict[str, dict[str, Any]]) -> None:
    held = fresh.map_row(rows["llama-recipes-pr41-7b-lora-4xa100-rate-limiter-on-allocated"], True)
    final = fresh.map_row(rows["llama-recipes-pr41-7b-lora-4xa100-final-allocated"], True)
    issue = fresh.map_row(rows["llama-recipes-issue100-7b-full-4xa100-fsdp"], True)
    flash = fresh.map_row(rows["llama-recipes-issue100-7b-full-4xa100-fsdp-pr97-flash"], True)
    assert held.inputs.get("logits_held") is True
    assert not final.inputs.get("logits_held") and not issue.inputs.get("logits_held")
    for m in (held, final, issue):
        assert m.inputs["returns_kv_cache"] is True and m.inputs["flash_attention"] is False
        assert m.inputs["loss_impl"] == "shift-logits" and m.inputs["optimizer_impl"] == "foreach"
    assert flash.inputs["flash_attention"] is True  # the row's own value wins


def test_final_pr41_run_within_10_percent(rows: dict[str, dict[str, Any]]) -> None:
    # PR #41's final run: 15.22 GB peak active (allocated basis); the mapping above puts it within 10%
    m = fresh.map_row(rows["llama-recipes-pr41-7b-lora-4xa100-final-allocated"], True)
    assert fresh.estimate_gib(m) / m.measured_gib - 1 == pytest.approx(0.0, abs=0.10)


def test_rasbt_sdpa_rows_within_10_percent(rows: dict[str, dict[str, Any]]) -> None:
    # README steps 7-10 and the DDP run (SDPA, reserved basis): each within 10% after the source mapping
    for rid in ("step7", "step8", "step9", "step10", "stepddp4"):
        m = fresh.map_row(rows[f"rasbt-gpt2-163m-a100-{rid}"], include_ambiguous=True)
        assert abs(fresh.estimate_gib(m) / m.measured_gib - 1) <= 0.10, rid


def test_megatron_bridge_rows_take_the_perf_recipes_precision_and_the_loggers_basis(
    rows: dict[str, dict[str, Any]],
) -> None:
    # scripts/performance llama3_70b_h100_sft_config: bf16 grad buffer, FP8-CS with fp8_param_gather; the
    # bridge's report_memory prints mem-max-allocated-gigabytes (allocated, 1e9 B)
    m = fresh.map_row(rows["mbridge-llama3-70b-sft-fp8-32xh100-tp4-pp8-vpp5"], include_ambiguous=True)
    assert m.basis == "allocated" and m.measured_gib == pytest.approx(53.2e9 / 2**30)
    assert (m.inputs["fp8_linears"], m.inputs["fp8_params"], m.inputs["grad_reduce_in_fp32"]) == (
        True, True, False,
    )  # fmt: skip
    stack = fresh._SOURCE_STACKS["megatron-bridge-skill-docs-llama3-70b"]
    assert not fresh.recipe_options(stack, "lora", "bf16")  # a precision recipe is for full training only
