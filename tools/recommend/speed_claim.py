"""A claim that one GPU is N times faster than another ("is it true that an H200 is 2x faster than an
H100 for serving Llama 3.3 70B?"; expert review 16, R05: the claim was dropped and an A100 set-up neither
card was recommended). Answered from the engine's own figures for the two GPUs, per GPU:

- serving: output tokens/s of the whole set-up at the stated load (tools.recommend.serving_plan
  ServingPlan.total_tokens_per_s, mid of its range) divided by its GPUs;
- a job: GPU-hours of the run (Candidate.hours_mid x total_gpus); the faster GPU needs fewer.
Each side is the cheapest eligible offer of that GPU, not spot (tools.recommend.compare_gpu_types, the
same pick the side-by-side comparison shows). The claim holds when the measured ratio reaches
CLAIM_TOLERANCE of the claimed one; otherwise the reply opens "No: about 1.4x per GPU".
The review's check (2026-11-28): decode is memory-bound, so the ratio follows HBM bandwidth, H200 4.8 vs
H100 SXM 3.35 TB/s = 1.43x (tools/catalog/gpus.yaml), not 2x."""

from __future__ import annotations

from tools import present
from tools.recommend.candidates import Candidate
from tools.recommend.compare_gpu_types import _cheapest, _eligible
from tools.recommend.models import ExpectationCheck
from tools.recommend.outcome import Outcome

CLAIM_TOLERANCE = 0.85
"""A claimed ratio within 15% of the tools' figure holds: the speed bands themselves are about +-20%
wide (MFU and bandwidth-efficiency bands, tools.compute), so a closer call is not defensible."""
CLAIMED_PAIR = 2


def _per_gpu_speed(c: Candidate, serving: bool) -> float | None:
    """Tokens/s per GPU at the stated load (serving), or 1 / GPU-hours of the run (a job)."""
    if serving:
        if c.serving is None or c.total_gpus <= 0:
            return None
        return float(c.serving.total_tokens_per_s.mid) / c.total_gpus
    gpu_hours = c.hours_mid * c.total_gpus
    return 1 / gpu_hours if gpu_hours > 0 else None


def check_speed_claim(outcome: Outcome) -> ExpectationCheck | None:
    """Whether gpus_compared[0] is claimed_speedup times faster than gpus_compared[1] (module docstring);
    None without such a claim or without an eligible option of each."""
    p = outcome.workload.profile
    if p.claimed_speedup is None or len(p.gpus_compared) != CLAIMED_PAIR:
        return None
    serving = outcome.engine.inference and not outcome.engine.state.batch_job
    sides: list[tuple[Candidate, float]] = []
    for gid in p.gpus_compared:
        mine = [
            c for c in outcome.all_feasible if c.gpu.id == gid and _eligible(c) and c.offer.pricing != "spot"
        ]
        lead = _cheapest(mine)
        speed = _per_gpu_speed(lead, serving) if lead is not None else None
        if lead is None or speed is None:
            return None
        sides.append((lead, speed))
    (fast, fast_speed), (slow, slow_speed) = sides
    ratio = fast_speed / slow_speed
    claimed = p.claimed_speedup
    said = f"{present.number(claimed)}x"
    claim = f"{fast.gpu.name} is {said} faster than {slow.gpu.name}"
    basis = "output tokens/s per GPU at your load" if serving else "GPU-hours for the run"
    measure = (
        f"{fast.total_gpus}x {fast.gpu.name} {fast_speed:,.0f} vs {slow.total_gpus}x "
        f"{slow.gpu.name} {slow_speed:,.0f} tokens/s per GPU"
        if serving
        else f"{fast.total_gpus}x {fast.gpu.name} {fast.hours_mid * fast.total_gpus:,.0f} vs "
        f"{slow.total_gpus}x {slow.gpu.name} {slow.hours_mid * slow.total_gpus:,.0f} GPU-hours"
    )
    about = f"about {ratio:.1f}x per GPU ({basis}: {measure})"
    if ratio >= CLAIM_TOLERANCE * claimed:
        text = f"Yes: {about}."
        verdict = "holds"
    else:
        text = f"No: {about}, not {said}."
        verdict = "cannot_hold"
    return ExpectationCheck(
        claim=claim, verdict=verdict, factor=claimed / ratio, explanation=text, asked=True, leads=True
    )
