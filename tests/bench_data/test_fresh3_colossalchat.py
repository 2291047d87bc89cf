"""Fresh-3's ColossalChat rows as the primary sources set them (branch mem9): the colossalai engine is scored
with the deepspeed preset (16-bit module, fp32 master in the ZeRO optimizer), preference stages are training
objectives, and the family's stack (transformers 4.34.1 shift-logits, logits held) applies."""

from __future__ import annotations

from typing import Any

import bench.accuracy_fresh_memory as fresh
from bench.memory_fresh_data import DATA_DIR, load_memory_fresh_rows

FRESH3 = DATA_DIR / "memory_measurements_fresh3.yaml"


def _colossal_rows() -> list[dict[str, Any]]:
    rows = [fresh._as_dict(r) for r in load_memory_fresh_rows(FRESH3)]
    return [r for r in rows if r["family"] == "colossalchat-hardware-requirements"]


def test_rows_carry_the_source_findings() -> None:
    rows = _colossal_rows()
    assert len(rows) == 24
    assert all(r["model"]["hf_id"] == "meta-llama/Llama-2-7b-hf" for r in rows)
    assert all(r["framework"] == "colossalai" for r in rows)
    stages = {r["id"].split("-")[1]: r["training_objective"] for r in rows}
    assert stages == {"sft": "sft", "dpo": "dpo", "simpo": "simpo", "orpo": "orpo", "kto": "kto"}
    assert all(r["grad_checkpointing"] is True and "Findings (branch mem9" in r["notes"] for r in rows)


def test_a_dpo_row_maps_to_the_zero_engine_with_its_objective_and_stack() -> None:
    row = next(r for r in _colossal_rows() if r["id"] == "colossalchat-dpo-7b-4xh800-zero2-mbs4")
    m = fresh.map_row(row, include_ambiguous=True)
    assert m.inputs["framework"] == "deepspeed"
    assert m.inputs["training_objective"] == "dpo"
    assert m.inputs["loss_impl"] == "shift-logits" and m.inputs["logits_held"] is True
    assert m.arch.vocab_size == 32000 and m.basis == "allocated"


def test_family_scores_within_the_issue_targets_median() -> None:
    # branch mem9 figures: median 3.3%, worst +31.2% (the 4-GPU zero2_cpu SFT row, bench/data/README.md);
    # the guard is the issue's median target (10%) and a worst bound 10 points above today's
    result = fresh.score(_colossal_rows(), include_ambiguous=True)
    summary = result.summary()
    assert summary is not None and len(result.scored) == 24
    median, worst = summary
    assert median <= 0.10
    assert worst <= 0.312 + 0.10
