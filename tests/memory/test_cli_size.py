"""`gpu-advisor size` and advisor.api.size(): JSON contract, table, and one-line errors (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.api import size
from advisor.cli import main
from tools.errors import InputError

BREAKDOWN_KEYS = {"weights", "gradients", "optimizer", "activations", "kv_cache", "adapters", "overhead"}


def test_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["size", "--model", "llama-3-70b", "--method", "qlora", "--optimizer", "paged-adamw-8bit",
               "--gpu", "h100-sxm", "--format", "json"])  # fmt: skip
    out = capsys.readouterr().out
    assert rc == 0
    data = json.loads(out)
    assert isinstance(data["peak_gib_per_gpu"], float)
    assert data["total_gib"] == pytest.approx(data["peak_gib_per_gpu"])
    assert set(data["breakdown_gib"]) == BREAKDOWN_KEYS
    assert sum(data["breakdown_gib"].values()) == pytest.approx(data["peak_gib_per_gpu"])
    assert data["assumptions"] and {"name", "value", "unit", "source"} <= set(data["assumptions"][0])
    assert all({"step", "formula", "inputs", "output"} <= set(s) for s in data["trace"])
    assert data["fit"]["fits"] is True and data["fit"]["gpu"] == "h100-sxm"


def test_api_matches_cli(capsys: pytest.CaptureFixture[str]) -> None:
    flags = ["size", "--params-b", "13", "--method", "lora", "--lora-rank", "32", "--lora-targets",
             "attention", "--seq-len", "4096", "--batch-size", "2", "--no-grad-checkpointing",
             "--format", "json"]  # fmt: skip
    assert main(flags) == 0
    cli = json.loads(capsys.readouterr().out)
    api = size(params_b=13, method="lora", lora_rank=32, lora_targets="attention", seq_len=4096, batch_size=2,
               grad_checkpointing=False)  # fmt: skip
    assert cli["peak_gib_per_gpu"] == pytest.approx(api["peak_gib_per_gpu"])
    assert cli["breakdown_gib"] == pytest.approx(api["breakdown_gib"])
    assert api["model"]["synthetic"] is True
    assert api["inputs"]["grad_checkpointing"] is False


def test_every_design_flag_is_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["size", "--model", "llama-3.1-8b", "--method", "full", "--precision", "bf16",
               "--training-precision", "pure-bf16", "--optimizer", "adamw-8bit", "--lora-rank", "8",
               "--lora-targets", "q_proj,v_proj", "--seq-len", "1024", "--batch-size", "4",
               "--grad-checkpointing", "--flash-attention", "--gpus", "8", "--sharding", "zero2", "--tp", "2",
               "--pp", "2", "--offload", "optimizer", "--concurrency", "1", "--context-len", "1024",
               "--format", "json"])  # fmt: skip
    assert rc == 0
    data = json.loads(capsys.readouterr().out)
    assert data["inputs"]["dp"] == 2 and data["breakdown_gib"]["optimizer"] == 0


def test_table_output(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["size", "--model", "llama-3-70b", "--method", "inference", "--concurrency", "10",
               "--context-len", "8192", "--gpus", "4", "--tp", "4", "--gpu", "h100-sxm"])  # fmt: skip
    out = capsys.readouterr().out
    assert rc == 0
    for text in ("peak per GPU", "kv cache", "Assumptions", "fits", "H100"):
        assert text in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--model", "llama-3-7b"], "closest"),
        (["--params-b", "7", "--seq-len", "-5"], "seq-len must be"),
        (["--params-b", "7", "--batch-size", "0"], "batch-size must be"),
        (["--params-b", "7", "--gpus", "0"], "gpus must be"),
        (["--params-b", "7", "--method", "lora", "--lora-rank", "99999"], "hidden size"),
        (["--params-b", "70", "--gpus", "6", "--tp", "4"], "must divide"),
        (["--params-b", "7", "--method", "wizardry"], "unknown method"),
        (["--params-b", "7", "--format", "xml"], "--format"),
        ([], "say which model"),
        (["--params-b", "7", "--model", "llama-3-70b"], "only one of"),
        (["--params-b", "-1"], "--params-b"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rc = main(["size", *argv])
    err = capsys.readouterr().err
    assert rc == 2
    assert message in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_unsupported_config_json_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "config.json"
    cfg.write_text(
        json.dumps({"architectures": ["T5ForConditionalGeneration"], "model_type": "t5", "d_model": 512})
    )
    rc = main(["size", "--config", str(cfg)])
    err = capsys.readouterr().err
    assert rc == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_api_raises_input_error() -> None:
    with pytest.raises(InputError, match="closest"):
        size(model="no-such-model-xyz")
    with pytest.raises(ValueError):  # InputError is a ValueError (design.md)
        size(model="llama-3-8b", tp=3, gpus=3)  # 32 heads: tp 3 does not divide them


def test_config_json_gives_the_same_answer_as_the_catalog(tmp_path: Path) -> None:
    # Llama 3.1 8B's config.json fields (huggingface.co/meta-llama/Llama-3.1-8B): same architecture as the
    # catalog entry, so the same estimate to the byte.
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps({
        "architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
        "intermediate_size": 14336, "num_attention_heads": 32, "num_hidden_layers": 32,
        "num_key_value_heads": 8, "vocab_size": 128256, "max_position_embeddings": 131072,
        "tie_word_embeddings": False, "rms_norm_eps": 1e-5,
    }))  # fmt: skip
    from_config = size(config=cfg, method="lora")
    from_catalog = size(model="llama-3.1-8b", method="lora")
    assert from_config["peak_gib_per_gpu"] == pytest.approx(from_catalog["peak_gib_per_gpu"])
