"""What would make an infeasible workload feasible, computed by re-running the engine on changed
inputs (QLoRA instead of LoRA, 4-bit weights, shorter context, more GPUs) and by dropping each
stated hard constraint in turn (tools.recommend.relax).

Each line states the change and the numbers it yields (per-GPU peak, the configuration that then
fits, its cost), so the advice is as traceable as the recommendation itself.
"""

from __future__ import annotations

from typing import Any

from tools import present
from tools.defaults import CatalogView, ResolvedWorkload, resolve_workload
from tools.errors import InputError
from tools.recommend import latency_binds, memory_rule
from tools.recommend.candidates import layouts_for
from tools.recommend.models import RecommendSettings
from tools.recommend.outcome import Outcome
from tools.recommend.relax import relax_advice
from tools.recommend.run import run_engine
from tools.recommend.serving_plan import latency_is_floor
from tools.recommend.ttft_closest import closest_ttft, closest_ttft_words

LARGE_CLUSTER_NODES = 64
"""The cluster size tried when advising 'shard over more GPUs' (whole nodes)."""


def _changes(w: ResolvedWorkload) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(advice text, profile changes, settings changes) to try, most conventional first."""
    p = w.profile
    out: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
    if p.workload == "inference":
        if p.precision in (None, "fp32", "bf16", "fp16"):
            out.append(("Quantise the weights to int8", {"precision": "int8"}, {}))
            out.append(("Quantise the weights to int4 (GPTQ/AWQ; check accuracy)", {"precision": "int4"}, {}))
        if p.context_len and p.context_len > 1024:
            out.append(
                (
                    f"Shorten the context to {p.context_len // 2:,} tokens",
                    {"context_len": p.context_len // 2},
                    {},
                )
            )
        if p.concurrency and p.concurrency > 1:
            out.append(
                (
                    f"Serve {max(1, p.concurrency // 4)} concurrent sequences per replica",
                    {"concurrency": max(1, p.concurrency // 4)},
                    {},
                )
            )
    else:
        if p.method == "full" and p.workload == "fine_tuning":
            out.append(("Use LoRA instead of full fine-tuning", {"method": "lora", "precision": "bf16"}, {}))
        if p.method in ("full", "lora") and p.workload == "fine_tuning":
            out.append(
                (
                    "Use QLoRA (4-bit NF4 base) instead of "
                    + ("LoRA" if p.method == "lora" else "full fine-tuning"),
                    {"method": "qlora", "precision": "nf4"},
                    {},
                )
            )
        if p.seq_len and p.seq_len > 512:
            out.append(
                (
                    f"Shorten the training sequence length to {p.seq_len // 2:,} tokens",
                    {"seq_len": p.seq_len // 2},
                    {},
                )
            )
        if p.batch_size and p.batch_size > 1:
            out.append(("Use micro-batch 1 with gradient accumulation", {"batch_size": 1}, {}))
    out.append(
        (f"Shard over more GPUs (up to {LARGE_CLUSTER_NODES} nodes)", {}, {"max_nodes": LARGE_CLUSTER_NODES})
    )
    if p.deployment_preference in ("consumer", "on_prem"):
        out.append(("Rent data-centre GPUs in the cloud", {"deployment_preference": "cloud"}, {}))
    return out


def _first_line(
    w: ResolvedWorkload,
    need_gib: float,
    biggest: Any,
    limit_gib: float,
    scope: str,
    s: RecommendSettings,
    sharded_fit: Any = None,
) -> str:
    """Why nothing fits, in one line: memory, or for serving that fits one GPU (or, sharded, the GPU
    `sharded_fit` whose only rejection is speed or load), the speed or load asked for (a stated latency,
    the assumed per-user floor of tools.defaults, an aggregate rate, a GPU count)."""
    if w.profile.workload == "inference" and (need_gib <= limit_gib or sharded_fit is not None):
        floor = latency_is_floor(w.profile)
        ask = "; the per-user speed floor is an assumption: say yours." if floor else "."
        holds = (
            f"which {biggest.name} holds"
            if need_gib <= limit_gib
            else f"which {sharded_fit.name} holds sharded over the GPUs allowed"
        )
        return (
            "Nothing in the catalog meets the serving targets under your constraints: one GPU would need "
            f"{need_gib:.1f} GiB, {holds}, but the speed or load asked for rules each "
            f"configuration out (the reason for each is listed with the rejected GPUs){ask}"
        )
    return (
        f"Nothing in the catalog fits: one GPU would need {need_gib:.1f} GiB; {scope}, {biggest.name}, has "
        f"{biggest.usable_memory_gib:.1f} GiB usable ({limit_gib:.1f} with {s.headroom_fraction:.0%} "
        "headroom), and sharding over the GPUs offered is not enough."
    )


def infeasible_advice(
    *, workload: ResolvedWorkload, catalog: CatalogView, settings: RecommendSettings, outcome: Outcome
) -> list[str]:
    """Advice lines for a workload nothing in the catalog can run (empty when something can)."""
    if outcome.primary is not None:
        return []
    eng = outcome.engine
    single = eng.mem.get(layouts_for(workload, 1, 1)[0])
    notes = outcome.notes_by_gpu
    allowed = [
        g for g in catalog.gpus if not (notes.get(g.id) and (notes[g.id].constraint or notes[g.id].no_price))
    ]
    gpus = allowed or list(catalog.gpus)
    advice: list[str] = []
    if not allowed and any(n.constraint for n in notes.values()):
        # not a memory problem: the constraints left no offer of any GPU type
        advice.append(
            f"Nothing in the catalog is left under your constraints: every GPU type's offers are ruled out "
            f"(the reason for each is listed with the rejected GPUs); one GPU would need "
            f"{memory_rule.need_gib(single):.1f} GiB."
        )
    elif gpus:
        biggest = max(gpus, key=lambda g: g.usable_memory_gib)
        limit = biggest.usable_memory_gib * (1 - settings.headroom_fraction)
        scope = (
            "the largest GPU your constraints allow" if len(allowed) < len(catalog.gpus) else "the largest"
        )
        # serving that fits in memory sharded, rejected only for speed or load (evals v16: Llama 3.1 70B at a
        # 0.8 s TTFT on at most 4 GPUs was told that sharding was not enough)
        speed_only = [
            g for g in gpus if notes.get(g.id) and notes[g.id].throughput and not notes[g.id].memory
        ]
        sharded_fit = max(speed_only, key=lambda g: g.usable_memory_gib) if speed_only else None
        need = memory_rule.need_gib(single)
        if workload.profile.workload == "inference" and (need <= limit or sharded_fit is not None):
            # a stated latency target even the fastest allowed engine misses: latency binds, not memory
            best = latency_binds.fastest(eng, allowed)
            if latency_binds.binds(workload.profile, best):
                assert best is not None
                return [
                    latency_binds.head_line(workload.profile, need, best),
                    latency_binds.fastest_line(eng, best),
                    *latency_binds.remedy_lines(workload, catalog, settings, eng, best, allowed),
                    *relax_advice(workload=workload, catalog=catalog, settings=settings, outcome=outcome),
                ]
        advice.append(_first_line(workload, need, biggest, limit, scope, settings, sharded_fit))
        target_s = workload.profile.ttft_target_s
        # rejected for the first token: the layout that comes closest, by how much (srv15)
        late = [g for g in speed_only if target_s and "first token" in (notes[g.id].throughput or "")]
        cap = workload.profile.max_gpus  # the closest layout within the user's GPU cap
        near = [(got[1].low, g) for g in late if (got := closest_ttft(eng, g, target_s or 0.0, cap))]
        if near and target_s:
            words = closest_ttft_words(eng, min(near, key=lambda x: x[0])[1], target_s, cap)
            advice += [words] if words else []
    quiet = settings.model_copy(update={"sensitivity": False})
    worked = 0
    for text, prof_changes, set_changes in _changes(workload):
        try:
            w = workload
            if prof_changes:
                w = resolve_workload(
                    profile=workload.profile.with_values("assumed", None, **prof_changes), catalog=catalog
                )
            out = run_engine(
                w, catalog, quiet.model_copy(update=set_changes) if set_changes else quiet, eng.caches
            )
        except (InputError, ValueError):
            continue
        if out.primary is None:
            peak = memory_rule.need_gib(out.engine.mem.get(layouts_for(w, 1, 1)[0]))
            if prof_changes:
                advice.append(f"{text}: not enough on its own (one GPU would still need {peak:.1f} GiB).")
            continue
        c = out.primary
        worked += 1
        advice.append(
            f"{text}: {c.fit.peak_gib_per_gpu:.1f} GiB peak per GPU; {c.layout.n_gpus}x {c.gpu.name} at "
            f"{c.offer.provider} then fits ({c.fit.usable_gib_per_gpu:.1f} GiB usable), "
            f"about {present.usd_span(c.total_usd)}."
        )
    relaxed = relax_advice(workload=workload, catalog=catalog, settings=settings, outcome=outcome)
    advice += relaxed
    if not worked and not relaxed:
        advice.append(
            "No single change above makes it fit: combine them (e.g. QLoRA with a shorter sequence), offload "
            "optimizer state or parameters to CPU memory, or choose a smaller model."
        )
    return advice
