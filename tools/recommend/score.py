"""The ranking score of a candidate and the order of candidates (lower is better; the rules are in
the tools.recommend package docstring)."""

from __future__ import annotations

import math

from tools.compute.efficiency import UNCALIBRATED_MFU, generation_of
from tools.profile import WorkloadProfile
from tools.recommend.candidates import Candidate
from tools.recommend.risk import RISK_BUDGET_MID_OVER, RISK_LIMIT_MAYBE, budget_runs

TIME_WEIGHT = 0.3
"""Balanced score exponent on wall-clock hours (see the tools.recommend docstring)."""
MIN_SCORED_WALL_HOURS = 1.0
"""Balanced score: a run shorter than an hour counts as an hour. Provisioning, pulling the image and
the base model and loading it take tens of minutes whatever the GPU count, so finishing a 40-minute
LoRA run in 5 minutes on 8 GPUs is no gain worth ranking a bigger configuration first for."""
JOB_SETUP_HOURS = 0.5
"""Balanced score: every training run is charged half an hour of set-up on all of its GPUs (provision,
pull the image and the base model, load it, write the final checkpoint), billed while the GPUs do no
training. The cost figures leave it out (it varies by team); the ranking needs it, or a 40-minute job
looks as cheap on 8 GPUs as on 1 (seed 000: over-provisioning fine-tuning is the common mistake)."""
MULTI_GPU_TRAINING_SETUP = 0.20
"""Balanced score, training on more than one GPU: a distributed launch to set up and debug (torchrun or
accelerate, DDP or FSDP / ZeRO, NCCL) that one GPU avoids (seed 003: for 7B-13B LoRA/QLoRA "a single L40S or
A100 40GB ... you avoid the complexity of distributed training entirely"; seed 000: over-provisioning
fine-tuning is the common mistake). Weighed like a community tier (tools.recommend.risk.RISK_COMMUNITY), so 8
GPUs finishing a small LoRA job in an hour no longer outrank one GPU finishing it overnight for about the same
money (evals/cases: "what gpu do I need to fine-tune mistral 7b with lora?" was answered with 8x L40S). A
ranking preference, not an operational risk: the 'lowest operational risk' alternative does not weigh it, or
a slow single GPU beaten on cost and time is offered as the safe choice."""


def unmeasured(c: Candidate, inference: bool) -> bool:
    """Training on a GPU type whose efficiency band is a prior with no published throughput behind it
    (tools.compute.efficiency.UNCALIBRATED_MFU: AMD, Intel Gaudi)."""
    return not inference and generation_of(c.gpu) in UNCALIBRATED_MFU


def _ranked_cost_and_hours(c: Candidate, inference: bool) -> tuple[float, float]:
    """Cost and hours at the ranking point; an unmeasured GPU's at the slow end of its range. Its band
    (0.2-0.4 MFU) is a guess twice as wide as a fitted one: a buyer does not pay for a speed nobody has
    measured, or a $1.3M purchase of 64 Gaudi 3 is picked for a 13B pre-training run on the optimistic
    half of a prior (expert review, 2026-11-25)."""
    if unmeasured(c, inference):
        return c.total_usd.high, c.wall_hours.high
    return c.cost_mid, c.hours_mid


def ranked_cost_usd(c: Candidate, inference: bool) -> float:
    """The cost the balanced ranking weighs: the cost at the ranking point (an unmeasured GPU's at its
    high end) plus, for training, the set-up every run bills on all of its GPUs (JOB_SETUP_HOURS)."""
    if inference:
        return c.cost_mid
    cost, _ = _ranked_cost_and_hours(c, inference)
    return cost + c.layout.n_gpus * c.replicas * JOB_SETUP_HOURS * c.offer.usd_per_gpu_hour_mid


def score(c: Candidate, p: WorkloadProfile, inference: bool) -> float:
    """The candidate's score under the profile's objective (cheapest, fastest or balanced)."""
    obj = p.objective or "balanced"
    if inference:
        speed = 1.0 / max(c.decode_tokens_per_s.mid if c.decode_tokens_per_s else 1.0, 1e-9)
    else:
        speed = max(_ranked_cost_and_hours(c, inference)[1], 1e-9)
    if obj == "cheapest":  # the set-up every training run bills on all its GPUs is money too
        return ranked_cost_usd(c, inference) + 1e-6 * speed
    if obj == "fastest":
        return speed + 1e-9 * c.cost_mid
    cost = ranked_cost_usd(c, inference)
    if not inference:
        speed = max(speed, MIN_SCORED_WALL_HOURS)
    points = RISK_LIMIT_MAYBE if c.limit_maybe else 0.0  # on top of the operational risk points
    if not inference and c.total_gpus > 1:
        points += MULTI_GPU_TRAINING_SETUP
    runs = budget_runs(p, inference)
    if c.budget_status == "maybe" and p.budget_usd and c.total_usd.mid * runs > p.budget_usd:
        points += RISK_BUDGET_MID_OVER
    return math.log(max(cost, 1e-9)) + TIME_WEIGHT * math.log(speed) + c.risk + points


def order(cands: list[Candidate], p: WorkloadProfile, inference: bool) -> list[Candidate]:
    """Best first (each candidate's `score` set); for cheapest/fastest, options that meet the limits only
    at one end of their range come after those that surely meet them; serving configurations short of the
    throughput target come after those that reach it. Ties break on the identity."""
    strict = (p.objective or "balanced") != "balanced"
    for c in cands:
        c.score = score(c, p, inference)
    return sorted(
        cands, key=lambda c: (c.short_of_target, strict and c.limit_maybe, c.score, c.cost_mid, c.key)
    )
