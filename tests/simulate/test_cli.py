"""`gpu-advisor size --simulate` on a tiny config.json: the JSON carries the simulation beside the
analytic estimate; settings the simulator cannot run exit 2 with a one-line message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from advisor.cli import main  # noqa: E402

TINY_CONFIG = {
    "architectures": ["LlamaForCausalLM"],
    "model_type": "llama",
    "hidden_size": 256,
    "intermediate_size": 512,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "vocab_size": 1000,
    "max_position_embeddings": 2048,
    "tie_word_embeddings": False,
}


@pytest.fixture()
def tiny_config(tmp_path: Path) -> Path:
    path = tmp_path / "config.json"
    path.write_text(json.dumps(TINY_CONFIG))
    return path


def test_size_json_has_the_simulation_beside_the_estimate(
    tiny_config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["size", "--config", str(tiny_config), "--method", "lora", "--seq-len", "128", "--format", "json"]
    assert main([*args, "--simulate"]) == 0
    out = json.loads(capsys.readouterr().out)
    sim = out["simulation"]
    assert sim["analytic_peak_gib_per_gpu"] == out["peak_gib_per_gpu"]
    assert sim["total_gib"] > sim["peak_allocated_gib"] > 0
    assert sim["difference_gib"] == pytest.approx(out["peak_gib_per_gpu"] - sim["total_gib"])
    assert {line["name"] for line in sim["cuda_lines"]} >= {"CUDA context", "cuBLAS/cuBLASLt workspaces"}


def test_size_table_prints_both_columns(tiny_config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["size", "--config", str(tiny_config), "--seq-len", "128", "--simulate"]) == 0
    out = capsys.readouterr().out
    assert "simulated" in out and "analytic" in out and "difference (analytic - simulated)" in out


@pytest.mark.parametrize(
    "extra", [["--gpus", "2"], ["--method", "qlora"], ["--chunked-loss"], ["--method", "inference"]]
)
def test_unsimulable_settings_exit_2(
    tiny_config: Path, capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    assert main(["size", "--config", str(tiny_config), "--simulate", *extra]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:")


def test_api_size_with_simulate_equals_the_cli_json(
    tiny_config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from advisor.api import size

    args = ["size", "--config", str(tiny_config), "--method", "lora", "--seq-len", "128", "--format", "json"]
    assert main([*args, "--simulate"]) == 0
    cli = json.loads(capsys.readouterr().out)
    api = json.loads(
        json.dumps(size(config=tiny_config, method="lora", seq_len=128, simulate=True), default=str)
    )
    assert api["simulation"]["peak_tensor_gib"] == cli["simulation"]["peak_tensor_gib"]
    assert api["peak_gib_per_gpu"] == cli["peak_gib_per_gpu"]
