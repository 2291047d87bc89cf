"""FP8 on the GPU types the user named, when 16-bit serving on them meets nothing (issue 14: evals v16
"Gemma 3 12B, 40 users at peak, L40S, 1 GPU max, RunPod" got "Nothing in the catalog fits": the 16-bit
weights leave KV cache for 31 of the 40; v13 "Qwen3 32B AWQ, 60 sessions at full 16k context, 4x L40S" the
same with a 16-bit KV cache holding 34 of 60).

An expert serving on an L40S, H100 or other GPU that computes FP8 sizes it with FP8 where the precision is
left open: FP8 weights halve the bytes each output token reads (Pope et al. 2022) and the memory they take,
and an FP8 KV cache (vLLM --kv-cache-dtype fp8) halves the cache per token. So when the profile names the
GPU types (p.gpus_wanted), every one of them computes FP8, the engine found no pick, and a named GPU was
ruled out by memory or by users its KV cache does not hold (not by a constraint such as region or provider,
nor by a speed: a per-user floor it misses stays said as such, and a stated target it misses is
tools.recommend.serving_closest's), the same profile is run again with, in this order, FP8 weights (only
when the weights precision was assumed 16-bit), an FP8 KV cache (only when its precision was not said), and
both; the first run with a pick is the answer, its changed precision marked inferred with the reason (the
primary's `why` leads with it, tools.recommend.advise).
A precision the user stated is kept as stated; GPUs named that do not compute FP8 (A100, RTX 3090) get none.
"""

from __future__ import annotations

from typing import Any

from tools.defaults import CatalogView, ResolvedWorkload, resolve_workload
from tools.errors import InputError
from tools.profile import WorkloadProfile
from tools.recommend.caches import Caches
from tools.recommend.models import RecommendSettings
from tools.recommend.outcome import Outcome
from tools.recommend.run import run_engine
from tools.recommend.serving_closest import KV_CACHE_SHORT

_SIXTEEN_BIT = (None, "bf16", "fp16")


def _fp8_holds(kind: str, reason: str) -> bool:
    """Whether a rejection is one FP8 can lift: the memory, or the users the KV cache holds."""
    return kind == "memory" or (kind == "throughput" and KV_CACHE_SHORT in reason)


def fp8_on_named(
    w: ResolvedWorkload,
    out: Outcome,
    profile: WorkloadProfile,
    catalog: CatalogView,
    settings: RecommendSettings,
    caches: Caches | None,
) -> tuple[ResolvedWorkload, Outcome]:
    """The workload and outcome with FP8 where 16-bit on the named GPUs picks nothing (module docstring);
    `w`, `out` unchanged otherwise."""
    p = w.profile
    if out.primary is not None or p.workload != "inference" or not p.gpus_wanted:
        return w, out
    try:
        gpus = [catalog.gpu(g) for g in p.gpus_wanted]
    except (InputError, KeyError, LookupError):
        return w, out
    if not all(g.fp8_dense_tflops for g in gpus):
        return w, out
    named = {g.id for g in gpus}
    if not any(r.gpu in named and _fp8_holds(r.kind, r.reason) for r in out.rejected):
        return w, out
    names = " / ".join(g.name for g in gpus)
    tries: list[tuple[dict[str, Any], dict[str, str]]] = []
    weights_open = profile.status_of("precision") in (None, "assumed") and p.precision in _SIXTEEN_BIT
    kv_open = p.kv_cache_precision is None and profile.status_of("kv_cache_precision") in (None, "assumed")
    why_w = (
        f"16-bit weights on the {names} you named meet neither the load nor the speed asked for within your "
        f"constraints; the {names} computes FP8, and FP8 weights (an FP8 checkpoint: check accuracy) do"
    )
    why_kv = (
        f"a 16-bit KV cache on the {names} you named does not hold the load asked for within your "
        "constraints; "
        "an FP8 KV cache (vLLM --kv-cache-dtype fp8) halves it per token"
    )
    if weights_open:
        tries.append(({"precision": "fp8"}, {"precision": why_w}))
    if kv_open:
        tries.append(({"kv_cache_precision": "fp8"}, {"kv_cache_precision": why_kv}))
    if weights_open and kv_open:
        tries.append(
            (
                {"precision": "fp8", "kv_cache_precision": "fp8"},
                {"precision": why_w, "kv_cache_precision": why_kv},
            )
        )
    for values, why in tries:
        tried = profile.with_values("inferred", why, **values)
        try:
            w2 = resolve_workload(profile=tried, catalog=catalog)
            out2 = run_engine(w2, catalog, settings, caches)
        except InputError:
            continue
        if out2.primary is not None:
            return w2, out2
    return w, out
