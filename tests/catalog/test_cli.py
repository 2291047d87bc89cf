"""`gpu-advisor catalog gpus|models|prices`: output, as-of dates, overrides and exit codes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from advisor.cli import main

Write = Callable[[str, str], Path]


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["catalog", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_gpus_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "gpus", "--format", "json")
    assert code == 0
    data = json.loads(out)
    h100 = next(g for g in data["gpus"] if g["id"] == "h100-sxm")
    assert h100["bf16_dense_tflops"] == 989 and h100["as_of"] and h100["source"]
    assert data["as_of"]["gpus"] == max(g["as_of"] for g in data["gpus"])


def test_models_json_has_derived_counts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "models", "--format", "json")
    assert code == 0
    models = {m["id"]: m for m in json.loads(out)["models"]}
    assert len(models) >= 30
    assert models["llama-3-70b"]["params_b_derived"] == pytest.approx(70.55, rel=0.001)


def test_prices_table_shows_as_of_and_sources(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "220")
    code, out, _ = _run(capsys, "prices")
    assert code == 0
    for text in ("Prices", "seed-001-bare-metal", "Internet egress", "managed_premium_fraction", "as of"):
        assert text in out
    assert "2026-11-09" in out  # a price snapshot date is printed
    assert "seed 001 worked example" in out  # the source column


def test_narrow_terminal_keeps_ids_whole(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    code, out, _ = _run(capsys, "prices")
    assert code == 0 and "seed-001-bare-metal" in out and "runpod-community" in out
    assert "seed 001 worked example" not in out and "--format json" in out


def test_gpus_and_models_tables(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "gpus")
    assert code == 0 and "h100-sxm" in out and "as of" in out
    code, out, _ = _run(capsys, "models")
    assert code == 0 and "deepseek-v3" in out


def test_prices_filters(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "prices", "--gpu", "H200", "--eu-only", "--format", "json")
    assert code == 0
    prices = json.loads(out)["prices"]
    assert prices and all(p["gpu"] == "h200" and p["eu"] for p in prices)


def test_prices_override_file(capsys: pytest.CaptureFixture[str], write: Write) -> None:
    path = write(
        "mine.yaml",
        "prices:\n  - {provider: seed-001-bare-metal, gpu: h100-sxm, pricing: on_demand,\n"
        "     usd_per_gpu_hour: 1.5, tier: negotiated, source: contract, as_of: 2026-11-20}\n",
    )
    code, out, _ = _run(capsys, "prices", "--prices", str(path), "--format", "json")
    assert code == 0
    seed = [p for p in json.loads(out)["prices"] if p["provider"] == "seed-001-bare-metal"]
    assert [p["usd_per_gpu_hour"] for p in seed] == [1.5]


def test_config_file(capsys: pytest.CaptureFixture[str], write: Write) -> None:
    cfg = {
        "model_type": "llama",
        "hidden_size": 4096,
        "intermediate_size": 14336,
        "num_attention_heads": 32,
        "num_hidden_layers": 32,
        "num_key_value_heads": 8,
        "vocab_size": 128256,
        "max_position_embeddings": 8192,
    }
    path = write("config.json", json.dumps(cfg))
    code, out, _ = _run(capsys, "models", "--config", str(path), "--format", "json")
    assert code == 0
    (model,) = json.loads(out)["models"]
    assert model["params_b_derived"] == pytest.approx(8.03, rel=0.001)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["gpuz"], "unknown catalog 'gpuz'"),
        (["gpus", "--format", "xml"], "unknown format 'xml'"),
        (["prices", "--gpu", "H1000"], "unknown gpu 'H1000'; closest:"),
        (["prices", "--prices", "/nonexistent/p.yaml"], "file not found"),
        (["gpus", "--config", "config.json"], "--config applies to"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], needle: str
) -> None:
    code, out, err = _run(capsys, *args)
    assert code == 2
    assert needle in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_unsupported_config_exits_2(capsys: pytest.CaptureFixture[str], write: Write) -> None:
    path = write("config.json", json.dumps({"model_type": "gpt2"}))
    code, _, err = _run(capsys, "models", "--config", str(path))
    assert code == 2 and "not supported" in err


def test_cli_module_imports_are_light() -> None:
    import subprocess
    import sys

    code = (
        "import sys, advisor.cli.catalog; "
        "heavy = ('rich.table', 'yaml', 'pydantic', 'weasyprint', 'langchain'); "
        "heavy = [m for m in heavy if m in sys.modules]; "
        "print(','.join(heavy))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == ""


@pytest.mark.parametrize("args", [["gpus", "--bogus"], []])
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    code, _, err = _run(capsys, *args)
    assert code == 2 and "internal error" not in err
