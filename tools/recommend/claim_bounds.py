"""A claim about how many GPUs a workload needs, answered in the claim's own direction, in words that hold
whichever way the question was put ("is 8x H100 overkill?" and "do we need at least 8x H100?" get the same
"Fewer do it: ..."; a bare Yes or No would answer one of them backwards)
(WorkloadProfile.claimed_gpu_bound; tools/recommend/expectations.py check_own_gpus calls it).

- "minimum" ("it needs at least 4x A100, true?", "16 H100s minimum, right?"): true when the workload fits on
  N and on no fewer. Checked as "fits on fewer?" (every count below N, fewest first) and "fits on N?"; when
  N does not hold it either, the claim understates and the fewest count above N that does is named.
- "too_few" ("one L40S won't cut it, will it?"): true when the workload does not fit on N; when it does,
  the claim is wrong and says so.

"Fits" is the recommender's memory fit (tools.memory through the engine's cache, the parallel layouts of
tools.recommend.candidates.layouts_for, the same headroom kept free): whether a count can run the job at
all. How long it takes there is a separate answer (check_own_gpus without a bound)."""

from __future__ import annotations

from tools.catalog.schema import GpuSpec
from tools.defaults import CatalogView, ResolvedWorkload
from tools.recommend.candidates import layouts_for, memory_fit
from tools.recommend.models import ExpectationCheck, MemoryFit, RecommendSettings
from tools.recommend.outcome import Outcome

MAX_COUNT_ABOVE_FACTOR = 4
"""How far above the claimed count the fewest count that holds the workload is looked for (4x the count:
a claim that far off is answered "more than 4x" instead of searching further)."""


def fit_on(
    w: ResolvedWorkload, gpu: GpuSpec, n: int, settings: RecommendSettings, outcome: Outcome
) -> MemoryFit:
    """The memory fit of the workload on `n` of `gpu` (nodes of at most the GPU's node size), the first
    layout that fits, else the last one tried."""
    per_node = min(n, gpu.max_gpus_per_node)
    nodes = max(1, -(-n // per_node))
    fit: MemoryFit | None = None
    for layout in layouts_for(w, per_node, nodes):
        fit = memory_fit(outcome.engine.mem.get(layout), gpu, settings.headroom_fraction, layout.sharding)
        if fit.fits:
            break
    assert fit is not None  # layouts_for always gives one layout
    return fit


def _said(fit: MemoryFit, n: int, gpu: GpuSpec) -> str:
    need, usable = fit.judged_gib, gpu.usable_memory_gib
    return f"on {n}x {gpu.name} {need:.1f} GiB per GPU needed, {usable:.1f} usable"


def _fewest_above(
    w: ResolvedWorkload, gpu: GpuSpec, n: int, settings: RecommendSettings, outcome: Outcome
) -> str:
    """' It fits from Kx GPU (...).' for the fewest count above `n` that holds the workload, else a
    sentence saying none up to MAX_COUNT_ABOVE_FACTOR x n does."""
    top = n * MAX_COUNT_ABOVE_FACTOR
    for k in range(n + 1, top + 1):
        fit = fit_on(w, gpu, k, settings, outcome)
        if fit.fits:
            return f" It fits from {k}x {gpu.name} ({_said(fit, k, gpu)})."
    return f" Not even {top}x {gpu.name} holds it."


def check_count_bound(
    w: ResolvedWorkload, gpu: GpuSpec, n: int, settings: RecommendSettings, outcome: Outcome
) -> ExpectationCheck:
    """The claim that `n` of `gpu` is the minimum (or too few), checked against the memory fit of every
    count it speaks about."""
    at_n = fit_on(w, gpu, n, settings, outcome)
    factor = at_n.judged_gib / gpu.usable_memory_gib
    kept = f" ({settings.headroom_fraction:.0%} of usable memory kept free)"
    if w.profile.claimed_gpu_bound == "too_few":
        claim = f"{n}x {gpu.name} is not enough"
        if at_n.fits:
            return ExpectationCheck(claim=claim, verdict="cannot_hold", factor=factor, asked=True,
                                    explanation=f"{n}x {gpu.name} is enough to hold it: "
                                    f"{_said(at_n, n, gpu)}{kept}.")  # fmt: skip
        more = _fewest_above(w, gpu, n, settings, outcome)
        said = f"Too few indeed: it does not fit {_said(at_n, n, gpu)}{kept}.{more}"
        return ExpectationCheck(claim=claim, verdict="holds", factor=factor, asked=True, explanation=said)
    claim = f"at least {n}x {gpu.name} needed"
    for k in range(1, n):
        fit = fit_on(w, gpu, k, settings, outcome)
        if fit.fits:
            return ExpectationCheck(
                claim=claim, verdict="cannot_hold", factor=fit.judged_gib / gpu.usable_memory_gib,
                asked=True, explanation=f"Fewer do it: it fits {_said(fit, k, gpu)}{kept}, so {n} is not "
                "the minimum (memory; more GPUs still finish sooner).",
            )  # fmt: skip
    if not at_n.fits:
        more = _fewest_above(w, gpu, n, settings, outcome)
        return ExpectationCheck(claim=claim, verdict="cannot_hold", factor=factor, asked=True,
                                explanation=f"More are needed: it does not fit {_said(at_n, n, gpu)}"
                                f"{kept}.{more}")  # fmt: skip
    below = "" if n == 1 else f"; {_said(fit_on(w, gpu, n - 1, settings, outcome), n - 1, gpu)}"
    return ExpectationCheck(claim=claim, verdict="holds", factor=factor, asked=True,
                            explanation=f"{n}x {gpu.name} is the fewest that hold it: "
                            f"{_said(at_n, n, gpu)}{below}{kept}.")  # fmt: skip


def check_unnamed_bound(
    w: ResolvedWorkload, catalog: CatalogView, settings: RecommendSettings, outcome: Outcome
) -> ExpectationCheck | None:
    """A count claim that names no GPU ("we'd need 16 GPUs minimum, right?"), checked on the GPU the
    recommendation picks (its claim says which); None when the claim names a GPU (check_own_gpus), states
    a time (check_claimed_speed), or nothing is feasible."""
    p = w.profile
    if p.claimed_gpu_bound is None or p.claimed_gpu is not None or p.claimed_hours is not None:
        return None
    if p.claimed_gpu_count is None or outcome.primary is None:
        return None
    gpu = outcome.primary.gpu
    check = check_count_bound(w, gpu, p.claimed_gpu_count, settings, outcome)
    said = f"On the GPU recommended here ({gpu.name}; you named none): {check.explanation}"
    return check.model_copy(update={"explanation": said})


def as_reported(check: ExpectationCheck, source: str | None) -> ExpectationCheck:
    """A check of a claim someone else made, said as theirs after its verdict: "Fewer do it (your vendor's
    claim: at least 4x NVIDIA H100 SXM5 80GB needed): it fits on 1x ..." (WorkloadProfile.claim_source; expert
    review 18, R08), never as the user's; the verdict still opens the line (expert review 15, R04)."""
    if not source:
        return check
    # the count a bound claim names ("at least 4x H100 needed"); a claim on named hardware is in the verdict
    bound = check.claim.startswith("at least ") or check.claim.endswith(" is not enough")
    whose = f"{source}'s claim: {check.claim}" if bound else f"{source}'s claim"
    head, sep, rest = check.explanation.partition(": ")
    said = f"{head} ({whose}){sep}{rest}" if sep else f"{check.explanation} ({whose})"
    return check.model_copy(update={"explanation": said})
