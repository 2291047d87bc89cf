"""`gpu-advisor time` and advisor.api.time(): the JSON contract (issue 13), the text summary, the
framework it assumes or cannot know, and one-line errors (exit 2)."""

from __future__ import annotations

import json
import re

import pytest

from advisor.api import time
from advisor.cli import main
from tools.errors import InputError

CONTRACT_KEYS = {
    "tokens_per_s_per_gpu",
    "wall_hours",
    "gpu_hours",
    "mfu",
    "framework",
    "assumptions",
    "trace",
}
RUN = ["time", "--model", "llama-3-8b", "--method", "lora", "--gpu", "h100-sxm", "--gpus", "8",
       "--tokens", "5e8", "--epochs", "2"]  # fmt: skip


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, object]:
    assert main([*argv, "--format", "json"]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def test_json_has_the_issue_keys_the_inputs_and_the_lower_bound(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, RUN)
    assert set(data) >= CONTRACT_KEYS and "gpu_hours_at_peak" in data
    for key in ("tokens_per_s_per_gpu", "wall_hours", "gpu_hours", "mfu"):
        r = data[key]
        assert isinstance(r, dict) and set(r) == {"low", "high"} and 0 < r["low"] < r["high"], key
    wall, gpu_h = data["wall_hours"], data["gpu_hours"]
    assert isinstance(wall, dict) and isinstance(gpu_h, dict)
    assert gpu_h["low"] == pytest.approx(8 * wall["low"])
    peak = data["gpu_hours_at_peak"]
    assert isinstance(peak, float) and peak < gpu_h["low"]  # 100% MFU is the lower bound
    # tokens/s per GPU x GPU-hours x 3600 = the tokens timed (1B = 5e8 x 2 epochs)
    tps = data["tokens_per_s_per_gpu"]
    assert isinstance(tps, dict)
    assert tps["high"] * gpu_h["low"] * 3600 == pytest.approx(1e9)
    assert data["framework"] == "hf"
    assert data["inputs"] == {
        "method": "lora", "gpus": 8, "tokens": 5e8, "epochs": 2.0, "seq_len": 2048, "batch_size": None,
        "precision": "bf16", "grad_checkpointing": True, "framework": None,
    }  # fmt: skip
    assert data["trace"] and data["assumptions"]


def test_api_time_equals_the_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    cli = _json(capsys, [*RUN, "--framework", "axolotl", "--batch-size", "4", "--precision", "fp8"])
    api = time(model="llama-3-8b", method="lora", gpu="h100-sxm", gpus=8, tokens=5e8, epochs=2,
               framework="axolotl", batch_size=4, precision="fp8")  # fmt: skip
    assert cli == json.loads(json.dumps(api, default=str))
    # axolotl has no calibration rows yet (bench/data/training_throughput.yaml): the generic band
    assert api["framework"] == "axolotl" and api["framework_band"] is None
    assert "generic band" in api["framework_note"]


def test_text_says_how_long_where_with_which_framework_and_what_narrows_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(RUN) == 0
    out = capsys.readouterr().out
    first = out.splitlines()[1]
    assert first.startswith("About ") and " h on 8× NVIDIA H100" in first
    assert "(hf, Transformers Trainer / TRL / PEFT)" in first
    assert "tokens/s per GPU" in out and re.search(r"MFU \d+%–\d+%", out)
    assert "assumed hf" in out and "To narrow it:" in out


def test_without_tokens_only_throughput(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, ["time", "--params-b", "7", "--gpu", "a100-sxm-80gb"])
    assert data["wall_hours"] is None and data["gpu_hours"] is None and data["gpu_hours_at_peak"] is None
    assert data["tokens_per_s_per_gpu"]
    assert any(a["name"] == "tokens_timed" for a in data["assumptions"])  # type: ignore[attr-defined]
    assert main(["time", "--params-b", "7", "--gpu", "a100-sxm-80gb"]) == 0
    assert "give --tokens for the duration" in capsys.readouterr().out


def test_an_unknown_framework_is_the_generic_band_said_so(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, [*RUN, "--framework", "our-fork"])
    assert data["framework"] is None
    assert "unknown framework 'our-fork'" in str(data["framework_note"])
    assert main([*RUN, "--framework", "our-fork"]) == 0
    out = capsys.readouterr().out
    assert "(generic band)" in out and "unknown framework 'our-fork'" in out


@pytest.mark.parametrize("name", ["Megatron", "LLAMA_FACTORY", "unsloth"])
def test_known_framework_names_in_any_case(name: str) -> None:
    got = time(params_b=7, method="lora", gpu="h100-sxm", tokens=1e8, framework=name)
    assert got["framework"] == name.lower().replace("_", "-")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--model", "no-such-model", "--gpu", "h100-sxm"], "unknown model 'no-such-model'"),
        (["--model", "llama-3-8b", "--gpu", "no-such-gpu"], "unknown gpu 'no-such-gpu'"),
        (["--model", "llama-3-8b", "--params-b", "7", "--gpu", "h100-sxm"], "give only one of --model"),
        (["--model", "llama-3-8b", "--gpu", "h100-sxm", "--tokens", "-5"], "--tokens must be a positive"),
        (["--model", "llama-3-8b", "--gpu", "h100-sxm", "--epochs", "0"], "--epochs must be a positive"),
        (["--model", "llama-3-8b"], "say which GPU"),
        (["--model", "llama-3-8b", "--gpu", "h100-sxm", "--gpus", "0"], "--gpus must be a whole number"),
        (["--model", "llama-3-8b", "--gpu", "h100-sxm", "--precision", "fp16"], "use bf16 or fp8"),
        (["--model", "llama-3-8b", "--gpu", "h100-sxm", "--method", "dpo"], "unknown --method 'dpo'"),
        (["--model", "llama-3-8b", "--gpu", "h100-sxm", "--concurrency", "8"], "--method inference only"),
        (["--model", "llama-3-8b", "--gpu", "h100-sxm", "--format", "yaml"], "unknown --format"),
        (["--model", "llama-3-8b", "--gpu", "h100-sxm", "--method", "inference"], "needs --concurrency"),
    ],
)
def test_user_errors_are_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(["time", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and err.count("\n") == 1, err


def test_api_raises_the_same_one_line_error() -> None:
    with pytest.raises(InputError, match=r"^--tokens must be a positive number \(got -1\)$"):
        time(model="llama-3-8b", gpu="h100-sxm", tokens=-1)
    with pytest.raises(TypeError, match="unexpected keyword argument 'seq_length'"):
        time(model="llama-3-8b", gpu="h100-sxm", seq_length=4096)


SERVE = ["time", "--method", "inference", "--model", "llama-3.1-8b", "--gpu", "h100-sxm",
         "--concurrency", "50", "--prompt-tokens", "1000", "--output-tokens", "1000"]  # fmt: skip


def test_inference_gives_the_serving_keys_and_api_equals_cli(capsys: pytest.CaptureFixture[str]) -> None:
    # issue 14's contract: the whole replica's output rate, per-token latency, time to first token and what
    # the KV cache holds, from tools.compute.serving (the same model the recommender sizes replicas with)
    cli = _json(capsys, SERVE)
    for key in ("output_tokens_per_s", "ms_per_output_token", "time_to_first_token_s"):
        r = cli[key]
        assert isinstance(r, dict) and 0 < r["low"] <= r["high"], key
    assert isinstance(cli["max_concurrency"], int) and cli["max_concurrency"] >= 50
    assert cli["assumptions"] and cli["trace"]
    api = time(model="llama-3.1-8b", method="inference", gpu="h100-sxm", concurrency=50, prompt_tokens=1000,
               output_tokens=1000)  # fmt: skip
    assert cli == json.loads(json.dumps(api, default=str))
    # more requests in flight: more tokens/s for the replica, fewer per user (continuous batching)
    busier = time(model="llama-3.1-8b", method="inference", gpu="h100-sxm", concurrency=150,
                  prompt_tokens=1000, output_tokens=1000)  # fmt: skip
    assert busier["output_tokens_per_s"]["low"] > api["output_tokens_per_s"]["low"]
    assert busier["per_user_tokens_per_s"]["high"] < api["per_user_tokens_per_s"]["high"]


def test_inference_framework_takes_the_engine_release(capsys: pytest.CaptureFixture[str]) -> None:
    # issue 14: a stated engine release reaches the engine generations; vLLM before 0.8 ran the V0 engine,
    # whose CPU work per running sequence blocks the GPU each step (vLLM v0.6.0 blog, issue #6801), so at
    # 200 requests the old release is slower per token; no release stated is a current engine (V1)
    args = [*SERVE[:-6], "--concurrency", "200", "--prompt-tokens", "1000", "--output-tokens", "500"]
    current = _json(capsys, [*args, "--framework", "vllm"])
    old = _json(capsys, [*args, "--framework", "vllm-0.5"])
    assert current["framework"] == old["framework"] == "vllm"
    assert current["engine_version"] is None and old["engine_version"] == "0.5"
    assert old["inputs"]["framework"] == "vllm-0.5"  # type: ignore[index]
    assert old["ms_per_output_token"]["low"] > current["ms_per_output_token"]["high"]  # type: ignore[index]
    assert any(a["name"] == "engine_cpu_s_per_sequence_per_step" for a in old["assumptions"])  # type: ignore[union-attr, index]
    same = time(model="llama-3.1-8b", method="inference", gpu="h100-sxm", concurrency=200, prompt_tokens=1000,
                output_tokens=500, framework="vLLM v0.5.4")  # fmt: skip
    assert same["engine_version"] == "0.5.4" and same["ms_per_output_token"] == old["ms_per_output_token"]
    assert main([*args, "--framework", "vllm-0.5"]) == 0
    assert "tokens in / 500 out (vllm 0.5)" in capsys.readouterr().out
    with pytest.raises(InputError, match="unknown serving --framework 'ollama-0.3'"):
        time(model="llama-3.1-8b", method="inference", gpu="h100-sxm", concurrency=8, prompt_tokens=100,
             output_tokens=100, framework="ollama-0.3")  # fmt: skip


def test_inference_text_reads_as_a_replica(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(SERVE) == 0
    out = capsys.readouterr().out
    assert "One replica on 1× NVIDIA H100" in out and "per user" in out and "first token in" in out


def test_pretraining_without_a_framework_assumes_the_pretraining_stacks_as_the_recommender_does() -> None:
    # tools.defaults: pre-training assumes the band pooled over the pre-training stacks, not hf
    got = time(params_b=7, method="pretraining", gpu="h100-sxm", gpus=64, tokens=1e12)
    assert got["framework"] is None and "Megatron-LM" in got["framework_note"]
    fine_tune = time(params_b=7, method="lora", gpu="h100-sxm", tokens=1e8)
    assert fine_tune["framework"] == "hf"


def test_unpacked_data_is_slower_and_says_what_narrows_it(capsys: pytest.CaptureFixture[str]) -> None:
    # tools.compute.padding: a micro-batch padded to its longest sample computes the padding too
    packed = _json(capsys, [*RUN, "--batch-size", "4"])
    unpacked = _json(capsys, [*RUN, "--batch-size", "4", "--no-packed"])
    fast, slow = packed["tokens_per_s_per_gpu"], unpacked["tokens_per_s_per_gpu"]
    assert isinstance(fast, dict) and isinstance(slow, dict) and slow["high"] < fast["low"]
    # the API's packed=False is the CLI's --no-packed (the same run as RUN)
    api = time(model="llama-3-8b", method="lora", gpu="h100-sxm", gpus=8, tokens=5e8, epochs=2,
               batch_size=4, packed=False)  # fmt: skip
    assert api["tokens_per_s_per_gpu"] == slow
    assert main([*RUN, "--no-packed"]) == 0
    assert "pack the samples" in capsys.readouterr().out
