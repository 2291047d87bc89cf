"""--grad-accumulation (tim17): the optimizer update is paid once per optimizer step, so a step of
micro-batch x accumulation x sequence tokens per GPU spreads it over that many tokens
(tools.compute.optimizer_update; bench/data/README.md, tim16 and tim17)."""

from __future__ import annotations

import pytest

from advisor.api import time
from advisor.cli import main

FULL_8B = {"model": "llama-3-8b", "method": "full", "gpu": "h100-sxm", "batch_size": 1}
# Golden: 28 B/param (AdamW with FP32 master, tools.compute.optimizer_update) x 8.03e9 parameters (Llama 3
# 8B, the catalog's count) / 3.35 TB/s (H100 SXM HBM3, the catalog) / 2,048 tokens per step = 32.8 us per
# token at accumulation 1; 1/8 of that at accumulation 8. Tolerance 1e-6 relative (float arithmetic).
SECONDS_PER_TOKEN_ACC1 = 28 * 8_030_261_248 / 3.35e12 / 2048


def _rate(**flags: object) -> dict[str, float]:
    out: dict[str, float] = time(**{**FULL_8B, **flags})["tokens_per_s_per_gpu"]
    return out


def test_accumulation_spreads_the_optimizer_update_over_the_step() -> None:
    one, eight = _rate(grad_accumulation=1), _rate(grad_accumulation=8)
    assert eight["low"] > one["low"] and eight["high"] > one["high"]
    # 1 / tokens_per_s gains optimizer_seconds_per_token (the same peak and FLOPs per token on both sides)
    for end in ("low", "high"):
        saved = 1 / one[end] - 1 / eight[end]
        assert saved == pytest.approx(SECONDS_PER_TOKEN_ACC1 * 7 / 8, rel=1e-6)


def test_unstated_accumulation_is_one_and_stays_out_of_the_inputs() -> None:
    unstated = time(**FULL_8B)
    assert unstated["tokens_per_s_per_gpu"] == _rate(grad_accumulation=1)
    assert "grad_accumulation" not in unstated["inputs"]
    assert time(**FULL_8B, grad_accumulation=4)["inputs"]["grad_accumulation"] == 4


def test_the_trace_names_the_steps_tokens() -> None:
    trace = time(**FULL_8B, grad_accumulation=8, seq_len=4096)["trace"]
    (step,) = [s for s in trace if s["step"] == "throughput_efficiency_optimizer_update"]
    assert step["inputs"]["step_tokens_per_gpu"] == 1 * 8 * 4096
    assert step["inputs"]["gradient_accumulation_steps"] == 8


def test_lora_pays_no_optimizer_update_so_accumulation_does_not_move_it() -> None:
    lora = {**FULL_8B, "method": "lora"}
    assert time(**lora, grad_accumulation=16)["tokens_per_s_per_gpu"] == time(**lora)["tokens_per_s_per_gpu"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--grad-accumulation", "0"], "--grad-accumulation must be a whole number >= 1"),
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
                "--grad-accumulation",
                "2",
            ],
            "--grad-accumulation applies to training only",
        ),  # fmt: skip
    ],
)
def test_bad_accumulation_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    assert main(["time", "--model", "llama-3-8b", "--gpu", "h100-sxm", *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err


def test_cli_flag_reaches_the_estimate(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    argv = ["time", "--model", "llama-3-8b", "--method", "full", "--gpu", "h100-sxm", "--batch-size", "1",
            "--grad-accumulation", "8", "--format", "json"]  # fmt: skip
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["tokens_per_s_per_gpu"] == _rate(grad_accumulation=8)
