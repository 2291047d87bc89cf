"""Serving accuracy, scoring: the model's range for each published figure of a row (steady state, a
Poisson rate's fixed point, a finite burst that drains, a whole-request speed) as a Check, and the
inside / median width / median error summary (bench/serving_accuracy.py)."""

from __future__ import annotations

import heapq
import math
import random
import statistics
from collections.abc import Callable
from dataclasses import dataclass

from bench.calibration_data import ServingRow, load_serving_rows
from bench.serving_rows import (
    _PROMPTS,
    OFFLINE_CONCURRENCY,
    _predict_at,
    _prefill_chunk_budget,
    _streamed_burst_steps,
    lengths,
    readings,
    skip_reason,
)
from tools.compute.serving import Batching, ServingEfficiency, ServingTime
from tools.ranges import Range


@dataclass
class Check:
    row: str
    family: str
    metric: str
    published: float
    predicted: Range

    @property
    def inside(self) -> bool:
        return self.predicted.low <= self.published <= self.predicted.high

    @property
    def width(self) -> float:
        return self.predicted.high / self.predicted.low

    @property
    def error(self) -> float:
        mid = math.sqrt(self.predicted.low * self.predicted.high)
        return mid / self.published - 1.0


POISSON_FIXED_POINT_STEPS = 12
"""Little's law read of a request-rate row: requests in flight = rate x seconds per request, iterated."""


def predict(
    row: ServingRow,
    eff: ServingEfficiency | None = None,
    reading: tuple[str, str | None] | None = None,
    end: str = "mid",
) -> ServingTime:
    """The model at the row's load. A finite Poisson rate puts rate x seconds per request in flight
    (Little's law), and those seconds depend on the load: a fixed point, from one request up, taken at
    the band's `end` ('low': the fast end, 'high': the slow end, 'mid')."""
    rate = _finite_rate(row)
    if rate is None:
        return _predict_at(row, row.concurrency or OFFLINE_CONCURRENCY, eff, reading)
    conc = 1
    for _ in range(POISSON_FIXED_POINT_STEPS):
        t = _predict_at(row, conc, eff, reading)
        ttft, ms = t.time_to_first_token_s, t.ms_per_output_token
        pick = {"low": (ttft.low, ms.low), "high": (ttft.high, ms.high)}.get(end, (ttft.mid, ms.mid))
        seconds = pick[0] + t.output_tokens * pick[1] / 1000
        nxt = max(1, min(t.max_concurrency or 1, round(rate * seconds)))
        if nxt == conc:
            break
        conc = nxt
    return _predict_at(row, conc, eff, reading)


def _rate_ranges(
    row: ServingRow, eff: ServingEfficiency | None, reading: tuple[str, str | None]
) -> tuple[Range, Range, Range, Range]:
    """(output tokens/s, per-user tokens/s, ms per output token, TTFT s) of a Poisson-rate row: the
    per-token figures span the band's fast end at its own fixed point to the slow end at its own. Near
    saturation the load a rate keeps in flight grows fast as the step slows (Little's law: L = rate x
    (TTFT + output x step)), so the slow end runs more sequences at a longer step than the middle's load
    would show (MLPerf Server runs sit at 90-95% of their Offline throughput); the throughput stays the
    middle's, pinned by the rate wherever the load settles."""
    mid, fast, slow = (predict(row, eff, reading, end) for end in ("mid", "low", "high"))
    ms = Range(
        low=min(fast.ms_per_output_token.low, mid.ms_per_output_token.low),
        high=max(slow.ms_per_output_token.high, mid.ms_per_output_token.high),
    )
    return (
        mid.output_tokens_per_s,
        Range(low=1000 / ms.high, high=1000 / ms.low),
        ms,
        _union([t.time_to_first_token_s for t in (mid, fast, slow)]),
    )


def _finite_rate(row: ServingRow) -> float | None:
    """The row's request rate (requests/s) when it is a finite Poisson rate; None otherwise."""
    if row.load_mode != "poisson_rate" or row.request_rate in (None, "inf"):
        return None
    try:
        return float(str(row.request_rate))
    except ValueError:
        return None


SHAREGPT_SAMPLER_MAX_TOKENS = 2048
"""vLLM/SGLang bench_serving's ShareGPT sampler drops a conversation whose prompt + completion exceeds 2048
tokens (sample_sharegpt_requests: prompt_len > 1024 or prompt_len + output_len > 2048 pruned), so no
sampled output is longer than 2048 - prompt."""
OUTPUT_LENGTH_DISTRIBUTION_SOURCE = (
    "Xiang et al. 2025, 'ServeGen: Workload Characterization and Generation of Large Language Model Serving "
    "in Production' (arXiv 2505.09999): language-model output lengths fit exponential distributions"
)


def _burst_requests(row: ServingRow) -> int | None:
    """How many requests a finite burst sends when the row's set-up states it: every request sent at once
    (offline_max_throughput) with output lengths sampled from ShareGPT conversations and a stated count
    ('N prompts', 'N successful'); None otherwise (fixed-length synthetic sets, MLPerf's 24,576 samples)."""
    text = row.dataset or ""
    if row.load_mode != "offline_max_throughput" or not text.startswith("ShareGPT"):
        return None
    counts = _PROMPTS.findall(text)
    return int(counts[-1].replace(",", "")) if counts else None


def _burst_output_lengths(n: int, mean: int, cap: int) -> list[int]:
    """n output lengths, exponential with the stated mean (OUTPUT_LENGTH_DISTRIBUTION_SOURCE) at the
    midpoints of n equal-probability bins (deterministic), capped at the sampler's limit and rescaled so
    that their mean is the stated one; in a fixed shuffled order (requests go out in sampled order)."""
    raw = [min(float(cap), -mean * math.log(1.0 - (i + 0.5) / n)) for i in range(n)]
    scale = mean * n / sum(raw)
    out = [max(1, min(cap, round(x * scale))) for x in raw]
    random.Random(0).shuffle(out)
    return out


@dataclass
class _Burst:
    output_tokens_per_s: float
    itl_ms: float
    tpot_ms: float
    ttft_s: float


def _simulate_burst(
    outputs: list[int],
    cap: int,
    prefill_s: float,
    step_s: Callable[[int], float],
    chunked: tuple[int, int] | None = None,
) -> _Burst:
    """A finite burst drained by a continuous-batching engine: up to `cap` requests run at once, each new
    one is prefilled, then decodes a token per step; a finished request's slot goes to the next queued one.
    step_s(k): one decode step with k sequences. Without chunked prefill (`chunked` None) a new prompt is a
    step of its own (prefill_s, stalling the running sequences); with it, (token budget, prompt tokens):
    each step carries the running sequences' decode tokens and, in what the budget leaves, chunks of the
    queued prompts at prefill_s / prompt a token (Sarathi-Serve; vLLM's scheduler), so admission follows the
    budget. Throughput is all output tokens over the makespan; the mean ITL weighs every decode gap (stalls
    included), the mean TPOT every request; TTFT is the wait until a request's prefill is done."""
    queue = list(reversed(outputs))
    heap: list[tuple[int, float, int]] = []  # (finish step, first-token time, output tokens)
    now, step, gaps_s, gaps, ttft_total, tpot_total = 0.0, 0, 0.0, 0, 0.0, 0.0
    prompt_left = chunked[1] if chunked else 0  # prompt tokens of the queue's head not yet prefilled
    while queue or heap:
        if chunked and queue and len(heap) < cap:
            # one mixed step: the running sequences' tokens, then prompt chunks in the rest of the budget
            k = len(heap)
            room = max(1, chunked[0] - k)
            done: list[int] = []
            took = 0
            while queue and len(heap) + len(done) < cap and took < room:
                bite = min(room - took, prompt_left)
                took += bite
                prompt_left -= bite
                if prompt_left == 0:
                    done.append(queue.pop())
                    prompt_left = chunked[1]
            dt = (step_s(k) if k else 0.0) + took * prefill_s / chunked[1]
            now += dt
            gaps_s += dt * k
            gaps += k
            step += 1 if k else 0
            for out in done:
                ttft_total += now
                heapq.heappush(heap, (step + out - 1, now, out))
            while heap and heap[0][0] <= step:
                _, first, out = heapq.heappop(heap)
                tpot_total += (now - first) / (out - 1) if out > 1 else 0.0
            continue
        while queue and len(heap) < cap:
            out = queue.pop()
            now += prefill_s
            gaps_s += prefill_s * len(heap)  # a prefill step stalls the running sequences' next token
            ttft_total += now
            heapq.heappush(heap, (step + out - 1, now, out))
        if not heap:
            continue
        finish = heap[0][0]
        if finish > step:
            k = len(heap)
            n = finish - step
            now += n * step_s(k)
            gaps_s += n * k * step_s(k)
            gaps += n * k
            step = finish
        while heap and heap[0][0] <= step:
            _, first, out = heapq.heappop(heap)
            tpot_total += (now - first) / (out - 1) if out > 1 else 0.0
    n_req = len(outputs)
    return _Burst(
        output_tokens_per_s=sum(outputs) / now,
        itl_ms=1000 * gaps_s / max(1, gaps),
        tpot_ms=1000 * tpot_total / n_req,
        ttft_s=ttft_total / n_req,
    )


def _burst_ranges(
    row: ServingRow, n: int, eff: ServingEfficiency | None, reading: tuple[str, str | None] | None
) -> tuple[Range, Range, Range]:
    """(output tokens/s, ms per output token, TTFT s) of a finite burst of n requests (_simulate_burst),
    each end of the step and prefill bands simulated apart. The engine's cap is the model's concurrency
    limit (KV cache at the mean held length, engine max batch); a decode step with k sequences is the
    model's decode-only step (static shape: prompt + output/2 of context, no prefill in the step)."""
    prompt, output = lengths(row)
    limit = _predict_at(row, n, eff, reading).max_concurrency
    cap = max(1, min(n, limit))
    alone = _predict_at(row, 1, eff, reading, (prompt, output, "static"))
    prefill = Range(
        low=alone.time_to_first_token_s.low - alone.ms_per_output_token.low / 1000,
        high=alone.time_to_first_token_s.high - alone.ms_per_output_token.high / 1000,
    )
    outputs = _burst_output_lengths(n, output, max(1, SHAREGPT_SAMPLER_MAX_TOKENS - prompt))
    held: tuple[int, int, Batching] = (prompt + output // 2, 2, "static")
    steps: dict[int, Range] = {}

    def step_ms(k: int) -> Range:
        if k not in steps:
            steps[k] = _predict_at(row, k, eff, reading, held).ms_per_output_token
        return steps[k]

    budget = _prefill_chunk_budget(row, reading[1] if reading else readings(row)[0][1])
    chunked = (budget, prompt) if budget else None
    fast = _simulate_burst(outputs, cap, prefill.low, lambda k: step_ms(k).low / 1000, chunked)
    slow = _simulate_burst(outputs, cap, prefill.high, lambda k: step_ms(k).high / 1000, chunked)
    itl = fast.itl_ms, slow.itl_ms
    if row.itl_ms is None and row.tpot_ms is not None:
        itl = fast.tpot_ms, slow.tpot_ms
    return (
        Range(low=slow.output_tokens_per_s, high=fast.output_tokens_per_s),
        Range(low=itl[0], high=itl[1]),
        Range(low=fast.ttft_s, high=slow.ttft_s),
    )


WHOLE_REQUEST_SPEED_FAMILIES = frozenset({"qwen-speed-benchmark"})
"""Families whose batch-1 'speed' is output tokens over the whole request's wall time, prefill included:
Qwen's speed_benchmark_vllm.py times one llm.generate() call (prompt of 1 or 30,720 tokens, 2,048 out) and
divides the 2,048 by it."""


def _whole_request_speed(t: ServingTime) -> Range:
    """Output tokens / (time to first token + output x step) of one request, each end of the band apart."""
    fast = t.time_to_first_token_s.low + t.output_tokens * t.ms_per_output_token.low / 1000
    slow = t.time_to_first_token_s.high + t.output_tokens * t.ms_per_output_token.high / 1000
    return Range(low=t.output_tokens / slow, high=t.output_tokens / fast)


def _union(rs: list[Range]) -> Range:
    return Range(low=min(r.low for r in rs), high=max(r.high for r in rs))


def checks(row: ServingRow, eff: ServingEfficiency | None = None) -> list[Check]:
    ts = [predict(row, eff, r) for r in readings(row)]
    tps = _union([t.output_tokens_per_s for t in ts])
    per_user = _union([t.per_user_tokens_per_s for t in ts])
    ms = _union([t.ms_per_output_token for t in ts])
    ttft = _union([t.time_to_first_token_s for t in ts])
    if _finite_rate(row) is not None:
        runs4 = [_rate_ranges(row, eff, r) for r in readings(row)]
        tps, per_user, ms, ttft = (_union([run[i] for run in runs4]) for i in range(4))
    burst = _burst_requests(row)
    if burst:  # a finite burst drains: its figures are the run's, not a steady state's
        runs = [_burst_ranges(row, burst, eff, r) for r in readings(row)]
        tps, ms, ttft = (_union([run[i] for run in runs]) for i in range(3))
    if row.family in WHOLE_REQUEST_SPEED_FAMILIES and row.concurrency == 1:
        tps = per_user = _union([_whole_request_speed(t) for t in ts])
    out: list[Check] = []
    replicas = row.gpus // (row.tp * row.pp)
    total = row.output_tokens_per_s_total
    if total is None and row.output_tokens_per_s_per_gpu is not None:
        total = row.output_tokens_per_s_per_gpu * row.gpus
    if total is not None:
        out.append(Check(row.id, row.family, "output_tokens_per_s", total, tps.scale(replicas)))
    if row.per_user_tokens_per_s is not None and row.concurrency:
        out.append(Check(row.id, row.family, "per_user_tokens_per_s", row.per_user_tokens_per_s, per_user))
    itl = row.itl_ms or row.tpot_ms
    if itl is not None:
        burst = _streamed_burst_steps(row) if row.itl_ms is not None else 1
        out.append(Check(row.id, row.family, "ms_per_output_token", itl, ms.scale(burst)))
    if row.ttft_ms is not None and not _warm_up_prompt_only(row):
        out.append(Check(row.id, row.family, "ttft_s", row.ttft_ms / 1000, ttft))
    return out


def _warm_up_prompt_only(row: ServingRow) -> bool:
    """A vLLM benchmark_serving.py run of one prompt on an engine with prefix caching on: the script first
    sends input_requests[0] as its 'initial single prompt test run' (vllm benchmarks/benchmark_serving.py,
    benchmark()), so the one measured request finds its whole prompt cached and its TTFT times no prefill
    (dennislee22's 36 ms for 1,024 tokens on an A100, where the prefill alone takes ~50 ms at peak FLOP/s)."""
    text = f"{row.dataset or ''} {row.ambiguous or ''}"
    return "benchmark_serving" in text and "--num-prompts 1 " in text and "prefix caching on" in text


def summarise(label: str, cs: list[Check]) -> str:
    if not cs:
        return f"{label:28s} no figures"
    inside = sum(c.inside for c in cs)
    width = statistics.median(c.width for c in cs)
    err = statistics.median(abs(c.error) for c in cs)
    return (
        f"{label:28s} {inside:3d}/{len(cs):<3d} inside ({inside / len(cs):5.1%}) median width {width:4.2f}x  "
        f"median |error| of geometric middle {err:5.1%}"
    )


def collect(families: list[str], eff: ServingEfficiency | None = None) -> list[Check]:
    rows = [r for r in load_serving_rows() if r.family in set(families) and skip_reason(r) is None]
    return [c for r in rows for c in checks(r, eff)]
