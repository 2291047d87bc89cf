"""bench/device_training_measure.py runs on the lent GPU machine; here its code path runs on the CPU with
tiny shapes (--dry-run), so a broken set-up, config builder or output line is found before device time
is spent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("peft")

from bench import device_training_measure as measure  # noqa: E402


def test_every_set_up_names_a_catalog_architecture_the_script_can_build() -> None:
    for set_ups in measure.SETS.values():
        for set_up in set_ups:
            config = measure.hf_config(measure.catalog_entry(set_up.model), dry_run=False)
            assert config.num_hidden_layers == measure.catalog_entry(set_up.model)["n_layers"]
        names = [s.name for s in set_ups]
        assert len(names) == len(set(names))  # each set-up of a set is measured once


@pytest.mark.parametrize(
    "only",
    [
        "llama-3.2-1b-full-pure-bf16-foreach",
        "llama-3.1-8b-lora-pure-bf16-fused-nockpt-s2048-b2-r16-all-linear-d0.05",
    ],
)
def test_dry_run_writes_one_line_per_set_up_with_step_times(tmp_path: Path, only: str) -> None:
    assert measure.main(["--dry-run", "--out", str(tmp_path), "--only", only]) == 0
    lines = [json.loads(line) for line in (tmp_path / "device_training.jsonl").read_text().splitlines()]
    header, results = lines[0], lines[1:]
    assert "torch" in header["environment"]
    assert len(results) == 1 and results[0]["status"] == "ok", results
    row = results[0]
    assert set(row["phase_peak_allocated_gib"]) == {"forward_loss", "backward", "optimizer_step"}
    assert len(row["step_s"]) == measure.TIMED_STEPS and row["tokens_per_s"] > 0
    if row["set_up"]["method"] == "lora":  # the adapters alone train
        assert 0 < row["trainable_params"] < row["params"]
    else:
        assert row["trainable_params"] == row["params"]


def test_a_run_becomes_rows_the_benches_own_loaders_read(tmp_path: Path) -> None:
    """bench/device_rows.py on a dry run given the figures a GPU run prints (the dry run has no CUDA)."""
    from bench import device_rows
    from bench.calibration_data import load_training_rows
    from bench.memory_fresh_data import load_memory_fresh_rows

    only = "llama-3.1-8b-lora-pure-bf16-fused-ckpt-s8192"
    assert measure.main(["--dry-run", "--out", str(tmp_path), "--only", only]) == 0
    path = tmp_path / "device_training.jsonl"
    header, *results = [json.loads(line) for line in path.read_text().splitlines()]
    header["environment"]["gpu"], header["context_gib"] = "NVIDIA H200", 0.5
    phases = {"forward_loss": 20.0, "backward": 24.0, "optimizer_step": 16.5}
    results[0].update(peak_allocated_gib=24.0, peak_reserved_gib=27.0, phase_peak_allocated_gib=phases)
    oom = dict(results[0], name="too-big", status="oom", error="CUDA out of memory")
    path.write_text("\n".join(json.dumps(x) for x in [header, results[0], oom]) + "\n")

    memory_path, time_path = tmp_path / "memory.yaml", tmp_path / "time.yaml"
    args = [str(path), "--date", "2026-11-27", "--memory", str(memory_path), "--time", str(time_path)]
    assert device_rows.main(args) == 0
    memory = load_memory_fresh_rows(memory_path)
    assert [(r.measured.basis, r.measured.value) for r in memory] == [
        ("allocated", 24.0),
        ("reserved", 27.0),
        ("device", 27.5),
    ]  # device = reserved + context
    assert memory[0].lora_targets == "all-linear" and memory[0].grad_checkpointing is True
    assert "peak phase backward" in str(memory[0].notes)
    (timing,) = load_training_rows(time_path)
    assert timing.gpu == "h200" and timing.seq_len == 8192
    assert timing.tokens_per_s_per_gpu == round(results[0]["tokens_per_s"], 1)
