"""Expert review 18, R20: "Is 8x H100 enough to serve Qwen3-235B-A22B in FP8 for ~32 concurrent chats at 8k
context?" got "On 8x H100 it fits: 40.4 GiB per GPU" with no speed; the pick, 4x A100, ran the FP8 model with
no word that Ampere has no FP8 units (weight-only kernels, BF16 compute); and the reply said it was "put first
over the lower-cost 8x H100 SXM5 at runpod-community (listed below)", which was neither listed nor cheaper."""

from __future__ import annotations

import pytest

from tools.catalog.load import load_catalog
from tools.compute.flops import FP8_WEIGHT_ONLY, peak_tflops
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.models import Recommendation, RecommendSettings
from tools.trace import TraceBuilder

R20 = WorkloadProfile(
    workload="inference",
    model_id="qwen3-235b-a22b",
    precision="fp8",
    concurrency=32,
    context_len=8192,
    claimed_gpu="h100-sxm",
    claimed_gpu_count=8,
)


@pytest.fixture(scope="module")
def r20() -> Recommendation:
    return recommend(profile=R20, catalog=load_catalog(), settings=RecommendSettings(sensitivity=False))


def test_fp8_on_ampere_computes_at_the_bf16_rate_and_says_so() -> None:
    catalog = load_catalog()
    a100 = catalog.gpu("a100-80gb-sxm")
    tb = TraceBuilder()
    assert peak_tflops(gpu=a100, precision="fp8", tb=tb) == a100.bf16_dense_tflops
    assert any(a.name == "fp8_compute" and a.value == FP8_WEIGHT_ONLY for a in tb.assumptions)
    # near miss: Hopper has FP8 units, so its FP8 peak is used and nothing is assumed
    h100 = catalog.gpu("h100-sxm")
    tb2 = TraceBuilder()
    assert peak_tflops(gpu=h100, precision="fp8", tb=tb2) == h100.fp8_dense_tflops
    assert not any(a.name == "fp8_compute" for a in tb2.assumptions)


def test_r20_an_ampere_pick_names_weight_only_fp8(r20: Recommendation) -> None:
    options = [o for o in (r20.primary, *r20.alternatives) if o is not None]
    ampere = [o for o in options if o.gpu.startswith("a100")]
    assert ampere, [o.gpu for o in options]
    for o in ampere:
        assert any(w.startswith(f"FP8 on {o.gpu_name}: no FP8 tensor cores") for w in o.why), o.why
    for o in options:
        if not o.gpu.startswith("a100") and o.gpu not in ("rtx-3090", "a10", "a10g", "rtx-a6000"):
            assert not any("no FP8 tensor cores" in w for w in o.why), (o.gpu, o.why)
    assert any(a.name == "fp8_compute" for a in r20.assumptions)


def test_r20_the_named_set_up_gets_its_speed_and_rent(r20: Recommendation) -> None:
    check = next(c for c in r20.expectation_checks if c.claim == "serve it on 8x NVIDIA H100 SXM5 80GB")
    text = check.explanation
    assert text.startswith("Yes: on 8x NVIDIA H100 SXM5 80GB it fits:"), text
    assert "each of the 32 streams decodes" in text and "tokens/s in all" in text
    assert "Renting 8x NVIDIA H100 SXM5 80GB:" in text and "per month at" in text
    assert check.verdict == "holds"


def test_r20_no_false_lower_cost_or_listed_line(r20: Recommendation) -> None:
    assert r20.primary is not None
    lines = [w for w in r20.primary.why if w.startswith("put first over")]
    assert lines, r20.primary.why
    # the community 8x H100 costs more than the pick a month, and is not among the alternatives shown
    named = "put first over the 8x NVIDIA H100 SXM5 80GB you named at runpod-community"
    assert lines[0].startswith(named), lines
    assert "lower-cost" not in lines[0] and "listed below" not in lines[0], lines
