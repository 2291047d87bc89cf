"""One engine run: enumerate (or re-price a kept enumeration), check, cost, and select."""

from __future__ import annotations

from tools.catalog.schema import PriceRecord
from tools.defaults import CatalogView, ResolvedWorkload
from tools.recommend.caches import Caches
from tools.recommend.candidates import Candidate, GpuNotes
from tools.recommend.engine import Engine
from tools.recommend.models import RecommendSettings
from tools.recommend.outcome import Outcome
from tools.recommend.rank import select
from tools.recommend.serving_plan import gpu_ruled_out, latency_is_floor


def run_engine(
    w: ResolvedWorkload,
    catalog: CatalogView,
    settings: RecommendSettings,
    caches: Caches | None = None,
    *,
    reprice: Outcome | None = None,
    primary_only: bool = False,
) -> Outcome:
    """Enumerate, check, cost and rank; no sensitivity or expectation checks (see recommend).
    `caches` shares calculator results with other runs (sensitivity, later requests); among them the
    enumerated candidates before pricing (RunState.enumeration_key): a run whose workload differs from an
    earlier one only in cost inputs (data location and caching, runs per month, dataset size on disk,
    budget) prices that run's candidates again, with its enumeration's trace, instead of enumerating the
    catalog (the same candidates, fits and times). `reprice`: such a run, named explicitly. `primary_only`: no
    alternatives or rejections (a sensitivity re-run reads the primary only)."""
    eng = Engine(w, catalog, settings, caches)
    p = eng.p
    by_gpu: dict[str, list[PriceRecord]] = {}
    for rec in catalog.prices:
        by_gpu.setdefault(rec.gpu, []).append(rec)
    notes_by_gpu: dict[str, GpuNotes] = {}
    feasible: list[Candidate] = []
    considered = 0
    # a primary-only run differing from an earlier one only in the budget: its costed candidates
    costed = eng.stored_costing() if primary_only else None
    stored = reprice.engine.enumeration if reprice is not None else eng.stored_enumeration()
    if costed is not None:
        eng.pricer.owned_idle_note = costed.owned_idle_note
        stored = costed.enumeration
    elif primary_only:
        eng.start_costing()
    for gpu in catalog.gpus:
        ruled_out = gpu_ruled_out(gpu.id, p)
        if ruled_out:  # the user's own filter ('on H100s'): never enumerated, said in the notes
            notes_by_gpu[gpu.id] = GpuNotes(constraint=ruled_out)
            continue
        if costed is not None:
            cands, notes, n_offers = eng.limited(costed, gpu)
        elif stored is not None:
            cands, notes, n_offers = eng.repriced(stored, gpu)
        else:
            cands, notes, n_offers = eng.enumerate_gpu(gpu, by_gpu.get(gpu.id, []))
        notes_by_gpu[gpu.id] = notes
        considered += n_offers
        if p.target_tokens_per_s and eng.inference:
            slow = [
                c
                for c in cands
                if c.decode_tokens_per_s
                and c.decode_tokens_per_s.high < p.target_tokens_per_s
                and not c.short_of_target  # kept on purpose: close, bound by per-user speed
            ]
            if slow and len(slow) == len(cands):
                best = max(slow, key=lambda c: c.decode_tokens_per_s.high if c.decode_tokens_per_s else 0.0)
                rate = best.decode_tokens_per_s.high if best.decode_tokens_per_s else 0.0
                notes.throughput = (
                    f"{best.layout.n_gpus} GPU(s) decode at most {rate:,.0f} tokens/s, "
                    f"target {p.target_tokens_per_s:,.0f}"
                )
            cands = [c for c in cands if c not in slow]
        feasible += cands

    if eng.inference and p.ttft_target_s and latency_is_floor(p) and p.latency_percentile is None:
        # under the assumed per-user floor a stated TTFT is held at the slow end; a layout holding it only in
        # the middle or at the fast end (serving_plan._plan_load) stands only when none holds it nearer the
        # slow end (srv15: NeMo 12B on L40S, 2 s: 40 GPUs hold it, 8 only at the fast end)
        edge = {c.key: _ttft_edge(c, p.ttft_target_s) for c in feasible}
        feasible = [c for c in feasible if edge[c.key] == min(edge.values(), default=0)]
    if stored is None:
        eng.store_enumeration()
    if costed is None and primary_only:
        eng.store_costing()
    return select(eng, feasible, notes_by_gpu, considered, primary_only=primary_only)


def _ttft_edge(c: Candidate, ttft_s: float) -> int:
    """Where a serving option holds the TTFT target: 0 at the slow end of its range, 1 in its middle, 2 only
    at its fast end."""
    plan = c.serving
    if plan is None or not plan.ttft_at_risk:
        return 0
    return 1 if plan.replica.time_to_first_token_s.mid <= ttft_s else 2
