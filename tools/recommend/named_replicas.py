"""The GPUs the user named, as the pick lays them out (expert review 19, R11 turn 3: "Would buying our own 2
L40S GPUs be cheaper than renting over 2 years?" got a Check on 2x L40S as one tensor-parallel replica, 48-66
tokens/s per user and 9.1 GiB per GPU, beside a pick of the same 2 L40S as two one-GPU replicas at 32-49
tokens/s and 16.6 GiB, and a buy-vs-rent for 4 of them: three descriptions of the set-up asked about).

The check on the named set-up (tools.recommend.expectations: n x GPU as one replica, tensor parallel within
the node) stands; when the pick is that GPU laid out otherwise, one sentence after it says how, with the
pick's own figures (its serving plan: replicas, requests per replica, per-user speed), so the reader sees
one configuration:
- the named count split into smaller replicas ("the pick runs these 2 as 2 replicas of 1 GPU");
- the named count as one replica of the pick and more of them beside it ("the pick runs 2 such replicas,
  4x L40S in all, for the spare"), and whether the buy-vs-rent paragraph prices those.
This module only reads the pick; it computes nothing."""

from __future__ import annotations

from tools import present
from tools.cost_buy import BuyRentTimeline
from tools.recommend.models import ExpectationCheck
from tools.recommend.outcome import Outcome


def with_pick_layout(
    checks: list[ExpectationCheck], outcome: Outcome, timeline: BuyRentTimeline | None
) -> list[ExpectationCheck]:
    """`checks` with the named set-up's check followed by how the pick lays the same GPUs out (module
    docstring); unchanged when the pick is another GPU, lays them out the same way, or is no serving pick."""
    p = outcome.engine.p
    pick = outcome.primary
    n = p.claimed_gpu_count
    if pick is None or pick.serving is None or p.claimed_gpu != pick.gpu.id or n is None:
        return checks
    named = f"on {n}x {pick.gpu.name}"
    at = next((i for i, c in enumerate(checks) if named in c.claim), None)
    if at is None:
        return checks
    note = _note(outcome, n, timeline)
    if note is None:
        return checks
    check = checks[at]
    out = list(checks)
    out[at] = check.model_copy(update={"explanation": f"{check.explanation} {note}"})
    return out


def _note(outcome: Outcome, n: int, timeline: BuyRentTimeline | None) -> str | None:
    pick = outcome.primary
    assert pick is not None and pick.serving is not None
    plan = pick.serving
    per_replica = pick.layout.n_gpus
    users = f"{plan.per_replica_concurrency:,} requests per replica"
    speed = f"{present.tokens_per_s_range(plan.per_user_tokens_per_s)} per user"
    why = "the spare replica" if plan.spare_replicas else "the load"
    gpus = "1 GPU" if per_replica == 1 else f"{per_replica} GPUs"
    if pick.total_gpus == n and per_replica < n:
        return (
            f"The pick runs these {n} as {pick.replicas} replicas of {gpus}, not one replica "
            f"over {n}: at {users} each gives {speed}, the figures on the pick's line."
        )
    if per_replica == n and pick.total_gpus > n:
        priced = (
            f"; the buy vs rent prices those {pick.total_gpus}"
            if timeline is not None and not timeline.owned and timeline.n_gpus == pick.total_gpus
            else ""
        )
        carrying = plan.replicas - plan.spare_replicas
        alone = (
            f" The {n} you named alone carry the load with no spare."
            if carrying == 1
            else f" The {n} you named alone carry about 1/{carrying} of the load."
        )
        return (
            f"That is one replica of the pick ({speed} at {users}); it runs {pick.replicas} of them, "
            f"{pick.total_gpus}x {pick.gpu.name} in all, for {why}{priced}.{alone}"
        )
    return None
