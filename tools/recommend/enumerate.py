"""Enumerating one run's candidates: every offer of a GPU type at the GPU counts it offers, with the
memory fit, the interconnect check and the time (or serving throughput), pruned to the counts worth
showing; then priced (tools.recommend.pricing). A later run re-prices a kept enumeration (`repriced`)
or applies its own budget to kept costed candidates (`limited`) instead of enumerating again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol, TypeVar

from tools import present
from tools.catalog.schema import GpuSpec, PriceRecord
from tools.ranges import Range
from tools.recommend import memory_rule
from tools.recommend.caches import CostedRun, EnumeratedGpu, Enumeration
from tools.recommend.calculators import Calculators
from tools.recommend.candidates import (
    Candidate,
    GpuNotes,
    Layout,
    Offer,
    gpu_counts,
    layouts_for,
    memory_method,
)
from tools.recommend.models import YOURS_PROVIDER, MemoryFit, TopologySummary
from tools.recommend.offers import OfferSelector
from tools.recommend.pricing import Pricer
from tools.recommend.risk import (
    RISK_LIMIT_MAYBE,
    RISK_TARGET_FAST_MISS,
    RISK_TARGET_MID_MISS,
    assess_risk,
    deadline_status,
)
from tools.recommend.serving_closest import latency_short_risk
from tools.recommend.serving_load import ServingLoad, with_fewest_gpus
from tools.recommend.serving_plan import ServingPlan, latency_source, ttft_text, within_max_gpus
from tools.recommend.state import Part, RunState
from tools.trace import TraceBuilder

PRACTICAL_WALL_HOURS = 720.0
"""The 'cheapest' alternative must finish within a month (or the primary's time, if longer): a
cheaper configuration that runs for half a year is not a plan a buyer would take."""

_ZERO_RANGE = Range(low=0.0, high=0.0)  # frozen: shared by every unpriced candidate


class _Timed(Protocol):
    @property
    def layout(self) -> Layout: ...
    @property
    def wall_hours(self) -> Range: ...


_T = TypeVar("_T", bound=_Timed)


@dataclass(frozen=True)
class _Counted:
    """A training GPU count of one offer that fits and whose interconnect works, timed, before its
    Candidate is built: enumeration and pruning read only its layout and wall-clock, so only the
    counts kept are built (the same candidates as building every count and pruning them)."""

    layout: Layout
    fit: MemoryFit
    plan: Any
    wall_hours: Range


def _holds_ttft_at_slow_end(c: object) -> bool:
    """Whether a serving candidate's plan holds the stated TTFT at the slow end of its range."""
    plan = c.serving if isinstance(c, Candidate) else None
    return plan is not None and not plan.ttft_at_risk


def _keep_fewest_holding_ttft(single: list[_T], keep: dict[int, _T]) -> None:
    """Keep the fewest one-node candidates that hold a stated TTFT at the slow end: run.py drops counts that
    hold it only in the middle or at the fast end when one holds it there (expert review 20, P16a: 1x B200
    kept, 4x B200 at 2.4-9.9 s pruned, 8x B200 at $39k picked for 3 prompts of 100k tokens against 10 s).
    Within one node: a multi-node count holding it (48x H200 for 3 users) is no option worth showing."""
    held = next((c for c in single if _holds_ttft_at_slow_end(c)), None)
    if held is not None:
        keep[id(held)] = held


def _unpriced_copy(c: Candidate) -> Candidate:
    """A candidate as build() left it, its lists copied (price and ranking append to them)."""
    return c.copy(risks=list(c.risks), why=list(c.why))


class Enumerator(Part):
    """One run's enumeration, GPU type by GPU type, kept in `enumeration` for later runs."""

    def __init__(self, state: RunState, calc: Calculators, pricer: Pricer, offers: OfferSelector) -> None:
        super().__init__(state)
        self.calc = calc
        self.pricer = pricer
        self.offers = offers
        self.load = ServingLoad(calc, self.p, self.headroom)
        """Serving: each replica's plan and memory at its share of the load."""
        self._sweeps: dict[tuple[Any, ...], tuple[list[_Counted], bool, str | None]] = {}
        self.unpriced: dict[str, list[Candidate]] = {}
        """Per GPU type, its candidates before pricing (copies): a run that differs only in cost inputs
        (data location, caching, runs per month) re-prices them instead of enumerating again."""
        self.enumerated: dict[str, tuple[GpuNotes, int]] = {}
        """Per GPU type, its notes after enumeration and how many offers it had (see `unpriced`)."""
        self.enumeration = Enumeration(self.catalog, {})
        """This run's enumeration (filled GPU by GPU by `enumerate_gpu` or `repriced`)."""

    def _training_counts(
        self, gpu: GpuSpec, pairs: list[tuple[int, int]], scale_out: str, every: bool = False
    ) -> tuple[list[_Counted], bool, str | None]:
        """The training sweep of one GPU type over `pairs` (its counts that fit memory and whose
        interconnect works, timed, until `_want_more` stops; `every`: all of them, as for the team's own
        GPUs, whose whole count is theirs to use): (counted, whether some count fits memory, the last
        interconnect reason met or None). It depends on the GPU, the pairs and the offer's scale-out fabric
        only, so offers of one GPU type that share them share one sweep per run."""
        key = (gpu.id, tuple(pairs), scale_out, every)
        got = self._sweeps.get(key)
        if got is not None:
            return got
        counted: list[_Counted] = []
        memory_fits = False
        interconnect: str | None = None
        fitted_store = self.caches.fitted
        for gpn, nodes in pairs:
            fabric = scale_out if nodes > 1 else "none"
            # the fitting layout and its topology depend on the memory signature, not on time or price
            fitted_key = (self.calc.mem_sig, gpu.id, self.headroom, gpn, nodes, fabric)
            fitted = fitted_store.get(fitted_key)
            if fitted is None:
                found = self.calc.fit_layout(gpu, gpn, nodes)
                if found is None:
                    fitted = fitted_store[fitted_key] = ()
                else:
                    layout, _est, fit = found
                    plan = self.calc.topology(gpu, layout, fit.peak_gib_per_gpu, fabric, traced=False)
                    fitted = fitted_store[fitted_key] = (layout, fit, plan)
            if not fitted:
                continue
            memory_fits = True
            layout, fit, plan = fitted
            if not plan.feasible:
                interconnect = "; ".join(str(r) for r in plan.reasons) or "interconnect unsuitable"
                continue
            t = self.calc.training_time(gpu, layout, fabric, traced=False)
            counted.append(_Counted(layout, fit, plan, t.wall_hours))
            if not every and not self._want_more(counted):
                break
        got = self._sweeps[key] = (counted, memory_fits, interconnect)
        return got

    def candidates_for(self, gpu: GpuSpec, offers: Sequence[Offer], notes: GpuNotes) -> list[Candidate]:
        pending: list[Candidate] = []
        for offer in offers:
            pairs = [
                q for q in gpu_counts(offer, gpu, self.s.max_nodes) if within_max_gpus(q[0] * q[1], self.p)
            ]
            if not pairs:  # every count this offer sells is above the user's max_gpus
                notes.constraint = f"offered only above the {self.p.max_gpus} GPU(s) asked for"
                continue
            feasible: list[Candidate] = []
            counted: list[_Counted] = []
            memory_fits = False  # some count fits memory (then a rejection names the other reason)
            yours = offer.provider == YOURS_PROVIDER
            if not self.inference:  # training: time the counts now, build a candidate only if kept
                # the team's own GPUs: every count up to all of them, over all their nodes (expert review
                # 18, R03: 8 of 16 owned A100s were used, the sweep stopping at one full node)
                counted, memory_fits, interconnect = self._training_counts(
                    gpu, pairs, offer.scale_out, every=yours
                )
                if interconnect is not None:
                    notes.interconnect = interconnect
                pairs_left: list[tuple[int, int]] = []
            else:
                pairs_left = pairs
            for gpn, nodes in pairs_left:
                fitting = self.calc.fit_layouts(gpu, gpn, nodes)
                if not fitting:
                    continue
                memory_fits = True
                best = self._serving_layout(gpu, offer, fitting, notes)
                if best is None:
                    continue
                feasible.append(best)
                if not self._want_more(feasible):
                    break
            if counted:
                kept_counts = self._prune(counted, gpu)
                if yours and all(k is not counted[-1] for k in kept_counts):
                    kept_counts.append(counted[-1])  # the most of their own GPUs that run it
                feasible = [
                    self.build(
                        gpu, offer, k.layout, k.fit, self.calc.topology_summary(k.plan, offer.scale_out)
                    )
                    for k in kept_counts
                ]
                pending += feasible
            else:
                kept = self._prune(feasible, gpu)
                pending += with_fewest_gpus(kept, feasible) if self.inference else kept
            # the team's own GPUs say what their whole count holds (review 6: "needs 1124.6 GiB per GPU" for
            # 16 owned H100s was a one-GPU offer's note, the unsharded total)
            if not feasible and not memory_fits and (notes.memory is None or yours):
                single = self.calc.prefilter_memory(layouts_for(self.w, 1, 1)[0])
                peak1 = memory_rule.need_gib(single)  # what the fit is judged on
                best_peak, best_layout = self.calc.smallest_peak(gpu, pairs)
                limit = gpu.usable_memory_gib * (1 - self.headroom)
                has = (
                    f"has {gpu.usable_memory_gib:.1f} (usable; {limit:.1f} with {self.headroom:.0%} headroom)"
                )
                msg = f"needs {peak1:.1f} GiB per GPU, {has}"
                if best_layout.n_gpus > 1 and best_peak < peak1:
                    how = (
                        f"tensor parallel {best_layout.tp}"
                        + (f" x pipeline {best_layout.pp}" if best_layout.pp > 1 else "")
                        if self.inference
                        else best_layout.sharding
                    )
                    # the sharded figure first: the per-GPU need of the whole count is what decides (expert
                    # review 7, R19: "needs 1091.3 GiB per GPU" led for 16 A100s that need 73.6 each)
                    msg = (
                        f"needs {best_peak:.1f} GiB per GPU, {has} even over {best_layout.n_gpus} GPUs "
                        f"({how}); one GPU alone would need {peak1:.1f}"
                    )
                    if best_peak <= gpu.usable_memory_gib:
                        msg += (
                            f": it fits the GPUs' memory but not the {self.headroom:.0%} kept free for "
                            "fragmentation and spikes, so it is tight"
                        )
                        if not self.inference:  # how long, were it run so (the question asked, review 7)
                            scale_out = offer.scale_out if best_layout.nodes > 1 else "none"
                            t = self.calc.training_time(gpu, best_layout, scale_out, traced=False)
                            msg += f" (it would take {present.hours_range(t.wall_hours, with_days=False)})"
                    msg += self._lean_optimizer_note(best_layout, limit)
                    msg += self._offload_note(best_layout, limit, gpu)
                    notes.memory_gpus = best_layout.n_gpus
                notes.memory = msg
        return pending

    def serving_candidate(self, gpu: GpuSpec, offer: Offer, gpn: int, nodes: int) -> Candidate | None:
        """`gpn` x `nodes` of `gpu` at `offer` in the layout the ranking would serve it on (_serving_layout:
        engine copies where they meet the targets on fewer GPUs), so a named set-up, a comparison or a note
        reads the ranked options' figures (srv14); None when no layout fits or meets the targets."""
        fitting = self.calc.fit_layouts(gpu, gpn, nodes)
        return self._serving_layout(gpu, offer, fitting, GpuNotes()) if fitting else None

    def _serving_layout(
        self, gpu: GpuSpec, offer: Offer, fitting: list[tuple[Layout, Any, MemoryFit]], notes: GpuNotes
    ) -> Candidate | None:
        """Serving: of one count's fitting layouts (one engine over the node, then engine copies of fewer
        GPUs: tools.recommend.candidates.layouts_for), the one that meets the targets on the fewest GPUs in
        all, the first (one engine, faster per user) on a tie (expert review 15, R07: 32x A100 40GB in
        4 TP8 replicas where one node of 8x H100 as 8 copies carries 50 requests/s); None when none does."""
        best: Candidate | None = None
        for layout, _est, fit in fitting:
            scale_out = offer.scale_out if layout.nodes > 1 else "none"
            plan = self.calc.topology(gpu, layout, fit.peak_gib_per_gpu, scale_out, traced=False)
            if not plan.feasible:
                notes.interconnect = "; ".join(str(r) for r in plan.reasons) or "interconnect unsuitable"
                continue
            c = self.build(gpu, offer, layout, fit, self.calc.topology_summary(plan, offer.scale_out))
            slow = self._serving_shortfall(c)
            if slow:
                if best is None and layout.dp == 1:  # the one-engine reason, as before copies were tried
                    notes.throughput = slow
                continue
            if best is None or c.total_gpus < best.total_gpus:
                best = c
        return best

    def _lean_optimizer_note(self, layout: Layout, limit_gib: float) -> str:
        """What fits when a sharded full training run keeps AdamW's states in 8 bits (bitsandbytes
        AdamW8bit: 2 bytes of state per parameter instead of 8, Dettmers et al. 2022, "8-bit Optimizers
        via Block-wise Quantization"; tools.memory_states), the usual way such a run is made to fit.
        Memory only: the time estimate is the same optimizer step count, so no candidate is built."""
        if memory_method(self.w) not in ("full", "pretraining") or layout.sharding != "zero3":
            return ""
        peak = memory_rule.need_gib(self.calc.memory_with_optimizer(layout, "adamw-8bit"))
        if peak > limit_gib:
            return ""
        return f"; with 8-bit AdamW states (bitsandbytes): {peak:.1f}, which fits with the headroom"

    def _offload_note(self, layout: Layout, limit_gib: float, gpu: GpuSpec) -> str:
        """What fits with the sharded weights offloaded to CPU memory (FSDP CPU offload: Answer.AI's
        fsdp_qlora trains a 70B model on two 24 GB cards that way, 2024-03), when a training job that
        shards over several GPUs does not fit without it. Adapters only (LoRA/QLoRA): the host then holds
        the frozen base, tens of GB; offloading a full fine-tune's states needs ~16 bytes a parameter of
        host memory, which the note cannot vouch for. Memory only: the time model does not price
        offload's host-transfer slowdown, so the note says so and no candidate is built."""
        if memory_method(self.w) not in ("lora", "qlora") or layout.sharding != "zero3" or layout.n_gpus < 2:
            return ""
        peak = memory_rule.need_gib(self.calc.mem.get(replace(layout, offload="params")))
        if peak > limit_gib:
            return ""
        # "how long on our cards?" (expert review 16, R06): the compute alone, the floor offload's host
        # transfers add to (the time model does not price them); one node, as the owned cards are
        compute = self.calc.training_time(gpu, layout, "none", traced=False).wall_hours
        return (
            f"; with the weights offloaded to CPU memory (FSDP CPU offload): {peak:.1f}, which fits, at a "
            f"lower speed: the compute alone takes {present.hours_range(compute)} on them, and offload's "
            "host transfers add to that (not timed here)"
        )

    def enumerate_gpu(
        self, gpu: GpuSpec, records: Sequence[PriceRecord]
    ) -> tuple[list[Candidate], GpuNotes, int]:
        """One GPU type's offers and candidates, priced: (candidates, notes, offers considered). The
        trace steps and assumptions that enumerating records go to a TraceBuilder kept in
        `enumeration` (then appended to this run's trace, in the same order as before pricing), so a run
        that re-prices these candidates replays them."""
        notes = GpuNotes()
        main, sub = self.tb, TraceBuilder()
        offers = self.offers.offers_kept(gpu, notes, records, sub)
        self.tb = sub
        try:
            pending = self.candidates_for(gpu, offers, notes)
        finally:
            self.tb = main
        main.extend(sub)
        entry: EnumeratedGpu = ([_unpriced_copy(c) for c in pending], replace(notes), len(offers), sub)
        self._keep(gpu, entry)
        return [c for c in map(self.pricer.price, pending) if c.dropped is None], notes, len(offers)

    def repriced(self, base: Enumeration, gpu: GpuSpec) -> tuple[list[Candidate], GpuNotes, int]:
        """`base`'s candidates of one GPU type priced under this run's cost inputs, with its notes and
        offer count (its enumeration's trace replayed first): for a run whose workload differs from
        `base`'s only in what price() reads."""
        entry = base.per_gpu[gpu.id]
        unpriced, notes, offers, sub = entry
        self.tb.extend(sub)
        cands = [c for c in (self.pricer.price(_unpriced_copy(c)) for c in unpriced) if c.dropped is None]
        self._keep(gpu, entry)
        return cands, replace(notes), offers

    def _keep(self, gpu: GpuSpec, entry: EnumeratedGpu) -> None:
        self.enumeration.per_gpu[gpu.id] = entry
        self.unpriced[gpu.id] = entry[0]
        self.enumerated[gpu.id] = (entry[1], entry[2])

    def limited(self, run: CostedRun, gpu: GpuSpec) -> tuple[list[Candidate], GpuNotes, int]:
        """`run`'s costed candidates of one GPU type with this run's budget check (copies), its notes and
        offer count (its enumeration's trace replayed first, as `repriced` does)."""
        entry = run.enumeration.per_gpu[gpu.id]
        _unpriced, notes, offers, sub = entry
        self.tb.extend(sub)
        self._keep(gpu, entry)
        cands = []
        for kept in run.per_gpu.get(gpu.id, ()):
            c = kept.copy(risks=list(kept.risks), why=list(kept.why))
            self.pricer.limits(c)
            cands.append(c)
        return cands, replace(notes), offers

    def _target_hours(self) -> float | None:
        """Wall-clock a larger cluster should bring the job within: the deadline, or, without one, a
        month (PRACTICAL_WALL_HOURS) so a long job (pre-training) is also offered on enough nodes to
        finish in weeks rather than only on one node for months. None for serving (a batch generation
        job: its deadline)."""
        if self.inference:
            return self.p.deadline_hours if self.state.batch_job else None
        return self.p.deadline_hours or PRACTICAL_WALL_HOURS

    def _serving_shortfall(self, c: Candidate) -> str | None:
        """Serving: why no replica count of this configuration meets the targets (tools.recommend.
        serving_plan), or None; meeting the latency target only at the fast end is a risk."""
        plan: ServingPlan | None = c.serving
        if plan is None:
            return None
        if plan.why_not or not within_max_gpus(c.total_gpus, self.p):
            return plan.why_not or f"{c.total_gpus} GPUs exceed the {self.p.max_gpus} asked for"
        if plan.target_status == "maybe":
            c.risk += RISK_LIMIT_MAYBE
        if plan.latency_short and self.p.latency_ms_per_token:
            _mark_latency_short(c, plan, self.p.latency_ms_per_token)
        elif plan.latency_at_risk and self.p.latency_ms_per_token:
            latency = self.p.latency_ms_per_token
            mid_misses = plan.replica.ms_per_output_token.mid > latency
            source = latency_source(self.p)  # derived from the user's answer time: name theirs (review 11)
            said = f"{latency:g} ms/token " + (f"pace of {source}" if source else "latency target")
            c.risks.append(
                f"meets the {said} only at the fast end of the range"
                + (" (the middle of the range misses it)" if mid_misses else "")
            )
            c.risk += RISK_LIMIT_MAYBE + (RISK_TARGET_MID_MISS if mid_misses else 0.0)
        if plan.ttft_at_risk and self.p.ttft_target_s:
            ttft_mid_misses = plan.replica.time_to_first_token_s.mid > self.p.ttft_target_s
            c.risks.append(
                f"{ttft_text(plan.replica)}: meets the {self.p.ttft_target_s:g} s target only at the fast "
                "end of the range (a mean; a p95 runs longer; the slow end is every request arriving at once)"
                + ("; the middle of the range misses it" if ttft_mid_misses else "")
            )
            # the middle over the target ranks lower, as for the per-token latency (review 10, R03)
            c.risk += RISK_LIMIT_MAYBE + (RISK_TARGET_MID_MISS if ttft_mid_misses else 0.0)
        return None

    def _want_more(self, feasible: Sequence[_Timed]) -> bool:
        """Keep enumerating larger counts while the target wall-clock is unmet or a full node is ahead."""
        last = feasible[-1]
        target = self._target_hours()
        if target and last.wall_hours.high > target:
            return True
        return last.layout.nodes == 1

    def _prune(self, feasible: list[_T], gpu: GpuSpec) -> list[_T]:
        """Smallest feasible count, the largest single node, the smallest count meeting the target
        wall-clock (the deadline, else a month), and the count the user named on this GPU ('how long on
        32x B200?' came back as 8x and 64x B200, the 32 pruned: expert review 13, P20)."""
        if not feasible:
            return []
        keep = {id(feasible[0]): feasible[0]}
        p = self.p
        if (
            p.claimed_gpu == gpu.id
            and p.claimed_gpu_count
            and p.claimed_hours is None
            and not p.claimed_gpu_bound
        ):
            named = next((c for c in feasible if c.layout.n_gpus == p.claimed_gpu_count), None)
            if named is not None:
                keep[id(named)] = named
        single = [c for c in feasible if c.layout.nodes == 1]
        if single:
            keep[id(single[-1])] = single[-1]
        if self.inference and p.ttft_target_s:
            _keep_fewest_holding_ttft(single, keep)
        target = self._target_hours()
        if target:
            for c in feasible:
                if c.wall_hours.high <= target:
                    keep[id(c)] = c
                    break
            else:
                keep[id(feasible[-1])] = feasible[-1]
        if p.deadline_hours and not self.inference:
            # the fewest that meet the deadline at the middle of the time range, the slow end missing it: the
            # count a buyer computes at the expected MFU, shown beside the safe count (expert review 16, R16:
            # 64x H100 at 852-1,906 h was pruned, only 128x at 426-953 h kept against 60 days)
            mid = next((c for c in feasible if c.wall_hours.mid <= p.deadline_hours), None)
            if mid is not None:
                keep[id(mid)] = mid
        return list(keep.values())

    def build(
        self, gpu: GpuSpec, offer: Offer, layout: Layout, fit: MemoryFit, topo: TopologySummary
    ) -> Candidate:
        """A candidate with its time (or throughput) and risk; `price` adds the costs."""
        n = layout.n_gpus
        decode: Range | None = None
        replicas = 1
        plan: ServingPlan | None = None
        if self.inference:
            plan, fit = self.load.plan(gpu, offer, layout, fit)
            decode, replicas = plan.total_tokens_per_s, plan.replicas
            if plan.job_hours is not None:  # batch generation: the job's hours, billed per job
                wall = plan.job_hours
            else:
                serving_hours = self.pricer.serving_hours(offer)
                wall = Range(low=serving_hours, high=serving_hours)
            gpu_hours = wall.scale(n * replicas)
        else:
            t = self.calc.training_time(
                gpu, layout, offer.scale_out if layout.nodes > 1 else "none", traced=False
            )
            wall, gpu_hours = t.wall_hours, t.gpu_hours
        zero = _ZERO_RANGE
        c = Candidate(
            gpu=gpu,
            offer=offer,
            layout=layout,
            fit=fit,
            topo=topo,
            gpu_hours=gpu_hours,
            wall_hours=wall,
            cost_usd=zero,
            total_usd=zero,
            scenarios=(),
            decode_tokens_per_s=decode,
            point=self.s.range_point,
            replicas=replicas,
            serving=plan,
        )
        assess_risk(c, self.p, self.inference)
        idle = self.pricer.idle_endpoint_note(offer)
        if idle:
            c.risks.append(idle)
        if not self.inference or self.state.batch_job:
            c.deadline_status = deadline_status(c, self.p)
            c.deadline_soft = bool(self.p.deadline_soft)
        return c


def _mark_latency_short(c: Candidate, plan: ServingPlan, latency_ms: float) -> None:
    """The closest configuration kept under a per-token target it misses even at the fast end
    (tools.recommend.serving_closest): the miss in words among its risks, and its risk points."""
    t = plan.replica
    c.risks.append(latency_short_risk(t.ms_per_output_token, t.per_user_tokens_per_s, latency_ms))
    c.risk += RISK_LIMIT_MAYBE + RISK_TARGET_MID_MISS + RISK_TARGET_FAST_MISS
