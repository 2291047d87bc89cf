"""A claim about how many concurrent users named GPUs serve ("one L40S can serve Mistral 7B to 2,000
concurrent users, true?"), answered with the number they do hold (issue 14 / expert review 10, R04: the
answer opened "On 1x NVIDIA L40S it does not fit: 1014.7 GiB per GPU needed", a figure with no verdict and
no count of what one GPU does hold).

The streams one replica holds: the most sequences of the stated context whose memory estimate (tools.memory:
weights + KV cache + overhead) fits with the recommender's headroom (tools.recommend.serving_load.ServingLoad.
memory_cap), and no more than the serving model's own KV capacity (tools.compute.serving ServingTime.
max_concurrency); the per-user speed there is the serving model's at that load."""

from __future__ import annotations

import math

from tools import present
from tools.catalog.schema import GpuSpec
from tools.recommend.candidates import Layout
from tools.recommend.outcome import Outcome


def streams_held(outcome: Outcome, gpu: GpuSpec, n: int, layout: Layout, concurrency: int) -> int | None:
    """The most concurrent sequences `n` of `gpu` (as `layout`) hold below `concurrency`, or None when
    not even one fits (the memory estimate with the headroom, capped by the serving model's KV capacity)."""
    eng = outcome.engine
    cap = eng.enumerator.load.memory_cap(gpu, layout, 1, concurrency)
    if cap is None:
        return None
    t = eng.calc.serving(gpu, n, cap, pp=layout.pp, dp=layout.dp)
    return max(1, min(cap, int(t.max_concurrency)))


def concurrency_verdict(
    outcome: Outcome, gpu: GpuSpec, n: int, layout: Layout, concurrency: int, need_text: str
) -> str | None:
    """'No: one L40S holds about 52 such streams ...' for a stated concurrency the named GPUs do not hold,
    with the per-user speed at that load and how many such replicas the stated users take (the users
    split evenly, ceil(users / streams held)); None when not even one stream fits (the memory answer
    then stands)."""
    held = streams_held(outcome, gpu, n, layout, concurrency)
    if held is None:
        return None
    eng = outcome.engine
    t = eng.calc.serving(gpu, n, held, pp=layout.pp, dp=layout.dp)
    context = eng.p.context_len
    what = f"{n}x {gpu.name}" if n > 1 else f"one {gpu.name}"
    each = f" of {context:,} tokens" if context else ""
    kv = eng.p.kv_cache_precision
    cache = f"{kv.upper()} KV cache" if kv else "KV cache"  # "an fp8 KV cache" (expert review 19, P03)
    replicas = math.ceil(concurrency / held)
    take = f"{replicas:,} such GPUs as separate replicas" if n == 1 else (
        f"{replicas:,} such replicas ({replicas * n:,} GPUs)"
    )  # fmt: skip
    return (
        f"No: {what} holds about {held:,} such streams{each} (weights plus each stream's {cache}, "
        f"{eng.headroom:.0%} of memory kept free), not {concurrency:,}; at {held:,} each decodes "
        f"{present.tokens_per_s_range(t.per_user_tokens_per_s)}. {concurrency:,} users need about "
        f"{take}, or larger GPUs; on {what} alone: {need_text}."
    )
