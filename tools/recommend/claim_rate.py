"""A claimed aggregate serving rate on named GPUs ("vendor says 8x H100 can serve Llama 3.1 405B in FP8 at
2,000 tokens/s aggregate output. Is that realistic?", expert review 12, R08): answered with the rate those
GPUs decode at the stated load and the load the claimed rate takes.

The aggregate output rate is tools.compute.serving's (ServingTime.output_tokens_per_s) for one replica of
the named GPUs; a decode step reads the weights once for every sequence in flight, so the rate grows with
the concurrency until the step turns compute-bound or the KV cache fills memory. The load it can reach is
capped by claim_streams.streams_held (memory with the recommender's headroom and the serving model's KV
capacity). The claim is checked at the stated concurrency when there is one; else the answer says from how
many concurrent streams the claimed rate is reached, if at all.

A claim above the serving model's range is "No" only when it is also above the decode ceiling of memory
bandwidth (tools/recommend/decode_ceiling.py): under it, it is "Optimistic, not impossible", with the share
of the bandwidth it needs (expert review 19, R06: 2,000 tokens/s on 8x MI300X for 405B at 64 users needs
about two thirds of it)."""

from __future__ import annotations

from tools import present
from tools.catalog.schema import GpuSpec
from tools.defaults import ResolvedWorkload
from tools.recommend.candidates import Layout
from tools.recommend.claim_streams import streams_held
from tools.recommend.decode_ceiling import DecodeCeiling, decode_ceiling
from tools.recommend.models import ExpectationCheck
from tools.recommend.outcome import Outcome
from tools.units import BYTES_PER_GIB

# the loads tried for "from how many streams" (powers of two and their midpoints: the answer is a rough
# count, the serving model's band is wider than the step between two of them)
_LOADS = (1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024)


def check_claimed_rate(
    w: ResolvedWorkload, gpu: GpuSpec, n: int, layout: Layout, outcome: Outcome
) -> ExpectationCheck | None:
    """The claimed aggregate rate (target_tokens_per_s, stated) on `n` x `gpu`; None without one, or when
    a per-user speed was stated (expectations._speed_on_named answers that)."""
    p = w.profile
    target = p.target_tokens_per_s
    if target is None or p.status_of("target_tokens_per_s") in (None, "assumed"):
        return None
    if p.latency_ms_per_token is not None and p.status_of("latency_ms_per_token") != "assumed":
        return None
    calc = outcome.engine.calc
    held = streams_held(outcome, gpu, n, layout, _LOADS[-1])
    if held is None:
        return None  # not one stream fits: the memory answer stands
    what = f"{n}x {gpu.name}"
    claim = f"serve {present.count(target)} tokens/s on {what}"
    stated = p.concurrency if p.status_of("concurrency") not in (None, "assumed") else None
    loads = [c for c in _LOADS if c < held] + [held]
    rates = {c: calc.serving(gpu, n, c, pp=layout.pp, dp=layout.dp).output_tokens_per_s for c in loads}
    top = rates[held]
    top_text = (f"at most about {held:,} streams fit in memory, where it decodes "
                f"{present.tokens_per_s_range(top)} in aggregate")  # fmt: skip
    if stated is not None:
        c = min(stated, held)
        r = calc.serving(gpu, n, c, pp=layout.pp, dp=layout.dp).output_tokens_per_s
        if r.low >= target:
            verdict, answer = "holds", "Yes"
        elif r.high >= target:
            verdict, answer = "tight", "Only at the fast end"
        else:
            verdict, answer = "cannot_hold", "No"
        ceiling = _ceiling(w, gpu, n, c, outcome) if verdict == "cannot_hold" else None
        if ceiling is not None and target <= ceiling.tokens_per_s and top.high < target:
            verdict, answer = "tight", "Optimistic, not impossible"  # under the bandwidth bound (review 19)
        text = (f"{answer}: at the stated {stated:,} concurrent streams {what} decodes "
                f"{present.tokens_per_s_range(r)} in aggregate (the serving model), against the "
                f"{present.count(target)} tokens/s claimed")  # fmt: skip
        if verdict == "cannot_hold" and top.high >= target:
            text += f"; the claim needs more streams in flight ({top_text})"
        elif ceiling is not None:
            text += _ceiling_text(ceiling, target, c, gpu, n)
        return ExpectationCheck(
            claim=claim, verdict=verdict, factor=target / r.mid, explanation=text + ".", asked=True
        )
    reach = next((c for c in loads if rates[c].high >= target), None)
    if reach is None:
        ceiling = _ceiling(w, gpu, n, held, outcome)
        if target <= ceiling.tokens_per_s:  # under the bandwidth bound: optimistic (expert review 19, R06)
            return ExpectationCheck(
                claim=claim, verdict="tight", factor=target / top.mid, asked=True,
                explanation=f"Optimistic, not impossible: {what} does not reach {present.count(target)} "
                f"tokens/s at any load in the serving model: {top_text}"
                f"{_ceiling_text(ceiling, target, held, gpu, n)}.",
            )  # fmt: skip
        return ExpectationCheck(
            claim=claim, verdict="cannot_hold", factor=target / top.mid, asked=True,
            explanation=f"No: {what} does not reach {present.count(target)} tokens/s at any load: {top_text} "
            f"(the serving model), {target / top.high:.1f}x short.",
        )  # fmt: skip
    r = rates[reach]
    sure = next((c for c in loads if rates[c].low >= target), None)
    verdict = "tight" if sure is None or sure > reach else "holds"
    per_user = calc.serving(gpu, n, reach, pp=layout.pp, dp=layout.dp).per_user_tokens_per_s
    most = ", the most that fit in memory" if reach == held else ""
    text = (
        f"Only with many streams in flight: {what} reaches {present.count(target)} tokens/s in aggregate "
        f"from about {reach:,} concurrent streams{most} ({present.tokens_per_s_range(r)}, "
        f"{present.tokens_per_s_range(per_user)} per user; the serving model)"
    )
    if reach != held:
        text += f"; {top_text}"
    few = 8 if reach > 8 else None
    if few is not None and few in rates:
        text += f"; at {few} streams it is {present.tokens_per_s_range(rates[few])}"
    return ExpectationCheck(
        claim=claim, verdict=verdict, factor=target / r.mid, explanation=text + ".", asked=True
    )


def _ceiling(w: ResolvedWorkload, gpu: GpuSpec, n: int, concurrency: int, outcome: Outcome) -> DecodeCeiling:
    """The decode ceiling of `n` x `gpu` at `concurrency` streams (tools.recommend.decode_ceiling)."""
    calc = outcome.engine.calc
    prompt, output = calc.serving_lengths()
    return decode_ceiling(
        arch=w.arch, gpu=gpu, n_gpus=n, concurrency=concurrency,
        weight_bytes=calc.weights_total_gib * BYTES_PER_GIB, prompt_tokens=prompt, output_tokens=output,
    )  # fmt: skip


def _ceiling_text(ceiling: DecodeCeiling, target: float, concurrency: int, gpu: GpuSpec, n: int) -> str:
    """'; the memory-bandwidth ceiling is 3,150 tokens/s ...': where the claim stands against the bound."""
    share = target / ceiling.tokens_per_s
    bound = (
        f"; the memory-bandwidth ceiling at {concurrency:,} streams is {ceiling.tokens_per_s:,.0f} "
        f"tokens/s ({n}x {gpu.memory_bandwidth_tb_per_s:g} TB/s over "
        f"{ceiling.weight_bytes / 1e9:,.1f} GB of weights + {concurrency:,} x "
        f"{ceiling.kv_bytes_per_sequence / 1e9:.2f} GB of KV cache a step, decode alone at full bandwidth)"
    )
    if share > 1:
        return f"{bound}: the claim is above it, {share:.1f}x, so no software reaches it"
    return (
        f"{bound}: the claim needs {share:.0%} of it, within reach of decoding alone, not of a served load "
        "(the serving model counts the prompts' prefill, the all-reduces and the kernels in every step); ask "
        "which prompt and output lengths it was measured at"
    )
