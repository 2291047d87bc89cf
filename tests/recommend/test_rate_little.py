"""A stated request rate turns into requests in flight by Little's law with the serving model's own time
per request, TTFT + output tokens x ms per token (expert review 19, findings 3-4; tools/recommend/
rate_load.py), and the formula is in the recommendation's trace."""

from __future__ import annotations

from tools.catalog.load import Catalog
from tools.compute.serving import ServingTime
from tools.profile import WorkloadProfile
from tools.ranges import Range
from tools.recommend import recommend
from tools.recommend.models import RecommendSettings
from tools.recommend.rate_load import rate_load, request_seconds, served_tokens_per_s

QUIET = RecommendSettings(sensitivity=False)
LITTLE = "requests in flight per replica (Little's law)"


def _profile(prompt_tokens: int) -> WorkloadProfile:
    # P11 of review 19: 3 requests/s at peak, 250 output tokens each = 750 tokens/s
    return WorkloadProfile(workload="inference", model_id="llama-3.1-8b", prompt_tokens=prompt_tokens,
                           output_tokens=250, target_tokens_per_s=750.0)  # fmt: skip


def _little(catalog: Catalog, prompt_tokens: int) -> tuple[float, int]:
    rec = recommend(profile=_profile(prompt_tokens), catalog=catalog, settings=QUIET)
    step = next(s for s in rec.trace if s.step == LITTLE)
    assert rec.primary is not None and rec.primary.serving is not None
    sized = step.inputs["sized_at_requests_in_flight"]
    assert isinstance(step.output, float) and isinstance(sized, int)
    return step.output, sized


def test_the_rate_is_sized_by_littles_law_and_traced(catalog: Catalog) -> None:
    in_flight, sized = _little(catalog, 800)
    # the load the plan runs each replica at holds the requests the rate keeps in flight (search: fewest such)
    assert in_flight <= sized < in_flight + 2
    assert sized < 750  # not one request per token/s, nor the 3 requests/s read as 3 in flight (P11)
    assert sized > 3


def test_a_long_prompt_keeps_more_requests_in_flight(catalog: Catalog) -> None:
    short, _ = _little(catalog, 800)
    long, _ = _little(catalog, 60_000)
    assert long > short  # the first token of a 60k prompt takes longer: each request is in the system longer


def _fake(conc: int, first_s: float) -> ServingTime:
    ms = 20.0  # 50 tokens/s per user at any load: tokens/s = conc x 50
    per_user = 1000.0 / ms
    return ServingTime(
        n_gpus=1, concurrency=conc, live_sequences=conc, max_concurrency=512, framework_max_batch=256,
        prompt_tokens=1000, output_tokens=100,
        output_tokens_per_s=Range(low=conc * per_user, high=conc * per_user),
        ms_per_output_token=Range(low=ms, high=ms), time_to_first_token_s=Range(low=first_s, high=first_s),
        per_user_tokens_per_s=Range(low=per_user, high=per_user), decode_bound="memory_bandwidth",
        framework="vllm", weights_fit=True, prefill_s=Range(low=first_s, high=first_s),
    )  # fmt: skip


def test_rate_load_is_littles_law_on_a_fixed_service_time() -> None:
    # 10 requests/s x 100 tokens = 1,000 tokens/s; a request takes 1 s to its first token + 100 x 20 ms = 3 s:
    # L = 10 x 3 = 30 in flight (without the first token it would be 10 x 2 = 20)
    assert request_seconds(_fake(1, 1.0)) == (1.0, 2.0)
    assert served_tokens_per_s(_fake(30, 1.0)) == 1000.0
    assert rate_load(lambda c: _fake(c, 1.0), 1000.0, 512) == 30
    assert rate_load(lambda c: _fake(c, 0.0), 1000.0, 512) == 20
    assert rate_load(lambda c: _fake(c, 1.0), 1e9, 64) == 64  # capped
