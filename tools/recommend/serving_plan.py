"""How many replicas of one serving configuration (GPU type x tensor-parallel count) a workload needs,
from tools.compute.serving: the fewest replicas that meet the stated throughput and latency at the
stated concurrency (split evenly over replicas, each within what its KV cache holds); for a batch
generation job (profile.generation_tokens), the fewest that finish by the deadline. An uptime target of
HA_AVAILABILITY or more adds SPARE_REPLICAS (N+1 redundancy) to a serving plan. The GPU filters
a user states (gpus_wanted, gpus_excluded, max_gpus) live here too, for serving and training alike.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from tools import present
from tools.compute.serving import ServingTime
from tools.profile import WorkloadProfile
from tools.ranges import Range
from tools.recommend.latency_point import answer_verdict, percentile_words
from tools.recommend.models import ServingFigures
from tools.recommend.rate_load import rate_load
from tools.recommend.serving_closest import KV_CACHE_SHORT, closest_replicas
from tools.recommend.serving_closest import split_load as _split
from tools.recommend.ttft_target import at_percentile, ttft_range
from tools.recommend.uptime_assumed import uptime_assumed
from tools.units import HOURS_PER_MONTH, ms_to_seconds, seconds_to_ms

ServingFn = Callable[[int], ServingTime]
"""Per-replica serving time at a per-replica concurrency (the calculator, cached by the caller)."""

OFFLINE_CONCURRENCY = 4096
"""A batch job queues every request at once: the replica runs as many as its KV cache and server hold."""

MIN_REPLICA_GAIN = 0.5
"""A replica added for an aggregate throughput target must raise the total by at least half of what one
replica already delivers. Below that, the users' own speed binds, not capacity: at a fixed concurrency
each user's tokens/s is one replica's step time, which fewer users per replica shortens only a little
while decode is memory-bound (Pope et al. 2022), so more replicas multiply the cost for a few percent."""
TARGET_SHORTFALL_KEPT = 0.8
"""A configuration bound by per-user speed that reaches at least 80% of the aggregate target at the fast
end of its range is kept (ranked after those that reach the target) as the 'accept a little less'
answer to 'roughly N tokens/s'; below that it is rejected."""

HA_AVAILABILITY = 0.999
"""Uptime at and above which one replica is not enough. 99.9% allows 43.8 minutes of downtime a month
(0.001 x 730 h): less than replacing a failed GPU node or rolling out a driver, engine or model upgrade
takes, so the target holds only if another replica serves meanwhile. 'High availability', 'HA' and 'no
single point of failure' are read as this level (advisor/extract/rules_availability.py)."""
SPARE_REPLICAS = 1
"""N+1 redundancy: with N replicas needed for the load, deploy N+1, so that any one can fail or be taken
down for an upgrade while the N survivors still carry the load at the stated latency (N+1 redundancy
model, https://www.wykurz.org/book/ch06-redundancy.html; N+2 is the advice for planned maintenance
plus a failure, beyond this planner)."""

TargetStatus = Literal["meets", "maybe", "short"]


@dataclass(frozen=True)
class ServingPlan:
    """Replicas of one configuration and what they deliver together; `why_not` when none works."""

    replicas: int
    per_replica_concurrency: int
    replica: ServingTime
    total_tokens_per_s: Range
    job_hours: Range | None = None
    why_not: str | None = None
    latency_at_risk: bool = False
    ttft_at_risk: bool = False
    """The time to the first token meets the stated target only at the fast end of its range."""
    target_status: TargetStatus | None = None
    """Against the aggregate tokens/s target: meets at the slow end, maybe (only at the fast end) or
    short; None without a target."""
    per_user_bound: bool = False
    """The stated concurrency caps the total: users x per-user tokens/s, which more replicas barely raise."""
    replicas_to_meet: int | None = None
    """Per-user bound: replicas that would meet the target at the slow end anyway (None: none up to the
    most considered)."""
    concurrency: int | None = None
    """Requests in flight over all replicas (the stated concurrency; None when sized for a target)."""
    latency_max_concurrency: int | None = None
    """Most requests per replica within the latency target at the slow end (None without a target)."""
    sized_for: int | None = None
    """Requests per replica the memory is sized for when a stated rate runs a lighter load (rate_load)."""
    spare_left_out: bool = False
    """An assumed uptime's spare replica left out: the GPU cap had no room for it (serving_spare says so)."""
    latency_short: bool = False
    """Misses the stated per-token target even at the fast end: kept as the closest (serving_closest)."""
    spare_replicas: int = 0
    """Replicas beyond those the load needs (N+1 for an uptime target); the figures are the survivors'
    (`replicas - spare_replicas` carrying the whole load)."""

    @property
    def per_user_tokens_per_s(self) -> Range:
        """Tokens/s each user sees on the busiest replica (1000 / ms per output token)."""
        return self.replica.per_user_tokens_per_s


def gpu_ruled_out(gpu_id: str, p: WorkloadProfile) -> str | None:
    """Why the user's own GPU filters rule this GPU type out ('on H100s', 'no consumer cards'), or None."""
    if p.gpus_wanted and gpu_id not in p.gpus_wanted:
        return f"not among the GPUs asked for ({', '.join(p.gpus_wanted)})"
    if gpu_id in p.gpus_excluded:
        return "ruled out by the request"
    return None


def within_max_gpus(total_gpus: int, p: WorkloadProfile) -> bool:
    """Whether a configuration's GPU count (replicas included) respects the user's max_gpus."""
    return p.max_gpus is None or total_gpus <= p.max_gpus


def _job(serve: ServingFn, p: WorkloadProfile, max_replicas: int) -> ServingPlan:
    assert p.generation_tokens is not None
    t = serve(OFFLINE_CONCURRENCY)
    deadline = p.deadline_hours
    best: ServingPlan | None = None
    for r in range(1, max_replicas + 1):
        total = t.output_tokens_per_s.scale(r)
        hours = Range(
            low=p.generation_tokens / total.high / 3600, high=p.generation_tokens / total.low / 3600
        )
        best = ServingPlan(r, t.live_sequences, t, total, job_hours=hours)
        if deadline is None or hours.high <= deadline:
            return best
    assert best is not None
    return best  # misses the deadline even at max_replicas: the deadline check says so


def _best_concurrency(
    serve: ServingFn,
    latency_ms: float | None,
    ttft_s: float | None = None,
    answer: tuple[float, int] | None = None,
    p: WorkloadProfile | None = None,
) -> int:
    """No stated concurrency but a throughput target: the largest per-replica load the KV cache holds
    and the latency, time-to-first-token and percentile answer-time targets allow (throughput grows with
    load)."""
    cap = max(1, serve(OFFLINE_CONCURRENCY).max_concurrency)
    if latency_ms is not None:
        cap = _latency_cap(serve, latency_ms, cap)
    if ttft_s is not None and cap > 0:
        cap = _ttft_cap(serve, ttft_s, cap, p)
    if answer is not None and cap > 0:
        cap = _load_cap(lambda n: answer_seconds(serve(n), answer[1]).high <= answer[0], cap)
    return cap


def percentile_answer(p: WorkloadProfile) -> tuple[float, int] | None:
    """(seconds, answer tokens) that a whole answer must take at the SLOW end of the predicted range: a
    percentile target ('p95 latency under 4 s for a 200-token answer'): 95 of 100 requests must finish in
    time, and the range's slow end is the busy moment (expert review 11, R08: 2.3-4.9 s was the primary for
    'p95 under 4 s'). None without a percentile, a per-answer target or an answer length; a median or
    typical target is judged in the middle of the range (response_note)."""
    if p.latency_percentile is None or p.response_target_s is None or p.output_tokens is None:
        return None
    return p.response_target_s, p.output_tokens


def answer_seconds(t: ServingTime, output_tokens: int) -> Range:
    """A whole answer's time: time to first token + answer tokens x ms per output token (the serving
    model's own two figures, tools/compute/serving.py)."""
    ttft, ms = t.time_to_first_token_s, t.ms_per_output_token
    decode_s = ms.scale(ms_to_seconds(output_tokens))
    return Range(low=ttft.low + decode_s.low, high=ttft.high + decode_s.high)


def _ttft_cap(serve: ServingFn, ttft_s: float, cap: int, p: WorkloadProfile | None = None) -> int:
    """The most requests per replica (up to `cap`) whose time to first token stays within the target at
    the slow end; 0 when even one request misses it (it grows with load: prompts queue behind others)."""
    if p is not None:  # a percentile target is judged under steady arrivals (tools/recommend/ttft_target.py)
        return _load_cap(lambda n: ttft_range(serve(n), p).high <= ttft_s, cap)
    return _load_cap(lambda n: serve(n).time_to_first_token_s.high <= ttft_s, cap)


def _latency_cap(serve: ServingFn, latency_ms: float, cap: int) -> int:
    """The most requests per replica (up to `cap`) whose ms per token stays within the target at the
    slow end; 0 when even one request misses it."""
    return _load_cap(lambda n: serve(n).ms_per_output_token.high <= latency_ms, cap)


def _load_cap(within: Callable[[int], bool], cap: int) -> int:
    """The largest load in 1..cap that is `within` a target that gets harder with load (bisection); 0 when
    even one request is not."""
    if within(cap):
        return cap
    if not within(1):
        return 0
    lo, hi = 1, cap
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if within(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def latency_is_floor(p: WorkloadProfile) -> bool:
    """Whether the latency is the per-user floor tools.defaults assumes for interactive serving (none was
    stated): a minimum the configuration must meet at the slow end of its range, where a stated target
    is met at the fast end with the slow end named as a risk."""
    return p.latency_ms_per_token is not None and p.status_of("latency_ms_per_token") == "assumed"


def needs_spare(p: WorkloadProfile) -> bool:
    """Whether the uptime target asks for a spare replica (a batch job is re-run, not failed over)."""
    return not p.generation_tokens and (p.availability_target or 0.0) >= HA_AVAILABILITY


def downtime_minutes_per_month(availability: float) -> float:
    """Downtime an uptime fraction allows in a 730 h month, minutes: (1 - availability) x 730 x 60."""
    return (1.0 - availability) * HOURS_PER_MONTH * 60.0


def plan_serving(
    serve: ServingFn, p: WorkloadProfile, n_gpus: int, max_replicas: int, concurrency_stated: bool
) -> ServingPlan:
    """The fewest replicas of `n_gpus` GPUs that meet the profile's targets, or why none does; with an
    uptime target of HA_AVAILABILITY or more, SPARE_REPLICAS more (the others carry the load without it)."""
    if p.generation_tokens:
        return _job(serve, p, max_replicas)
    plan = _plan_load(serve, p, n_gpus, max_replicas, concurrency_stated)
    if plan.why_not is not None or not needs_spare(p):
        return plan
    if plan.replicas + SPARE_REPLICAS > max_replicas:
        if uptime_assumed(p):  # production wording, no stated figure: a GPU cap the user stated wins
            return replace(plan, spare_left_out=True)
        return replace(plan, why_not=f"needs {plan.replicas} replicas plus a spare for the uptime target")
    return replace(plan, replicas=plan.replicas + SPARE_REPLICAS, spare_replicas=SPARE_REPLICAS)


def _plan_load(
    serve: ServingFn, p: WorkloadProfile, n_gpus: int, max_replicas: int, concurrency_stated: bool
) -> ServingPlan:
    target, latency, ttft = p.target_tokens_per_s, p.latency_ms_per_token, p.ttft_target_s
    answer = percentile_answer(p)
    if target and not concurrency_stated:
        per = _best_concurrency(serve, latency, ttft, answer, p)
        if per == 0:  # even one request misses a target (serve(0) is no load at all)
            t = serve(1)
            if latency is not None and t.ms_per_output_token.high > latency:
                why = (
                    f"{t.ms_per_output_token.low:,.0f}-{t.ms_per_output_token.high:,.0f} ms per token with "
                    f"one request on {n_gpus} GPU(s): slower than the {latency:g} ms/token latency target"
                )
            elif answer is not None and answer_seconds(t, answer[1]).high > answer[0]:
                why = _answer_why(t, answer, p, n_gpus)
            else:
                why = f"{ttft_text(t)} with one request on {n_gpus} GPU(s): over the {ttft:g} s target"
            return _none(t, 1, 1, why)
        t = serve(per)
        # a rate one replica carries runs at the load that delivers it (review 14, R11); its capacity (memory,
        # tokens/s) stays the load it is sized for
        cap_t, sized_for = t, per
        per = rate_load(serve, target, per) if t.output_tokens_per_s.low > target else per
        t = serve(per)
        replicas = max(1, math.ceil(target / t.output_tokens_per_s.low))
        if replicas > max_replicas:
            return _none(
                t, per, replicas, f"needs {replicas} replicas of {n_gpus} GPU(s) for {target:,.0f} tokens/s"
            )
        at_risk = bool(latency and t.ms_per_output_token.high > latency)
        total = cap_t.output_tokens_per_s.scale(replicas)
        return ServingPlan(
            replicas,
            per,
            t,
            total,
            latency_at_risk=at_risk,
            ttft_at_risk=bool(ttft and ttft_range(t, p).high > ttft),
            target_status="meets",
            sized_for=sized_for,
        )
    floor = latency_is_floor(p)
    if latency and not floor and p.latency_percentile is None and not p.budget_usd:
        # a stated per-user speed is held at the slow end when some replica count reaches it there (review 14,
        # R19: 2x GH200 at 32-54 tokens/s for 40 asked, a third replica meets it), else at the fast end with
        # the risk named; under a budget targets_unmet.py says plainly which target the pick relaxes
        strict = _users_plan(serve, p, n_gpus, max_replicas, slow=True)
        if strict.why_not is None:
            return strict
    slow = floor or p.latency_percentile is not None
    plan = _users_plan(serve, p, n_gpus, max_replicas, slow=slow)
    if plan.why_not is not None and latency and not slow and p.gpus_wanted:
        got = closest_replicas(serve, p, max_replicas)  # the closest on the GPUs named (serving_closest)
        if got is None:
            return plan
        kept = _with_ttft(_plan(got[0], got[1], got[2], latency, p.concurrency or 1), ttft, p)
        return replace(kept, latency_short=True)
    if plan.why_not is None or not (ttft and floor and p.latency_percentile is None):
        return plan
    # a stated TTFT no replica count holds at the slow end (every prompt at once) is held in the middle of
    # its range, else at its fast end, with the risk named (enumerate.py), as a stated per-user speed is
    # (review 5, R06), rather than 'nothing fits' (srv15: NeMo 12B, 120 x 6,000-token prompts, 1 s on L40S)
    for edge in ("mid", "low"):
        eased = _users_plan(serve, p, n_gpus, max_replicas, slow=slow, edge=edge)
        if eased.why_not is None:
            return eased
    return plan


def _users_plan(
    serve: ServingFn, p: WorkloadProfile, n_gpus: int, max_replicas: int, *, slow: bool, edge: str = ""
) -> ServingPlan:
    """The fewest replicas that hold the stated users within the targets; the per-token latency held at
    the slow end of its range when `slow`, else at the fast end; the TTFT at `edge` (a Range end) if given."""
    target, latency, ttft = p.target_tokens_per_s, p.latency_ms_per_token, p.ttft_target_s
    answer = percentile_answer(p)
    floor, answer_pct = latency_is_floor(p), p.latency_percentile is not None
    total_conc = p.concurrency or 1
    top = max(1, min(max_replicas, total_conc))  # more replicas than requests serve nobody
    why = ""
    for r in range(1, top + 1):
        t, total = _split(serve, total_conc, r)
        per = t.concurrency
        if per > max(t.max_concurrency, 1):
            why = f"{per} requests per replica {KV_CACHE_SHORT} ({t.max_concurrency})"
            continue
        if latency and (t.ms_per_output_token.high if slow else t.ms_per_output_token.low) > latency:
            why = _floor_why(t, n_gpus, latency) if floor else (
                f"{t.ms_per_output_token.low:,.0f}-{t.ms_per_output_token.high:,.0f} ms per token at {per} "
                f"requests per replica of {n_gpus} GPU(s); the {latency:g} ms/token latency target needs "
                f"{1000 / latency:,.0f} tokens/s per user"
            )  # fmt: skip
            continue
        # the assumed floor and a percentile target ('p95 ...', expert review 11, R08) hold the first token at
        # the slow end, a stated target at the fast end
        first = ttft_range(t, p)
        if ttft and getattr(first, edge or ("high" if floor or answer_pct else "low")) > ttft:
            why = f"{ttft_text(t)} at {per} requests per replica of {n_gpus} GPU(s); the target is {ttft:g} s"
            continue
        if answer is not None and answer_seconds(t, answer[1]).high > answer[0]:
            why = _answer_why(t, answer, p, n_gpus)
            continue  # a percentile target holds at the slow end: more replicas, fewer requests each
        if not target:
            return _with_ttft(_plan(r, t, total, latency, total_conc), ttft, p)
        return _with_ttft(_for_target(serve, total_conc, r, top, target, latency, n_gpus), ttft, p)
    t = serve(math.ceil(total_conc / top))
    return _none(t, t.concurrency, top, f"{why} (at up to {top} replicas)")


def _floor_why(t: ServingTime, n_gpus: int, latency_ms: float) -> str:
    """Why a replica misses the assumed per-user floor (1000 ms / ms per token = tokens/s per user)."""
    per_user = t.per_user_tokens_per_s
    return (
        f"{per_user.low:,.1f}-{per_user.high:,.1f} tokens/s per user at {t.concurrency} requests per replica "
        f"of {n_gpus} GPU(s): under the assumed floor of {1000 / latency_ms:,.0f} tokens/s per user (faster "
        "than reading; say yours)"
    )


def _answer_why(t: ServingTime, answer: tuple[float, int], p: WorkloadProfile, n_gpus: int) -> str:
    """Why a replica misses a percentile answer-time target at the slow end."""
    s = answer_seconds(t, answer[1])
    return (
        f"{present.sig2_span(s)} s per {answer[1]:,}-token answer at {t.concurrency} requests per "
        f"replica of {n_gpus} GPU(s): over your {percentile_words(p)}{answer[0]:g} s target at the slow end"
    )


def latency_source(p: WorkloadProfile) -> str | None:
    """'your p95 4 s for a 200-token answer' when the ms/token target was derived from the user's answer
    time over the answer length (advisor/extract/rules_serving_io.py), else None."""
    if p.status_of("latency_ms_per_token") != "inferred" or p.latency_ms_per_token is None:
        return None
    if p.response_target_s is None or not p.output_tokens:
        return None
    target_ms_per_token = seconds_to_ms(p.response_target_s / p.output_tokens)
    if not math.isclose(p.latency_ms_per_token, target_ms_per_token, rel_tol=1e-6):
        return None
    return f"your {percentile_words(p)}{p.response_target_s:g} s for a {p.output_tokens:,}-token answer"


def arrivals_words(concurrency: int) -> str:
    """'the slow end: all 20 prompts arriving at once': what the TTFT band's slow end assumes
    (tools/compute/serving_steps.py `time_to_first_token`, its wave term; tools/recommend/ttft_burst.py)."""
    return f"the slow end: all {concurrency} prompts arriving at once"


def ttft_note(plan: ServingPlan | None, p: WorkloadProfile) -> str | None:
    """The time to first token against the stated target, in words (None without a target or plan)."""
    if plan is None or p.ttft_target_s is None or plan.why_not or plan.job_hours is not None:
        return None
    t = plan.replica
    first = ttft_range(t, p)
    verdict = "within" if first.high <= p.ttft_target_s else "over at the slow end of"
    share = -(-t.concurrency // t.engine_copies)  # one engine copy's requests (tools.compute.serving_copies)
    each = f", {share} on each of {t.engine_copies} engines," if t.engine_copies > 1 else ""
    if at_percentile(p):
        # steady arrivals: the percentile of prefill + queue wait (tools/compute/ttft_percentile.py)
        return (
            f"{present.sig2_span(first)} s to the first token at the {percentile_words(p).strip()} "
            f"with {t.concurrency} requests per replica{each} arriving steadily (prefill + queue wait): "
            f"{verdict} your {percentile_words(p)}{p.ttft_target_s:g} s target"
        )
    at_once = f" ({arrivals_words(share)}{' on an engine' if each else ''})" if share > 1 else ""
    return (
        f"{ttft_text(t)} at {t.concurrency} requests per replica{each}{at_once}: {verdict} your "
        f"{percentile_words(p)}"
        f"{p.ttft_target_s:g} s "
        "target"
    )


def response_note(plan: ServingPlan | None, p: WorkloadProfile) -> str | None:
    """A whole answer's time against the stated per-answer target (expert review 7, R07: "p95 latency
    under 2 s" was never checked): seconds per answer = time to first token + output tokens x ms per token
    (the serving model's own two figures, tools/compute/serving.py); without an answer length, how many
    tokens fit in the target at the slow end. None without a target or a plan."""
    target = p.response_target_s
    if plan is None or target is None or plan.why_not or plan.job_hours is not None:
        return None
    t = plan.replica
    ttft, ms = t.time_to_first_token_s, t.ms_per_output_token
    if p.output_tokens is None:
        fit = max(0, math.floor(seconds_to_ms(target - ttft.high) / ms.high))
        return (
            f"{ttft_text(t)} and {ms.low:,.0f}-{ms.high:,.0f} ms per token: answers of up to {fit:,} tokens "
            f"finish within your {target:g} s even at the slow end"
        )
    n = p.output_tokens
    s = answer_seconds(t, n)
    low, high = s.low, s.high
    verdict = answer_verdict(p, low, high, target)  # p95 at the slow end, p50 at the middle
    return (
        f"{present.sig2(low)}-{present.sig2(high)} s per {n:,}-token answer ({ttft_text(t)} + {n:,} x "
        f"{ms.low:,.0f}-{ms.high:,.0f} ms per token): {verdict} your {percentile_words(p)}{target:g} s target"
    )


def ttft_text(t: ServingTime) -> str:
    """The replica's time to first token in words: '0.19-6.2 s to the first token'."""
    ttft = t.time_to_first_token_s
    return f"{present.sig2_span(ttft)} s to the first token"


def _with_ttft(plan: ServingPlan, ttft_s: float | None, p: WorkloadProfile) -> ServingPlan:
    """The plan marked at risk when its time to first token meets the target only at the fast end."""
    if ttft_s is None or plan.why_not:
        return plan
    return replace(plan, ttft_at_risk=ttft_range(plan.replica, p).high > ttft_s)


def _plan(
    r: int,
    t: ServingTime,
    total: Range,
    latency: float | None,
    conc: int,
    status: TargetStatus | None = None,
    meet: int | None = None,
) -> ServingPlan:
    return ServingPlan(
        r,
        t.concurrency,
        t,
        total,
        latency_at_risk=bool(latency and t.ms_per_output_token.high > latency),
        target_status=status,
        per_user_bound=status in ("maybe", "short"),
        replicas_to_meet=meet,
        concurrency=conc,
    )


def _for_target(
    serve: ServingFn,
    conc: int,
    r_cap: int,
    top: int,
    target: float,
    latency: float | None,
    n_gpus: int,
) -> ServingPlan:
    """From the fewest replicas that hold `conc` requests within the latency target, add replicas for the
    aggregate target while each pays for itself (MIN_REPLICA_GAIN); past that the target is a per-user
    speed the configuration cannot reach by replication, and the plan says how far it gets."""
    r = r_cap
    t, total = _split(serve, conc, r)
    while total.low < target and r < top:
        t2, total2 = _split(serve, conc, r + 1)
        if total2.mid - total.mid < MIN_REPLICA_GAIN * total.mid / r:
            break
        r, t, total = r + 1, t2, total2
    if total.low >= target:
        return _plan(r, t, total, latency, conc, "meets")
    meet = next((k for k in range(r + 1, top + 1) if _split(serve, conc, k)[1].low >= target), None)
    status: TargetStatus = "maybe" if total.high >= target else "short"
    if total.high < TARGET_SHORTFALL_KEPT * target:
        per_user = t.per_user_tokens_per_s
        return _none(
            t,
            t.concurrency,
            r,
            f"{conc} users at {per_user.low:,.0f}-{per_user.high:,.0f} tokens/s each give "
            f"{total.low:,.0f}-{total.high:,.0f} tokens/s on {r} replica(s) of {n_gpus} GPU(s); "
            f"{target:,.0f} needs {target / conc:,.0f} each, which more replicas barely raise",
        )
    return _plan(r, t, total, latency, conc, status, meet)


def with_latency_cap(
    serve: ServingFn, plan: ServingPlan, latency_ms: float | None, answer: tuple[float, int] | None = None
) -> ServingPlan:
    """The plan with the load per replica at which the latency target binds (for the headroom): the
    per-token latency, and a percentile answer time at its slow end (percentile_answer) when stated."""
    if (latency_ms is None and answer is None) or plan.why_not or plan.job_hours is not None:
        return plan
    cap = max(1, plan.replica.max_concurrency)
    if latency_ms is not None:
        cap = _latency_cap(serve, latency_ms, cap)
    if answer is not None:
        cap = _load_cap(lambda n: answer_seconds(serve(n), answer[1]).high <= answer[0], cap)
    return replace(plan, latency_max_concurrency=cap)


def serving_figures(
    plan: ServingPlan | None,
    tp: int,
    pp: int,
    latency_ms: float | None,
    assumed: bool = False,
    waived: bool = False,
    source: str | None = None,
) -> ServingFigures | None:
    """The plan's per-replica and per-user figures and its headroom, for the Option."""
    if plan is None:
        return None
    t = plan.replica
    server_cap = t.framework_max_batch
    limit = t.max_concurrency
    binds: Literal["kv_cache", "server_max_batch", "latency_target"] = (
        "kv_cache" if t.max_concurrency < server_cap else "server_max_batch"
    )
    lat_cap = plan.latency_max_concurrency
    if lat_cap is not None and lat_cap < limit:
        limit, binds = lat_cap, "latency_target"
    return ServingFigures(
        replicas=plan.replicas,
        tensor_parallel=tp,
        pipeline_stages=pp,
        engine_copies=t.engine_copies,
        framework=t.framework,
        concurrency=plan.concurrency,
        concurrency_per_replica=t.live_sequences,
        replica_tokens_per_s=t.output_tokens_per_s,
        per_user_tokens_per_s=t.per_user_tokens_per_s,
        ms_per_output_token=t.ms_per_output_token,
        time_to_first_token_s=t.time_to_first_token_s,
        max_concurrency_per_replica=t.max_concurrency,
        concurrency_limit_per_replica=limit,
        headroom_requests_per_replica=max(0, limit - t.concurrency),
        binds=binds,
        latency_target_ms=latency_ms,
        latency_target_assumed=assumed,
        latency_target_waived=waived,
        latency_target_source=source,
        target_status=plan.target_status,
        spare_replicas=plan.spare_replicas,
        batch_job=plan.job_hours is not None,
    )


def per_user_note(plan: ServingPlan | None, target: float | None, n_gpus: int, cost_usd: Range) -> str | None:
    """What a per-user-bound aggregate target means, in words: the speed each user needs, what one
    replica gives, and what meeting it by replication would cost (`cost_usd`: this plan's, per month)."""
    if plan is None or not plan.per_user_bound or not target or not plan.concurrency:
        return None
    r, conc = plan.replicas, plan.concurrency
    what = "falls short of it" if plan.target_status == "short" else "reaches it only at the fast end"
    replicas = f"one replica of {n_gpus} GPU(s) gives" if r == 1 else f"{r} replicas of {n_gpus} GPU(s) give"
    text = (
        f"{present.count(target)} tokens/s from {conc} concurrent users is "
        f"{present.count(target / conc)} tokens/s each; {replicas} "
        f"{present.tokens_per_s_range(plan.per_user_tokens_per_s)} per user "
        f"({present.tokens_per_s_range(plan.total_tokens_per_s)} in total), so it {what}. Each user's speed "
        "is one replica's step time, which more replicas barely raise"
    )
    m = plan.replicas_to_meet
    if m is None:
        return text + "; no replica count considered meets it at the slow end"
    cost = present.usd_range(cost_usd.scale(m / r))
    return text + (
        f"; meeting it even at the slow end needs {m} replicas ({m * n_gpus} GPUs, {cost} per month)"
    )


def _none(t: ServingTime, per: int, replicas: int, why: str) -> ServingPlan:
    return ServingPlan(replicas, per, t, t.output_tokens_per_s.scale(replicas), why_not=why)
