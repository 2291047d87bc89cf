"""FP8 weights as the lever for a latency target 16-bit weights miss (expert review 20, R04: Llama 3.1 8B
autocomplete, 1,500 in / 60 out, "p50 latency under 400 ms", got 2x B200 at $9,913 a month, "over at the
slow end" of the target, and never the usual answer: FP8 weights, which held it on 2x GH200 at $3,343).

Decode reads every weight byte once per output token (Pope et al. 2022, "Efficiently Scaling Transformer
Inference"), so 8-bit weights halve the bytes a token reads; on GPUs that compute FP8 the prefill runs at
the FP8 rate too. When the precision was assumed (16-bit), a per-answer or per-token latency target was
stated, and the pick's slow end misses it, the same profile is run again with FP8 weights through the
engine's own path (tools.recommend.run.run_engine); the note names that pick, its time per answer (or per
token) and its monthly cost against the 16-bit pick's, when it holds the target at the slow end or costs
at least SAVING_FRACTION_MIN less. A stated precision is kept as stated (nothing is said); a batch job
has no latency target."""

from __future__ import annotations

from tools import present
from tools.defaults import CatalogView, ResolvedWorkload, resolve_workload
from tools.errors import InputError
from tools.profile import WorkloadProfile
from tools.recommend.caches import Caches
from tools.recommend.candidates import Candidate
from tools.recommend.latency_point import answer_verdict, percentile_words
from tools.recommend.models import RecommendSettings
from tools.recommend.outcome import Outcome
from tools.recommend.run import run_engine
from tools.recommend.serving_plan import answer_seconds

LEVER_PRECISION = "fp8"
SAVING_FRACTION_MIN = 0.2
"""An FP8 pick that still misses the slow end is worth naming only at this much less a month (a lever that
saves a few percent is noise beside the accuracy check it needs)."""
_SAID = ("stated", "inferred")


def _slow_end(c: Candidate, p: WorkloadProfile) -> tuple[float, float, float, str] | None:
    """(fast end, slow end, target, the range in words) of the stated latency on the candidate's replica, or
    None without one."""
    plan = c.serving
    if plan is None or plan.replica is None:
        return None
    t = plan.replica
    if p.response_target_s is not None and p.output_tokens:
        got = answer_seconds(t, p.output_tokens)
        said = f"{present.sig2_span(got)} s per {p.output_tokens:,}-token answer"
        return got.low, got.high, p.response_target_s, said
    if p.latency_ms_per_token is not None and p.status_of("latency_ms_per_token") in _SAID:
        ms = t.ms_per_output_token
        return ms.low, ms.high, p.latency_ms_per_token, f"{ms.low:,.0f}-{ms.high:,.0f} ms per token"
    return None


def fp8_lever_note(
    w: ResolvedWorkload,
    out: Outcome,
    profile: WorkloadProfile,
    catalog: CatalogView,
    settings: RecommendSettings,
    caches: Caches | None,
) -> str | None:
    """The FP8 pick for a latency target the 16-bit pick misses at its slow end (module docstring)."""
    p, c = w.profile, out.primary
    if c is None or not out.engine.inference or out.engine.state.batch_job:
        return None
    if profile.status_of("precision") not in (None, "assumed") or p.precision not in ("bf16", "fp16"):
        return None
    mine = _slow_end(c, p)
    if mine is None or mine[1] <= mine[2]:
        return None
    why = {"precision": "FP8 weights tried for the latency target 16-bit weights miss"}
    tried = profile.with_values("inferred", why, precision=LEVER_PRECISION)
    try:
        out8 = run_engine(resolve_workload(profile=tried, catalog=catalog), catalog, settings, caches)
    except InputError:
        return None
    c8 = out8.primary
    got = _slow_end(c8, out8.engine.p) if c8 is not None else None
    if c8 is None or got is None:
        return None
    cheaper = c8.cost_mid <= c.cost_mid * (1 - SAVING_FRACTION_MIN)
    if got[1] > got[2] and not cheaper:
        return None  # neither holds the target at the slow end nor costs clearly less
    # judged where the target is (tools.recommend.latency_point: p95 at the slow end, p50 at the middle)
    verdict = f"{answer_verdict(p, got[0], got[1], got[2])} your {percentile_words(p)}target"
    return (
        "FP8 weights are the usual lever for this latency target: each output token reads every weight "
        "once, and FP8 halves the bytes (check accuracy on an FP8 checkpoint). With FP8 weights: "
        f"{c8.total_gpus}x {c8.gpu.name} at {c8.offer.provider}, {got[3]}: {verdict}; "
        f"{present.usd_range(c8.cost_usd)} a month, against {present.usd_range(c.cost_usd)} for the 16-bit "
        f"pick ({mine[3]}). Say 'FP8 is fine' to size it that way."
    )
