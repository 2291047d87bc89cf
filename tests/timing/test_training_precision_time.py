"""--training-precision on `time` (tim19): the precision regime `size` takes (tools.vocabulary.
TrainingPrecision) sets the bytes each AdamW step moves (tools.compute.optimizer_update): mixed, FP32 master
weights and moments, 28 B/param; pure-bf16 / pure-fp16, 14 B. Not given: mixed, today's figure
(bench/data/README.md, tim19)."""

from __future__ import annotations

import json

import pytest

from advisor.api import time
from advisor.cli import main

FULL_8B = {"model": "llama-3-8b", "method": "full", "gpu": "h100-sxm", "batch_size": 1}
# Golden: (28 - 14) B/param x 8,030,261,248 parameters (Llama 3 8B, the catalog's count) / 3.35 TB/s (H100 SXM
# HBM3, the catalog) / 2,048 tokens per step (batch 1 x the default sequence) = 16.4 us per token less in pure
# 16-bit. Tolerance 1e-6 relative (float arithmetic).
SAVED_SECONDS_PER_TOKEN = (28 - 14) * 8_030_261_248 / 3.35e12 / 2048


def _rate(**flags: object) -> dict[str, float]:
    out: dict[str, float] = time(**{**FULL_8B, **flags})["tokens_per_s_per_gpu"]
    return out


@pytest.mark.parametrize("pure", ["pure-bf16", "pure-fp16"])
def test_pure_16bit_states_halve_the_optimizer_step(pure: str) -> None:
    mixed, pure_rate = _rate(training_precision="mixed"), _rate(training_precision=pure)
    for end in ("low", "high"):
        assert 1 / mixed[end] - 1 / pure_rate[end] == pytest.approx(SAVED_SECONDS_PER_TOKEN, rel=1e-6)


def test_unstated_is_mixed_and_stays_out_of_the_inputs() -> None:
    unstated = time(**FULL_8B)
    assert unstated["tokens_per_s_per_gpu"] == _rate(training_precision="mixed")
    assert "training_precision" not in unstated["inputs"]
    assert time(**FULL_8B, training_precision="pure-bf16")["inputs"]["training_precision"] == "pure-bf16"


def test_the_trace_carries_the_regime_and_its_bytes() -> None:
    out = time(**FULL_8B, training_precision="pure-bf16")
    (step,) = [s for s in out["trace"] if s["step"] == "throughput_efficiency_optimizer_update"]
    assert step["inputs"]["training_precision"] == "pure-bf16"
    assert step["inputs"]["bytes_per_param"] == 14
    assumed = {a["name"]: a["value"] for a in time(**FULL_8B)["assumptions"]}
    assert assumed["training_precision"].startswith("mixed (not given")


def test_lora_and_unstated_batches_are_unchanged() -> None:
    lora = {**FULL_8B, "method": "lora"}
    assert (
        time(**lora, training_precision="pure-bf16")["tokens_per_s_per_gpu"]
        == time(**lora)["tokens_per_s_per_gpu"]
    )
    no_batch = {k: v for k, v in FULL_8B.items() if k != "batch_size"}
    assert (
        time(**no_batch, training_precision="pure-bf16")["tokens_per_s_per_gpu"]
        == time(**no_batch)["tokens_per_s_per_gpu"]
    )


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--training-precision", "fp32"], "unknown --training-precision 'fp32': use mixed, pure-bf16"),
        (
            [
                "--method",
                "inference",
                "--concurrency",
                "8",
                "--prompt-tokens",
                "100",
                "--output-tokens",
                "100",
                "--training-precision",
                "mixed",
            ],
            "--training-precision applies to training only",
        ),  # fmt: skip
    ],
)
def test_bad_regime_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    assert main(["time", "--model", "llama-3-8b", "--gpu", "h100-sxm", *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err


def test_cli_flag_reaches_the_estimate(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["time", "--model", "llama-3-8b", "--method", "full", "--gpu", "h100-sxm", "--batch-size", "1",
            "--training-precision", "pure-bf16", "--format", "json"]  # fmt: skip
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["tokens_per_s_per_gpu"] == _rate(
        training_precision="pure-bf16"
    )
