"""When a stated latency target, not memory, rules every serving option out, the advice names latency, gives
the fastest the allowed offers reach and remedies that move latency (expert review 19, R09: memory remedies
were offered for a latency blocker). Wordings differ from the review's."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.api import ask
from tests.recommend.conftest import QUIET
from tools.catalog.load import Catalog
from tools.profile import WorkloadProfile
from tools.ranges import Range
from tools.recommend import recommend
from tools.recommend.latency_binds import Fastest, binds, shorter_answers_line
from tools.recommend.models import Recommendation

MEMORY_REMEDIES = (
    "Shorten the context",
    "concurrent sequences per replica",
    "one GPU would still need",
    "Shard over",
)


def _advice(text: str) -> tuple[dict[str, Any], list[str]]:
    out = ask(text)
    return out, list(out["recommendation"]["infeasible_advice"])


class _Time:
    """The two figures binds() and shorter_answers_line() read from a serving time."""

    def __init__(self, ms: Range, ttft: Range) -> None:
        self.ms_per_output_token = ms
        self.time_to_first_token_s = ttft


def _fastest(catalog: Catalog, ms: tuple[float, float], ttft: tuple[float, float]) -> Fastest:
    t = _Time(Range(low=ms[0], high=ms[1]), Range(low=ttft[0], high=ttft[1]))
    return Fastest(catalog.gpu("h100-sxm"), 8, ("aws",), t)


def _answer_profile(percentile: float | None) -> WorkloadProfile:
    return WorkloadProfile(workload="inference").with_values(
        "stated", None, response_target_s=1.0, output_tokens=200, latency_ms_per_token=5.0,
        latency_percentile=percentile,
    )  # fmt: skip


def test_a_percentile_target_binds_at_the_slow_end_a_plain_one_at_the_fast_end(catalog: Catalog) -> None:
    # 200 tokens x 4-6 ms + 0.1-0.2 s = 0.9-1.4 s against 1 s
    best = _fastest(catalog, (4.0, 6.0), (0.1, 0.2))
    assert binds(_answer_profile(95.0), best)  # the slow end (1.4 s) is over
    assert not binds(_answer_profile(None), best)  # the fast end (0.9 s) is within
    # no stated target: the assumed per-user floor is not one
    floor = WorkloadProfile(workload="inference").with_values("assumed", None, latency_ms_per_token=100.0)
    assert not binds(floor, best) and not binds(WorkloadProfile(workload="inference"), best)
    assert not binds(_answer_profile(95.0), None)


def test_shorter_answers_is_the_tokens_that_fit_at_the_slow_end(catalog: Catalog) -> None:
    line = shorter_answers_line(_answer_profile(95.0), _fastest(catalog, (4.0, 6.0), (0.1, 0.2)))
    # (1.0 - 0.2) s x 1000 / 6 ms = 133.3 -> 133 tokens
    assert line is not None and "up to 133 tokens" in line and "(yours are 200)" in line
    # the first token alone over the target: nothing to shorten
    assert shorter_answers_line(_answer_profile(95.0), _fastest(catalog, (4.0, 6.0), (0.5, 1.2))) is None


def test_a_70b_answer_target_on_one_cloud_names_latency_and_the_fastest_there() -> None:
    out, advice = _advice(
        "Serve Llama 3.1 70B on GCP only, p99 latency under 1 s for 400-token answers, 30 requests per "
        "minute."
    )
    assert out["recommendation"]["primary"] is None
    assert "latency is what rules each configuration out, not memory" in advice[0]
    assert advice[1].startswith("The fastest under your constraints: ") and " at gcp " in advice[1]
    assert "per 400-token answer" in advice[1] and "over your 1 s target" in advice[1]
    assert any(a.startswith("Shorter answers:") for a in advice)
    assert any(a.startswith("A smaller model") for a in advice)
    assert not any(m in a for a in advice for m in MEMORY_REMEDIES), advice


def test_a_moe_answer_target_on_azure_offers_another_provider_with_its_figure() -> None:
    _out, advice = _advice(
        "Mixtral 8x7B on Azure only, no spot; p95 latency below 2 s for 600-token responses; about 50 "
        "requests per minute."
    )
    assert "latency is what rules" in advice[0]
    other = [a for a in advice if a.startswith("Another provider: without 'only azure'")]
    assert other and "s per 600-token answer" in other[0]
    assert "'no spot'" not in other[0]  # pricing does not move latency: not dropped for this line
    assert any(a.startswith("Quantise the weights to int8") and "s per 600-token answer" in a for a in advice)


def test_a_per_token_target_is_said_in_ms_per_token_without_an_answer_length() -> None:
    _out, advice = _advice(
        "Qwen2.5 72B chat backend, Azure only, users need 400 tokens/s per user streaming, 10 concurrent "
        "users."
    )
    assert "2.5 ms per token (400 tokens/s per user)" in advice[0]
    assert "ms per token" in advice[1] and "per 400-token" not in advice[1]
    assert not any(a.startswith("Shorter answers:") for a in advice)  # no answer length to shorten


def test_a_target_the_fastest_meets_gets_a_pick_not_advice() -> None:
    out, advice = _advice(
        "Inference for Llama 3.1 8B on AWS only, p95 latency under 10 s for 300-token responses, 60 requests "
        "per minute."
    )
    assert out["recommendation"]["primary"] is not None and advice == []


def _serving(catalog: Catalog, **fields: Any) -> Recommendation:
    profile = WorkloadProfile(workload="inference").with_values("stated", None, **fields)
    return recommend(profile=profile, catalog=catalog, settings=QUIET)


def test_the_fastest_figures_are_traced(catalog: Catalog) -> None:
    rec = _serving(
        catalog, model_id="llama-3.1-70b", providers_required=["gcp"], response_target_s=1.0,
        output_tokens=400, latency_ms_per_token=2.5, latency_percentile=99.0, concurrency=8,
    )  # fmt: skip
    assert rec.primary is None and "latency is what rules" in rec.infeasible_advice[0]
    steps = [s.step for s in rec.trace if s.step.startswith("fastest allowed: ")]
    assert steps, "the fastest set-up's serving steps are in the recommendation's trace"


@pytest.mark.parametrize(("gpu", "max_gpus"), [("l4", 1), ("rtx-4090", 2)])
def test_when_memory_binds_the_advice_stays_about_memory(catalog: Catalog, gpu: str, max_gpus: int) -> None:
    # Llama 3.1 405B on one or two small cards: the weights do not fit, whatever the latency asked
    rec = _serving(
        catalog, model_id="llama-3.1-405b", gpus_wanted=[gpu], max_gpus=max_gpus, response_target_s=1.5,
        output_tokens=500, latency_ms_per_token=3.0, latency_percentile=95.0, concurrency=4,
    )  # fmt: skip
    advice = rec.infeasible_advice
    assert rec.primary is None and advice
    assert not any("latency is what rules" in a for a in advice)
    assert not any(a.startswith("The fastest under your constraints") for a in advice)
