"""The fixed parts of a serving step (tools.compute.serving_steps.engine_fixed_s, issue 14 round 5): each term
has a case where it must bind and one where it must not. Values come from serving_constants (fitted on every
serving side with leave-one-family-out CV, bench/serving_accuracy.py --cv)."""

from __future__ import annotations

import pytest

from tools.catalog.load import Catalog, load_catalog
from tools.compute import serving_constants as K
from tools.compute.serving import ServingEfficiency, ServingTime, estimate_serving_time


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return load_catalog()


def _t(cat: Catalog, model: str = "llama-3.1-8b", gpu: str = "h100-sxm", **kw: object) -> ServingTime:
    args: dict[str, object] = dict(
        n_gpus=1, precision="bf16", concurrency=1, prompt_tokens=1000, output_tokens=1000, framework="vllm"
    )
    args.update(kw)
    return estimate_serving_time(arch=cat.model(model), gpu=cat.gpu(gpu), **args)  # type: ignore[arg-type]


def _fixed(t: ServingTime) -> dict[str, object] | None:
    step = next((s for s in t.trace if s.step == "step_engine_fixed_s"), None)
    return None if step is None else {"total": step.output, **step.inputs}


def _no_fixed(**kw: object) -> ServingEfficiency:
    return ServingEfficiency(layer_step_s={}, v0_tp_step_s=0.0, int4_layer_s=0.0, **kw)  # type: ignore[arg-type]


def test_layer_step_time_binds_on_dense_layers(cat: Catalog) -> None:
    arch = cat.model("llama-3.1-8b")
    with_it, without = _t(cat), _t(cat, efficiency=_no_fixed())
    fixed = _fixed(with_it)
    assert fixed is not None and fixed["layer_s"] == K.LAYER_STEP_S["vllm"] > 0
    # the fitted time carries the band like every fitted figure: layers x time, / and x BAND_HALF_WIDTH
    per_step = 1000 * arch.n_layers * K.LAYER_STEP_S["vllm"]
    low = with_it.ms_per_output_token.low - without.ms_per_output_token.low
    high = with_it.ms_per_output_token.high - without.ms_per_output_token.high
    assert low == pytest.approx(per_step / K.BAND_HALF_WIDTH, rel=1e-6)
    assert high == pytest.approx(per_step * K.BAND_HALF_WIDTH, rel=1e-6)
    assert "layer_step_s" in {a.name for a in with_it.assumptions}


def test_layer_step_time_is_one_value_and_not_on_mla_moe_layers(cat: Catalog) -> None:
    # fitted per engine, TensorRT-LLM and the PyTorch engines came out equal: one value for all
    assert len(set(K.LAYER_STEP_S.values())) == 1
    trt = _fixed(_t(cat, framework="tensorrt-llm"))
    assert trt is not None and trt["layer_s"] == K.LAYER_STEP_S["tensorrt-llm"]
    # a caller's efficiency without it: no fixed time at all
    assert _fixed(_t(cat, efficiency=_no_fixed())) is None
    # DeepSeek's MLA + MoE layers have their own kernel floor (KERNEL_LATENCY_S): not counted twice
    ds = _t(cat, "deepseek-v3", "h200", n_gpus=8, precision="fp8")
    assert _fixed(ds) is None


def test_v0_tensor_parallel_broadcast_binds_on_v0_with_tp(cat: Catalog) -> None:
    v0 = _t(cat, "llama-3.3-70b", n_gpus=4, engine_version="0.6.3")
    fixed = _fixed(v0)
    assert fixed is not None and fixed["v0_tp_broadcast_s"] == K.VLLM_V0_TP_STEP_S > 0
    assert "vllm_v0_tp_step_s" in {a.name for a in v0.assumptions}


def test_v0_tensor_parallel_broadcast_not_on_one_gpu_nor_v1(cat: Catalog) -> None:
    one = _fixed(_t(cat, engine_version="0.6.3"))
    assert one is not None and one["v0_tp_broadcast_s"] == 0.0
    for version in ("0.10.0", None):  # V1 engine, and a current release (the recommender's case)
        tp = _fixed(_t(cat, "llama-3.3-70b", n_gpus=4, engine_version=version))
        assert tp is not None and tp["v0_tp_broadcast_s"] == 0.0
    # SGLang and TensorRT-LLM have no V0 engine
    sgl = _fixed(_t(cat, "llama-3.3-70b", n_gpus=4, framework="sglang", engine_version="0.3.0"))
    assert sgl is not None and sgl["v0_tp_broadcast_s"] == 0.0


def test_int4_weight_only_kernels_bind_on_vllm(cat: Catalog) -> None:
    # Qwen2.5 speed benchmark (vLLM 0.6.3, A100): AWQ runs 1.8-2.3x BF16's speed at batch 1, not the
    # 2.8-3.5x its bytes allow; the model lands in 1.5-2.6x (tolerance: the band's centre, +-15%)
    kw: dict[str, object] = dict(gpu="a100-80gb-sxm", prompt_tokens=1, output_tokens=2048)
    bf16, awq = _t(cat, "qwen2.5-7b", **kw), _t(cat, "qwen2.5-7b", precision="int4", **kw)
    fixed = _fixed(awq)
    assert fixed is not None and fixed["int4_layer_s"] == K.INT4_WEIGHT_ONLY_LAYER_S > 0
    assert 1.5 < awq.output_tokens_per_s.mid / bf16.output_tokens_per_s.mid < 2.6


def test_int4_weight_only_kernels_not_on_tensorrt_llm_nor_16_bit(cat: Catalog) -> None:
    kw: dict[str, object] = dict(gpu="a100-80gb-sxm", prompt_tokens=1, output_tokens=2048)
    trt_bf16 = _t(cat, "qwen2.5-7b", framework="tensorrt-llm", **kw)
    trt_int4 = _t(cat, "qwen2.5-7b", framework="tensorrt-llm", precision="int4", **kw)
    fixed = _fixed(trt_int4)
    assert fixed is not None and fixed["int4_layer_s"] == 0.0
    bf16 = _t(cat, "qwen2.5-7b", **kw)
    awq = _t(cat, "qwen2.5-7b", precision="int4", **kw)
    fixed = _fixed(bf16)
    assert fixed is not None and fixed["int4_layer_s"] == 0.0
    # TensorRT-LLM's 4-bit GEMV keeps more of the byte ratio than vLLM's kernels
    trt_gain = trt_int4.output_tokens_per_s.mid / trt_bf16.output_tokens_per_s.mid
    vllm_gain = awq.output_tokens_per_s.mid / bf16.output_tokens_per_s.mid
    assert trt_gain > 1.15 * vllm_gain


def test_fixed_costs_matter_less_as_the_batch_grows(cat: Catalog) -> None:
    # a fixed time per step is a smaller share of a step that reads a large batch's KV cache
    share = []
    for c in (1, 64):
        t, bare = _t(cat, concurrency=c), _t(cat, concurrency=c, efficiency=_no_fixed())
        share.append(1 - bare.ms_per_output_token.mid / t.ms_per_output_token.mid)
    assert share[0] > share[1] > 0


def test_split_engine_release_reads_a_framework_with_its_version() -> None:
    # the forms a user types for an engine and its release ('--framework vllm-0.5'); no release is None
    from tools.compute.serving_steps import split_engine_release

    assert split_engine_release("vllm-0.5") == ("vllm", "0.5")
    assert split_engine_release("vLLM v0.6.3") == ("vllm", "0.6.3")
    assert split_engine_release("tensorrt-llm") == ("tensorrt-llm", None)
    assert split_engine_release("tensorrt-llm-0.5.0") == ("tensorrt-llm", "0.5.0")
    assert split_engine_release("sglang 0.4") == ("sglang", "0.4")
    assert split_engine_release("not an engine!") == ("not an engine!", None)


def test_moe_routing_kernels_bind_on_routed_expert_layers_only(cat: Catalog) -> None:
    # Mixtral 8x7B: every layer routes, so 4 kernels x KERNEL_LATENCY_S a layer (vLLM fused_experts), banded
    mixtral = cat.model("mixtral-8x7b")
    with_it = _t(cat, "mixtral-8x7b", n_gpus=2)
    without = _t(cat, "mixtral-8x7b", n_gpus=2, efficiency=ServingEfficiency(moe_routing_kernels=0))
    fixed = _fixed(with_it)
    per_step_s = mixtral.n_moe_layers * K.MOE_ROUTING_KERNELS_PER_LAYER * K.KERNEL_LATENCY_S
    assert fixed is not None and fixed["moe_routing_s"] == pytest.approx(per_step_s)
    low = with_it.ms_per_output_token.low - without.ms_per_output_token.low
    high = with_it.ms_per_output_token.high - without.ms_per_output_token.high
    assert low == pytest.approx(1000 * per_step_s / K.BAND_HALF_WIDTH, rel=1e-6)
    assert high == pytest.approx(1000 * per_step_s * K.BAND_HALF_WIDTH, rel=1e-6)
    assert "moe_routing_kernels_per_layer" in {a.name for a in with_it.assumptions}
    # a dense model routes nothing; DeepSeek's MLA + MoE layers count routing in their kernel floor
    dense = _fixed(_t(cat))
    assert dense is not None and dense["moe_routing_s"] == 0.0
    assert _fixed(_t(cat, "deepseek-v3", "h200", n_gpus=8, precision="fp8")) is None
    # an eager engine's host time covers its MoE loop (EAGER_HOST_S_PER_HIT_EXPERT), not these kernels
    eager = _fixed(_t(cat, "mixtral-8x7b", n_gpus=2, framework="transformers"))
    assert eager is not None and eager["moe_routing_s"] == 0.0
