"""A decode step's attention and its GEMMs are separate kernels whose times add (issue 14 round 7,
serving_constants.ATTENTION_KERNELS_APART): the KV-cache read must lengthen a step that is already
compute-bound on its GEMMs, and must change nothing where the cache is small."""

from __future__ import annotations

import pytest

from tools.catalog.load import Catalog, load_catalog
from tools.compute import serving_constants as K
from tools.compute.serving import ServingEfficiency, ServingTime, estimate_serving_time


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return load_catalog()


def _t(cat: Catalog, apart: bool, model: str = "llama-3.1-70b", **kw: object) -> ServingTime:
    args: dict[str, object] = dict(
        n_gpus=8, precision="fp8", concurrency=1, prompt_tokens=128, output_tokens=128,
        framework="tensorrt-llm", efficiency=ServingEfficiency(attention_apart=apart),
    )  # fmt: skip
    args.update(kw)
    return estimate_serving_time(arch=cat.model(model), gpu=cat.gpu("h100-sxm"), **args)  # type: ignore[arg-type]


def test_attention_apart_is_the_default() -> None:
    assert ServingEfficiency().attention_apart is K.ATTENTION_KERNELS_APART is True


def test_long_context_large_batch_pays_the_kv_read_beside_the_gemms(cat: Catalog) -> None:
    # Llama 3.1 8B FP8 on one H100, ~490 sequences at ~1.5K context: ~100 GB of 16-bit KV a step beside 8 GB
    # of weights whose GEMMs (~1,000 tokens x 16 GFLOP) are near the compute roof: the times add
    kw: dict[str, object] = dict(n_gpus=1, concurrency=512, prompt_tokens=1024, output_tokens=1024)
    apart, together = _t(cat, True, "llama-3.1-8b", **kw), _t(cat, False, "llama-3.1-8b", **kw)
    assert apart.ms_per_output_token.mid > 1.10 * together.ms_per_output_token.mid
    step = next(s for s in apart.trace if s.step == "step_gemm_plus_attention_s")
    assert isinstance(step.output, float) and step.output > 0


def test_batch_one_short_context_is_unchanged(cat: Catalog) -> None:
    # one sequence of ~200 tokens: the KV read is ~0.1% of the weights', so the two structures agree
    apart, together = _t(cat, True), _t(cat, False)
    assert apart.ms_per_output_token.mid == pytest.approx(together.ms_per_output_token.mid, rel=0.03)
