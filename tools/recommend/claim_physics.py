"""Why a per-user speed claimed on GPUs the model does not even fit is physically out of reach (expert
review 20, R06: "a single H100 can serve Llama 3.1 70B at 1,500 tokens/s per user in FP16. Is that even
physically possible?" got "No: it does not fit: 170.2 GiB per GPU needed", a fit problem, where the buyer
needs the physics to take back to the vendor).

Decode reads every weight byte once per output token (Pope et al. 2022, "Efficiently Scaling Transformer
Inference"), so one stream's speed is at most

    ideal tokens/s per stream = n_gpus x memory bandwidth (bytes/s) / weight bytes

whatever the batch or software; speculative decoding is the only common way past it. The note says the
weights' size against the GPUs' usable memory, that ceiling on the claimed GPUs as if the weights fitted,
and what one full node of the same GPU gives per user under the serving model (tools.compute.serving, the
stated load) with its own ceiling, when the weights fit that node. Each figure is a trace step."""

from __future__ import annotations

from tools import present
from tools.catalog.schema import GpuSpec
from tools.defaults import ResolvedWorkload
from tools.recommend.candidates import layouts_for, memory_fit
from tools.recommend.outcome import Outcome
from tools.units import BYTES_PER_GIB, ms_per_token_to_tokens_per_s

_SAID = ("stated", "inferred")
SOURCE = "Pope et al. 2022: each decode step reads every weight once"


def _ceiling(outcome: Outcome, gpu: GpuSpec, n: int, weights_bytes: float) -> float:
    return outcome.engine.tb.step(
        f"claim_physics_ceiling_{n}x_{gpu.id}",
        "n_gpus x memory_bandwidth_tb_per_s x 1e12 / weight bytes",
        n * gpu.memory_bandwidth_tb_per_s * 1e12 / weights_bytes,
        "tokens/s per stream",
        source=SOURCE,
        n_gpus=n,
        memory_bandwidth_tb_per_s=gpu.memory_bandwidth_tb_per_s,
        weight_bytes=weights_bytes,
    )


def physics_note(w: ResolvedWorkload, gpu: GpuSpec, n: int, outcome: Outcome, headroom: float) -> str:
    """' Weights alone are 131.5 GiB ...' (module docstring), or '' without a stated per-user speed."""
    p = w.profile
    if p.latency_ms_per_token is None or p.status_of("latency_ms_per_token") not in _SAID:
        return ""
    target = ms_per_token_to_tokens_per_s(p.latency_ms_per_token)
    weights_gib = outcome.engine.calc.weights_total_gib
    weights_bytes = weights_gib * BYTES_PER_GIB
    usable = n * gpu.usable_memory_gib
    ceiling = _ceiling(outcome, gpu, n, weights_bytes)
    text = (
        f" The weights alone are {present.gib(weights_gib)}"
        + (f", more than the {present.gib(usable)} {n}x {gpu.name} holds" if weights_gib > usable else "")
        + f"; even if they fitted, each token reads every weight once: {n}x {gpu.memory_bandwidth_tb_per_s:g}"
        f" TB/s over {weights_bytes / 1e9:.1f} GB caps one stream at {ceiling:,.0f} tokens/s even ideally, "
        f"{target / ceiling:,.0f}x short of the {present.count(target)} tokens/s per user claimed (only "
        "speculative decoding gets past this bound)."
    )
    node = gpu.max_gpus_per_node
    if node <= n:
        return text
    layout = layouts_for(w, node, 1)[0]
    fit = memory_fit(outcome.engine.mem.get(layout), gpu, headroom, layout.sharding)
    if not fit.fits:
        return text
    conc = p.concurrency or 1
    t = outcome.engine.calc.serving(gpu, node, conc, pp=layout.pp, dp=layout.dp)
    node_ceiling = _ceiling(outcome, gpu, node, weights_bytes)
    users = "one stream" if conc == 1 else f"each of {conc:,} streams"
    speed = present.tokens_per_s_range(t.per_user_tokens_per_s)
    return text + (
        f" A full {node}-GPU node of them: {users} decodes {speed} (the serving model; "
        f"{node_ceiling:,.0f} tokens/s per stream even ideally)."
    )
