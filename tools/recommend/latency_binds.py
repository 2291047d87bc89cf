"""When a stated latency target, not memory, rules every serving option out: what binds, the fastest the
allowed offers reach, and remedies that move latency (expert review 19, R09: Mixtral 8x7B on AWS only, "p95
latency under 1.5 s for 500-token responses", was told to quantise or shorten the context, remedies for
memory, and never how close AWS gets).

The fastest a GPU type answers is one request on one engine: no other request shares the decode step
(tools/compute/serving.py at concurrency 1; tools.recommend.ttft_closest does the same for a first-token
target). Every single-node tensor-parallel width that the allowed offers sell and that fits in memory is
tried; on PCIe cards a wider engine need not be faster. The figures are the serving model's own, and the
fastest one's steps go into the recommendation's trace ('fastest allowed: ').

Binding: even the fastest misses the target at the end of its range the planner holds it at (the slow end
for a percentile target, tools.recommend.serving_plan.percentile_answer; else the fast end), so no replica
count or load helps. Remedies then: shorter answers (how many tokens fit the target on the fastest set-up,
at its slow end), a looser target (the engine re-run with the fastest's slow-end answer time: the pick and
its cost), quantised weights (re-run; a quantised model reads fewer bytes per decode step), a smaller model,
and another provider (tools.recommend.relax, said by the caller).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from tools import present
from tools.catalog.schema import GpuSpec
from tools.defaults import CatalogView, ResolvedWorkload, resolve_workload
from tools.errors import InputError
from tools.profile import Status, WorkloadProfile
from tools.ranges import Range
from tools.recommend.candidates import GpuNotes
from tools.recommend.engine import Engine
from tools.recommend.latency_point import percentile_words
from tools.recommend.models import RecommendSettings
from tools.recommend.outcome import Outcome
from tools.recommend.relax import stated_constraints
from tools.recommend.run import run_engine
from tools.recommend.serving_plan import answer_seconds, latency_is_floor
from tools.trace import TraceBuilder

QUANTISED_PRECISIONS = (
    ("int8", "Quantise the weights to int8"),
    ("int4", "Quantise the weights to int4 (GPTQ/AWQ; check accuracy)"),
)
"""Weight precisions tried as latency remedies: decoding is bound by the bytes read per step, so fewer bytes
per weight shorten every step (tools/compute/serving.py)."""


@dataclass(frozen=True)
class Fastest:
    """The fastest single-node engine of one GPU type the allowed offers sell, at one request."""

    gpu: GpuSpec
    n_gpus: int
    providers: tuple[str, ...]
    time: Any  # tools.compute.serving.ServingTime


def _target(p: WorkloadProfile) -> tuple[str, float] | None:
    """('answer', seconds) for a stated per-answer target with an answer length, ('token', ms) for a stated
    per-token one; None without a stated latency target (the assumed per-user floor is not one)."""
    if p.response_target_s is not None and p.output_tokens:
        return "answer", p.response_target_s
    if p.latency_ms_per_token is not None and not latency_is_floor(p):
        return "token", p.latency_ms_per_token
    return None


def _figure(t: Any, p: WorkloadProfile) -> Range:
    """The figure the target is about: seconds per answer, or ms per output token."""
    kind = _target(p)
    if kind is not None and kind[0] == "answer" and p.output_tokens:
        return answer_seconds(t, p.output_tokens)
    ms: Range = t.ms_per_output_token
    return ms


def _allowed_widths(eng: Engine, gpu: GpuSpec) -> tuple[list[int], tuple[str, ...]]:
    """Single-node widths the allowed offers of `gpu` sell (within the user's GPU cap); their providers."""
    offers = eng.offers.offers_kept(gpu, GpuNotes(), eng.catalog.prices_for(gpu.id), TraceBuilder())
    cap = eng.p.max_gpus
    widths = sorted(
        {
            g
            for o in offers
            for g in o.gpus_per_node
            if 0 < g <= gpu.max_gpus_per_node and (cap is None or g <= cap)
        }
    )
    return widths, tuple(sorted({o.provider for o in offers}))


def fastest(eng: Engine, gpus: list[GpuSpec]) -> Fastest | None:
    """Of the GPU types `gpus` (those the constraints allow), the engine whose fast end of the target's
    figure is the lowest at one request; None when none fits in memory at any width offered."""
    best: Fastest | None = None
    for gpu in gpus:
        widths, providers = _allowed_widths(eng, gpu)
        for n in widths:
            if not eng.calc.fit_layouts(gpu, n, 1):
                continue
            t = eng.calc.serving(gpu, n, 1)
            if best is None or _figure(t, eng.p).low < _figure(best.time, eng.p).low:
                best = Fastest(gpu, n, providers, t)
    return best


def binds(p: WorkloadProfile, best: Fastest | None) -> bool:
    """Whether the stated latency target is missed even by the fastest engine, at the end of its range the
    planner holds the target at (the slow end for a percentile target, else the fast end)."""
    kind = _target(p)
    if kind is None or best is None:
        return False
    got = _figure(best.time, p)
    return (got.high if p.latency_percentile is not None else got.low) > kind[1]


def _target_words(p: WorkloadProfile) -> str:
    kind = _target(p)
    assert kind is not None
    if kind[0] == "answer":
        return f"your {percentile_words(p)}{kind[1]:g} s for a {p.output_tokens:,}-token answer"
    return f"your {kind[1]:g} ms per token ({1000.0 / kind[1]:,.0f} tokens/s per user)"


WHERE_FIELDS = frozenset(
    {"providers_required", "providers_excluded", "eu_only", "gpus_wanted", "gpus_excluded"}
)
"""Stated constraints on where and on what the model runs, dropped together for 'another provider or GPU'."""

PROVIDERS_NAMED = 3
"""Providers named for the fastest set-up; more are counted ('and 2 more')."""


def _setup(best: Fastest) -> str:
    """'8x NVIDIA H100 SXM5 80GB at aws as one tensor-parallel engine'."""
    names = best.providers
    where = ", ".join(names[:PROVIDERS_NAMED])
    if len(names) > PROVIDERS_NAMED:
        where += f" and {len(names) - PROVIDERS_NAMED} more"
    engine = " as one tensor-parallel engine" if best.n_gpus > 1 else ""
    return f"{best.n_gpus}x {best.gpu.name} at {where}{engine}"


def _band(best: Fastest, p: WorkloadProfile) -> str:
    t = best.time
    ms = t.ms_per_output_token
    speed = present.tokens_per_s_range(t.per_user_tokens_per_s)
    per_token = f"{present.sig2_span(ms)} ms per token, {speed}"
    kind = _target(p)
    if kind is not None and kind[0] == "answer":
        s = _figure(t, p)
        return f"{present.sig2_span(s)} s per {p.output_tokens:,}-token answer ({per_token})"
    return per_token


def head_line(p: WorkloadProfile, need_gib: float, best: Fastest) -> str:
    """Why nothing fits, when latency binds: the target, and that memory is not it (the fastest set-up holds
    the model: it was chosen among the layouts that fit)."""
    hold = "holds" if best.n_gpus == 1 else "hold"
    return (
        f"Nothing in the catalog meets {_target_words(p)} under your constraints: latency is what rules each "
        f"configuration out, not memory (one GPU would need {need_gib:.1f} GiB; {best.n_gpus}x "
        f"{best.gpu.name} {hold} it)."
    )


def fastest_line(eng: Engine, best: Fastest) -> str:
    """'The fastest under your constraints: 8x ... with a single request on it, 2.4-3.6 s per 500-token
    answer (...), 0.9 s (60%) over your 1.5 s target even at the fast end.'; its steps traced."""
    p = eng.p
    kind = _target(p)
    assert kind is not None
    traced = eng.calc.serving(best.gpu, best.n_gpus, 1, traced=True)
    eng.tb.extend(traced, prefix="fastest allowed: ")
    got, limit = _figure(best.time, p), kind[1]
    unit = "s" if kind[0] == "answer" else "ms per token"
    head = f"The fastest under your constraints: {_setup(best)} with a single request on it, {_band(best, p)}"
    if got.low > limit:
        over = got.low - limit
        return (
            f"{head}: {present.sig2(over)} {unit} ({over / limit:.0%}) over your {limit:g} {unit} target "
            "even at the fast end."
        )
    return (
        f"{head}: it meets your {limit:g} {unit} target only at the fast end, not at the slow end a "
        "percentile target is held at."
    )


def shorter_answers_line(p: WorkloadProfile, best: Fastest) -> str | None:
    """How many answer tokens fit the per-answer target on the fastest set-up at its slow end (TTFT +
    tokens x ms per token); None for a per-token target or when the first token alone is over it."""
    kind = _target(p)
    if kind is None or kind[0] != "answer":
        return None
    t = best.time
    fit = math.floor((kind[1] - t.time_to_first_token_s.high) * 1000.0 / t.ms_per_output_token.high)
    if fit < 1:
        return None
    return (
        f"Shorter answers: on {best.n_gpus}x {best.gpu.name}, answers of up to {fit:,} tokens finish within "
        f"{kind[1]:g} s even at the slow end (yours are {p.output_tokens:,})."
    )


def _looser(p: WorkloadProfile, best: Fastest) -> dict[str, Any]:
    """Profile changes for a target at the fastest set-up's slow end, rounded up to 2 significant figures."""
    kind = _target(p)
    assert kind is not None
    slow = _figure(best.time, p).high
    digits = 1 - int(math.floor(math.log10(slow)))
    loose = math.ceil(slow * 10**digits) / 10**digits
    if kind[0] == "answer":
        assert p.output_tokens
        return {"response_target_s": loose, "latency_ms_per_token": loose * 1000.0 / p.output_tokens}
    return {"latency_ms_per_token": loose}


def _run(
    w: ResolvedWorkload,
    catalog: CatalogView,
    s: RecommendSettings,
    eng: Engine,
    changes: dict[str, Any],
    status: Status = "assumed",
) -> Outcome | None:
    """The primary-only run with `changes` (None when the changed profile is refused)."""
    try:
        changed = resolve_workload(profile=w.profile.with_values(status, None, **changes), catalog=catalog)
        return run_engine(changed, catalog, s, eng.caches, primary_only=True)
    except (InputError, ValueError):
        return None


def _elsewhere_line(
    w: ResolvedWorkload, catalog: CatalogView, s: RecommendSettings, eng: Engine, p: WorkloadProfile
) -> str | None:
    """The fastest engine in the whole catalog once the stated constraints on providers, pricing, region and
    GPU type are dropped (the caller's relax lines say when dropping one yields an option); None without
    such constraints or when it is the same GPU type and count."""
    dropped: dict[str, Any] = {}
    names: list[str] = []
    for label, changes in stated_constraints(p, limits=False):
        if changes.keys() <= WHERE_FIELDS:  # pricing ('no spot') and GPU counts do not move latency
            dropped.update(changes)
            names.append(f"'{label}'")
    if not dropped:
        return None
    out = _run(w, catalog, s, eng, dropped, status="stated")
    if out is None:
        return None
    best = fastest(out.engine, list(catalog.gpus))
    if best is None:
        return None
    kind = _target(p)
    assert kind is not None
    got = _figure(best.time, p)
    verdict = (
        "still over your target even at the fast end"
        if got.low > kind[1]
        else "within your target at the slow end"
        if got.high <= kind[1]
        else "within your target only at the fast end"
    )
    what = "Another provider" if dropped.keys() - {"gpus_wanted", "gpus_excluded"} else "Another GPU"
    return (
        f"{what}: without {' and '.join(names)}, the fastest in the catalog is {_setup(best)}, "
        f"{_band(best, p)}: {verdict}."
    )


def remedy_lines(
    w: ResolvedWorkload,
    catalog: CatalogView,
    settings: RecommendSettings,
    eng: Engine,
    best: Fastest,
    gpus: list[GpuSpec],
) -> list[str]:
    """Remedies that move latency, each with the figures a re-run gives."""
    p = w.profile
    quiet = settings.model_copy(update={"sensitivity": False})
    lines = [x for x in (shorter_answers_line(p, best),) if x]
    changes = _looser(p, best)
    out = _run(w, catalog, quiet, eng, changes, status="stated")  # a target the user would set: as stated
    if out is not None and out.primary is not None:
        c = out.primary
        target = (
            f"{changes['response_target_s']:g} s per answer"
            if "response_target_s" in changes
            else f"{changes['latency_ms_per_token']:g} ms per token"
        )
        lines.append(
            f"A looser target: {target} (the fastest set-up's slow end) allows {c.total_gpus}x {c.gpu.name} "
            f"at {c.offer.provider} for {present.usd_range(c.total_usd)} a month."
        )
    if p.precision in (None, "fp32", "bf16", "fp16"):
        for precision, text in QUANTISED_PRECISIONS:
            q = _run(w, catalog, quiet, eng, {"precision": precision})
            if q is None:
                continue
            if q.primary is not None:
                c = q.primary
                lines.append(
                    f"{text}: {c.total_gpus}x {c.gpu.name} at {c.offer.provider} then meets the target, "
                    f"about {present.usd_range(c.total_usd)} a month."
                )
                break
            quick = fastest(q.engine, gpus)
            if quick is not None:
                band = _band(quick, q.engine.p)
                lines.append(f"{text}: not enough on its own: {_setup(quick)} then gives {band}.")
    elsewhere = _elsewhere_line(w, catalog, quiet, eng, p)
    if elsewhere:
        lines.append(elsewhere)
    lines.append(
        "A smaller model: each decode step reads every active weight once, so the time per token falls with "
        "the bytes the model reads per step."
    )
    return lines
