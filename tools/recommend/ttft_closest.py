"""When no layout of a GPU meets a stated time-to-first-token target at any replica count, the layout that
comes closest and by how much (srv15: 'Mistral NeMo 12B, 120 sessions, 6,000-token prompts, first token
under 0.3 s, L40S' was told only that 'the speed or load asked for rules each configuration out').

The nearest a layout gets is one request per engine (no prompt queues behind another): the serving model's
TTFT range at concurrency 1 (tools/compute/serving_steps.py `time_to_first_token`: prefill + part of a
decode step). Tensor parallelism shortens the prefill's compute but adds its all-reduces
(tools/compute/serving.py, prefill), so on PCIe cards a wider engine need not be faster: every single-node
tensor-parallel width that fits is tried.
"""

from __future__ import annotations

from typing import Any

from tools import present
from tools.ranges import Range
from tools.recommend.engine import Engine

TP_WIDTHS = (1, 2, 4, 8)
"""Single-node tensor-parallel widths tried (the GPUs per node cloud offers sell, tools/catalog)."""


def closest_ttft(
    eng: Engine, gpu: Any, target_s: float, max_gpus: int | None = None
) -> tuple[int, Range] | None:
    """(GPUs per engine, TTFT range at one request) of the fitting single-node layout whose fast end is the
    lowest, within the user's GPU cap `max_gpus`; None when no width fits in memory."""
    best: tuple[int, Range] | None = None
    for n in TP_WIDTHS:
        if (max_gpus is not None and n > max_gpus) or not eng.calc.fit_layouts(gpu, n, 1):
            continue
        first = eng.calc.serving(gpu, n, 1).time_to_first_token_s
        if best is None or first.low < best[1].low:
            best = (n, first)
    return best


def closest_ttft_words(eng: Engine, gpu: Any, target_s: float, max_gpus: int | None = None) -> str | None:
    """'The closest: 8x NVIDIA L40S as one engine with one request ... 0.47-0.54 s ..., 0.17 s (57%) over
    your 0.3 s target even at the fast end'; the band straddling the target is named as such; None when
    no layout fits."""
    got = closest_ttft(eng, gpu, target_s, max_gpus)
    if got is None:
        return None
    n, first = got
    layout = f"{n}x {gpu.name}" + (" as one tensor-parallel engine" if n > 1 else "")
    band = f"{present.sig2_span(first)} s to the first token"
    if first.low > target_s:
        over_s = first.low - target_s
        return (
            f"The closest: {layout} with a single request on it, {band}, {present.sig2(over_s)} s "
            f"({over_s / target_s:.0%}) over your {target_s:g} s target even at the fast end."
        )
    return (
        f"The closest: {layout} with a single request on it, {band}, meets your {target_s:g} s target only "
        "at the fast end, and only with one request per engine: more engines than the offers sell."
    )
