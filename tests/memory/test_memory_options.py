"""The memory options a user can set (tools.memory_options, issue 15): each flag moves the estimate the way
its mechanism says, the framework preset supplies the value when no flag is given, an explicit flag
overrides it and the JSON says which, and a bad value is one line with exit 2."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.api import size
from advisor.cli import main
from tools.memory_frameworks import FRAMEWORK_MEMORY_DEFAULTS

_LORA: dict[str, Any] = dict(
    model="llama-3-8b", method="lora", training_precision="pure-bf16", seq_len=2048, batch_size=2
)
_QLORA: dict[str, Any] = dict(
    model="llama-3-8b", method="qlora", seq_len=2048, batch_size=2, grad_checkpointing=False
)
_FULL: dict[str, Any] = dict(
    model="llama-3-8b", method="full", seq_len=2048, batch_size=2, grad_checkpointing=False
)
_LORA_NO_CKPT: dict[str, Any] = dict(
    model="llama-3-8b", method="lora", seq_len=2048, batch_size=2, grad_checkpointing=False
)
"""A LoRA step peaks at loss time, where the forward's tensors (returned K/V, layer extras, logits) live."""


def _peak(**flags: Any) -> float:
    return float(size(**flags)["peak_gib_per_gpu"])


@pytest.mark.parametrize(
    ("base", "name", "more", "less"),
    [
        (_LORA, "lora_fp32_adapters", True, False),  # fp32 input copies (tools.memory_lora)
        (_QLORA, "fp32_unquantized", True, False),  # fp32 forward (tools.memory_quant)
        (_QLORA, "quant_saves_input", True, False),  # MatMul4Bit keeps its 16-bit input
        # use_cache=True returns K/V, live at the forward's end: larger than the loss's logits on a 32k-vocab
        # multi-head model (tools.memory_use_cache)
        (dict(_LORA_NO_CKPT, model="llama-2-7b"), "returns_kv_cache", True, False),
        (_LORA_NO_CKPT, "model_code", "hf", "plain"),  # transformers' layer extras
        (_LORA_NO_CKPT, "loss_upcast", True, False),  # fp32 logits upcast
        (_LORA_NO_CKPT, "loss_impl", "shift-labels", "vocab-parallel"),  # softmax made in place
    ],
)
def test_each_flag_moves_the_estimate_the_expected_way(
    base: dict[str, Any], name: str, more: object, less: object
) -> None:
    high, low = _peak(**base, **{name: more}), _peak(**base, **{name: less})
    assert high > low, (name, high, low)


def test_without_flags_every_option_comes_from_the_preset() -> None:
    out = size(**_FULL, framework="megatron")
    opts = out["memory_options"]
    assert {o["source"] for o in opts.values()} == {"framework preset"}
    megatron = FRAMEWORK_MEMORY_DEFAULTS["megatron"]
    assert opts["model_code"]["value"] == "plain" and not megatron.hf_layer_extras
    assert opts["loss_impl"]["value"] == megatron.loss_impl == "vocab-parallel"
    assert opts["returns_kv_cache"]["value"] is False
    assert not [a for a in out["assumptions"] if a["name"].startswith("memory_option_")]


def test_an_explicit_flag_overrides_the_preset_and_says_so() -> None:
    preset = size(**_FULL, framework="megatron")
    flagged = size(**_FULL, framework="megatron", model_code="hf")
    assert flagged["memory_options"]["model_code"] == {"value": "hf", "source": "flag"}
    assert flagged["peak_gib_per_gpu"] > preset["peak_gib_per_gpu"]
    names = {a["name"]: a for a in flagged["assumptions"]}
    assert "megatron preset has plain" in names["memory_option_model_code"]["source"]
    # a flag equal to the preset is still a flag, but no assumption: nothing differs from the preset
    same = size(**_FULL, framework="megatron", model_code="plain")
    assert same["memory_options"]["model_code"]["source"] == "flag"
    assert same["peak_gib_per_gpu"] == preset["peak_gib_per_gpu"]
    assert "memory_option_model_code" not in {a["name"] for a in same["assumptions"]}


def test_fp32_adapters_are_reported_as_not_applied_under_mixed_precision() -> None:
    mixed: dict[str, Any] = dict(_LORA, training_precision="mixed")
    assert size(**mixed, lora_fp32_adapters=True)["memory_options"]["lora_fp32_adapters"]["value"] is False
    assert _peak(**mixed, lora_fp32_adapters=True) == _peak(**mixed, lora_fp32_adapters=False)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--model-code", "jax"], "error: model_code must be one of hf, plain (got 'jax')"),
        (["--loss-impl", "x"], "error: unknown loss implementation 'x': use one of shift-labels, "),
    ],
)
def test_a_bad_value_is_one_line_and_exit_2(
    flags: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["size", "--model", "llama-3-8b", *flags])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith(message) and err.count("\n") == 1, err


def test_the_cli_flags_reach_the_estimate(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    args = ["size", "--model", "llama-3-8b", "--method", "lora", "--training-precision", "pure-bf16"]
    for flag, want in (("--peft-fp32-adapters", True), ("--no-peft-fp32-adapters", False)):
        assert main([*args, flag, "--format", "json"]) == 0
        opt = json.loads(capsys.readouterr().out)["memory_options"]["lora_fp32_adapters"]
        assert opt == {"value": want, "source": "flag"}
    assert main(["size", "--model", "llama-3-8b", "--use-cache-in-training", "--format", "json"]) == 0
    opt = json.loads(capsys.readouterr().out)["memory_options"]["returns_kv_cache"]
    assert opt == {"value": True, "source": "flag"}
