"""bench/accuracy_fresh_memory.py on a SYNTHETIC fixture (tests/fixtures/memory_fresh/): the real fresh
set is held out and never read by tests."""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any

import pytest

import bench.accuracy_fresh_memory as fresh
from tools.memory import estimate_memory
from tools.units import gb_to_gib

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "memory_fresh" / "synthetic_rows.yaml"


@pytest.fixture(scope="module")
def rows() -> dict[str, dict[str, Any]]:
    return {r["id"]: r for r in fresh.load_rows(FIXTURE)}


def test_a_row_maps_to_calculator_inputs(rows: dict[str, dict[str, Any]]) -> None:
    m = fresh.map_row(rows["synth-llama31-8b-lora-hf"])
    assert m.arch.id == "llama-3.1-8b"  # catalog by hf_id
    assert m.inputs["method"] == "lora" and m.inputs["optimizer"] == "adamw"
    assert m.inputs["optimizer_impl"] == "fused"  # the word says fused
    assert m.inputs["lora_targets"] == ["q_proj", "k_proj", "v_proj", "o_proj"]
    assert (m.inputs["seq_len"], m.inputs["batch_size"], m.inputs["lora_dropout"]) == (2048, 2, 0.05)
    assert m.basis == "device" and m.measured_gib == pytest.approx(gb_to_gib(21.5))
    assert "optimizer 'adamw_torch_fused' -> adamw" in m.notes
    # device basis = what nvidia-smi shows: the reserved figure with the CUDA context
    est = estimate_memory(arch=m.arch, **m.inputs)
    assert fresh.estimate_gib(m) == pytest.approx(est.peak_reserved_gib())


def test_a_row_without_sequence_length_is_skipped_with_its_reason(rows: dict[str, dict[str, Any]]) -> None:
    with pytest.raises(fresh.Skip, match="no sequence length"):
        fresh.map_row(rows["synth-no-seq-len"])
    result = fresh.score(list(rows.values()))
    skipped = dict(result.skipped)
    assert skipped["synth-no-seq-len"] == "no sequence length"
    assert skipped["synth-ambiguous"].startswith("ambiguous: batch size")
    assert "no single default" in skipped["synth-megatron-unstated-ckpt"]


def test_units_convert_through_tools_units() -> None:
    assert fresh.to_gib(16384, "MiB") == pytest.approx(16.0)
    assert fresh.to_gib(1.5, "GiB") == 1.5
    assert fresh.to_gib(80, "GB") == pytest.approx(80e9 / 2**30)
    assert fresh.to_gib(9000, "MB") == pytest.approx(9e9 / 2**30)
    with pytest.raises(fresh.Skip, match="unknown unit"):
        fresh.to_gib(1, "TB")


def test_total_figures_split_per_gpu_and_unknown_words_are_mapped(rows: dict[str, dict[str, Any]]) -> None:
    m = fresh.map_row(rows["synth-mib-allocated-lion"])
    assert m.measured_gib == pytest.approx(120.0 / 4)  # 122880 MiB over 4 GPUs, per_gpu false
    assert m.inputs["optimizer"] == "sgd" and "optimizer 'Lion' -> sgd" in m.notes  # one momentum state
    assert m.arch.family == "synthetic"  # not in the catalog: a shape from params_b
    assert fresh.estimate_gib(m) > 0


def test_ambiguous_rows_score_on_request(rows: dict[str, dict[str, Any]]) -> None:
    m = fresh.map_row(rows["synth-ambiguous"], include_ambiguous=True)
    assert (m.inputs["method"], m.inputs["precision"]) == ("qlora", "nf4")
    assert m.inputs["optimizer"] == "paged-adamw-8bit"
    assert m.inputs["grad_checkpointing"] is True and m.measured_gib == pytest.approx(9e9 / 2**30)


def test_optimizer_words() -> None:
    notes: list[str] = []
    assert fresh.map_optimizer("paged_adamw_32bit", notes) == "adamw"
    assert fresh.map_optimizer("adamw_bnb_8bit", notes) == "adamw-8bit"
    assert fresh.map_optimizer("Adafactor", notes) == "adafactor"
    assert fresh.map_optimizer("adamw-8bit", notes) == "adamw-8bit"  # a vocabulary name: no note
    assert fresh.map_optimizer("shampoo", notes) in fresh.OPTIMIZERS and "(nearest name)" in notes[-1]


def test_report_names_the_targets(rows: dict[str, dict[str, Any]]) -> None:
    text = fresh.report(fresh.score(list(rows.values())))
    assert "2 rows scored, 3 skipped" in text
    assert "(target <= 10%)" in text and "(target <= 20%)" in text
    assert "synth-no-seq-len: no sequence length" in text


def test_parser_is_tolerant() -> None:
    assert fresh.parse_rows("- {id: a}\n- 3\n") == [{"id": "a"}, {}]
    assert fresh.parse_rows("split: {}\nrows: []\n") == []
    assert fresh.score([{}]).skipped == [("?", "no measured value")]


def test_the_sets_own_loader_is_used_when_present(monkeypatch: pytest.MonkeyPatch) -> None:
    class Row:
        def model_dump(self) -> dict[str, Any]:
            return {"id": "from-loader"}

    module = types.ModuleType("bench.memory_fresh_data")
    module.load_memory_fresh_rows = lambda: [Row()]  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bench.memory_fresh_data", module)
    assert fresh.load_rows() == [{"id": "from-loader"}]


def test_without_the_loader_the_default_file_is_parsed_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "bench.memory_fresh_data", None)  # import fails
    monkeypatch.setattr(fresh, "FRESH_FILE", FIXTURE)
    assert len(fresh.load_rows()) == 5


def test_cli_on_a_file_and_without_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert fresh.main(["--file", str(FIXTURE)]) == 0
    assert "median |error|" in capsys.readouterr().out
    assert fresh.main(["--file", str(tmp_path / "absent.yaml")]) == 2
    assert "no measurements file" in capsys.readouterr().out
    monkeypatch.setitem(sys.modules, "bench.memory_fresh_data", None)
    monkeypatch.setattr(fresh, "FRESH_FILE", tmp_path / "absent.yaml")
    assert fresh.main([]) == 0  # `make bench` on a branch without the set


def test_source_spellings_are_normalised(rows: dict[str, dict[str, Any]]) -> None:
    row = dict(rows["synth-llama31-8b-lora-hf"], framework="LLaMA-Factory", sharding="ZeRO-3", gpus=2)
    row.update(flash_attention="eager", lora_targets="attention", use_liger_kernel=True)
    m = fresh.map_row(row)
    assert (m.inputs["framework"], m.inputs["sharding"]) == ("llama-factory", "zero3")
    assert m.inputs["flash_attention"] is False and m.inputs["lora_targets"] == "attention"
    # Liger's fused linear cross-entropy: no logits tensor (tools.memory_fused_loss)
    assert m.inputs["loss_chunking"] is False and m.inputs["loss_impl"] == "fused-linear"
    assert "framework 'LLaMA-Factory' -> llama-factory" in m.notes
    glm = dict(row, model={"name": "GLM-4-9B-Chat", "hf_id": "THUDM/glm-4-9b-chat", "params_b": 9.4})
    glm.update(use_liger_kernel=False, lora_targets=["query_key_value", "dense"])
    g = fresh.map_row(glm)
    assert g.arch.id == "glm-4-9b" and g.inputs["loss_impl"] == "shift-logits-downcast"
    assert g.inputs["lora_targets"] == ["q_proj", "k_proj", "v_proj", "o_proj"]
    with pytest.raises(fresh.Skip, match="unknown sharding"):
        fresh.map_row(dict(row, sharding="pipeline-magic"))
