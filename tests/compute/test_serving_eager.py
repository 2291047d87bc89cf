"""Hugging Face transformers generate() as a serving engine (tools.compute.serving_steps.eager_host_s, issue
14 srv9): an eager engine's decode step is at least its host's time to issue the layer's ops, plus
bitsandbytes' ops when the weights are quantised on load. Values from serving_constants (EAGER_HOST_SOURCE,
BNB_*_SOURCE)."""

from __future__ import annotations

import pytest

from tools.catalog.load import Catalog, load_catalog
from tools.compute import serving_constants as K
from tools.compute.serving import ServingTime, estimate_serving_time


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return load_catalog()


def _t(cat: Catalog, framework: str, precision: str = "bf16", **kw: object) -> ServingTime:
    args: dict[str, object] = dict(n_gpus=1, concurrency=1, prompt_tokens=1000, output_tokens=1000)
    args.update(kw)
    return estimate_serving_time(
        arch=cat.model("llama-2-7b"),
        gpu=cat.gpu("rtx-4090"),
        framework=framework,  # type: ignore[arg-type]
        precision=precision,  # type: ignore[arg-type]
        **args,  # type: ignore[arg-type]
    )


def test_eager_generate_at_batch_one_is_host_bound(cat: Catalog) -> None:
    # 32 layers x 1.2 ms = 38.4 ms a token, above the 4090's ~16 ms weight read: the host sets the step
    t = _t(cat, "transformers")
    host_ms = 32 * K.EAGER_HOST_S_PER_LAYER * 1000
    assert t.ms_per_output_token.low == pytest.approx(host_ms / K.BAND_HALF_WIDTH, rel=0.05)
    assert t.ms_per_output_token.high >= host_ms * K.BAND_HALF_WIDTH
    vllm = _t(cat, "vllm")
    assert vllm.ms_per_output_token.mid < t.ms_per_output_token.mid / 1.8  # CUDA graphs: no host floor


def test_a_batch_shares_the_host_time_of_a_step(cat: Catalog) -> None:
    # the host issues the same ops for 1 or 16 sequences: 16 tokens a step at about the same step time
    one = _t(cat, "transformers", prompt_tokens=128, output_tokens=128)
    many = _t(cat, "transformers", concurrency=16, prompt_tokens=128, output_tokens=128)
    assert many.output_tokens_per_s.mid > 8 * one.output_tokens_per_s.mid


def test_bitsandbytes_int8_is_slower_than_16_bit_and_4_bit_in_between(cat: Catalog) -> None:
    b16, i8, i4 = (_t(cat, "transformers", p) for p in ("bf16", "int8", "int4"))
    assert i8.ms_per_output_token.mid > 3 * b16.ms_per_output_token.mid  # 7 linears x 0.7 ms a layer
    assert b16.ms_per_output_token.mid < i4.ms_per_output_token.mid < i8.ms_per_output_token.mid
    steps = {s.step: s for s in i8.trace}
    per_layer_s = K.EAGER_HOST_S_PER_LAYER + 7 * K.BNB_INT8_S_PER_LINEAR
    assert steps["step_host_s"].output == pytest.approx(32 * per_layer_s)
    # the same int8 weights on vLLM pay no bitsandbytes ops
    assert _t(cat, "vllm", "int8").ms_per_output_token.mid < b16.ms_per_output_token.mid


def test_generate_runs_a_static_batch_reserved_at_full_length(cat: Catalog) -> None:
    t = _t(cat, "transformers", concurrency=8)
    assert t.framework == "transformers"
    steps = {s.step: s for s in t.trace}
    # a static batch's throughput: live x output / (live x prefill + output x step)
    assert "prefill" in steps["output_tokens_per_s"].formula
    assert any(a.name == "kv_admitted_at_full_length" and a.value == "true" for a in t.assumptions)


def test_eager_moe_adds_the_expert_loop_per_hit_expert(cat: Catalog) -> None:
    # transformers' sparse-MoE block loops over the experts hit (K.EAGER_MOE_SOURCE): at one sequence
    # Qwen3-30B-A3B hits its top-8 of 128 in each of 48 layers: 48 x (1.2 + 8 x 0.17) ms = 123 ms a token
    from tools.compute.serving_steps import eager_host_s, hit_experts

    arch = cat.model("qwen3-30b-a3b")
    assert hit_experts(arch, 1) == pytest.approx(8.0)
    assert hit_experts(arch, 64) < 128 and hit_experts(arch, 64) > 100  # most experts hit by 64 tokens
    assert hit_experts(cat.model("llama-2-7b"), 1) == 0.0
    host_s = eager_host_s(arch, "transformers", "bf16", None, tokens=1)
    want_s = 48 * (K.EAGER_HOST_S_PER_LAYER + 8 * K.EAGER_HOST_S_PER_HIT_EXPERT)
    assert host_s == pytest.approx(want_s, rel=1e-9)
    assert eager_host_s(arch, "vllm", "bf16", None) == 0.0
    t = estimate_serving_time(
        arch=arch, gpu=cat.gpu("h100-nvl"), n_gpus=1, concurrency=1, prompt_tokens=100, output_tokens=550,
        framework="transformers", precision="bf16",
    )  # fmt: skip
    # tharindu-sankalpa/huggingface-learning docs/part2.md (fresh-6 row, H100 NVL): 10.62 tokens/s; inside
    assert t.per_user_tokens_per_s.low <= 10.62 <= t.per_user_tokens_per_s.high
