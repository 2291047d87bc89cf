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
    for set_up in measure.SET_UPS:
        config = measure.hf_config(measure.catalog_entry(set_up.model), dry_run=False)
        assert config.num_hidden_layers == measure.catalog_entry(set_up.model)["n_layers"]
    names = [s.name for s in measure.SET_UPS]
    assert len(names) == len(set(names))  # each set-up is measured once


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
