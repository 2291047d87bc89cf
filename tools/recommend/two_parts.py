"""Two workloads in one message, asked to be compared ("Which of these needs the bigger box and what would
each cost?", expert review 20, R08: only the training part was sized, "ask 'size the serving part'").

The check takes the two answers the recommender gave, one per part, and says what each pick is and costs
(a serving endpoint a month, a training job a run) and which part needs the bigger box. A box's size is
the GPU memory the work must hold at once, in GiB:
    serving:  peak per GPU x every GPU of the pick (each replica carries part of the stated load)
    training: peak per GPU x the GPUs one copy of the model is split over (tp x pp, x dp when the states
              are sharded: FSDP / ZeRO-3); more data-parallel copies only make the job faster
It computes nothing beyond those products and a comparison; the figures are the picks' own."""

from __future__ import annotations

from tools import present
from tools.profile import WorkloadProfile
from tools.recommend.models import ExpectationCheck, Option, Recommendation

CLAIM_PREFIX = "both parts:"
"""How the check's claim opens (advisor/extract/answered_requests.py counts the question answered by it)."""
SHARDED = ("fsdp", "zero3")
"""Shardings that split one copy of the model's states over the data-parallel GPUs."""


def need_gib(o: Option, serving: bool) -> float:
    """GPU memory the part must hold at once, GiB (module docstring)."""
    if serving:
        return o.peak_gib_per_gpu * o.total_gpus
    t = o.topology
    if t is None:
        return o.peak_gib_per_gpu * o.total_gpus
    per_copy = t.tp * t.pp * (t.dp if t.sharding in SHARDED else 1)
    return o.peak_gib_per_gpu * max(1, min(per_copy, o.total_gpus))


def _name(p: WorkloadProfile) -> str:
    model = p.model_id or "the model"
    if p.workload == "inference":
        users = f" to {p.concurrency:,} users" if p.concurrency else ""
        return f"serving {model}{users}"
    job = present.method_text(p.method, p.workload) if p.method else "training"
    return f"the {job} of {model}"


def _cost(o: Option) -> str:
    if o.cost_basis == "per_job":
        return f"{present.hours_range(o.wall_hours, with_days=False)}, {present.usd_span(o.cost_usd)} a run"
    return f"{present.usd_span(o.cost_usd, '/month')}"


def two_parts_check(
    first: Recommendation, first_p: WorkloadProfile, second: Recommendation, second_p: WorkloadProfile
) -> ExpectationCheck | None:
    """Each part's pick and cost and the bigger box (module docstring); None without both picks."""
    a, b = first.primary, second.primary
    if a is None or b is None:
        return None
    parts = [(a, first_p), (b, second_p)]
    needs = [need_gib(o, p.workload == "inference") for o, p in parts]
    lines = [
        f"{_name(p)} on {o.total_gpus}x {o.gpu_name or o.gpu} at {o.provider}, {_cost(o)}" for o, p in parts
    ]
    big, small = (0, 1) if needs[0] >= needs[1] else (1, 0)
    pb, (os_, ps) = parts[big][1], parts[small]
    name = _name(pb)
    verdict = (
        f"{name[0].upper()}{name[1:]} needs the bigger box: {present.gib(needs[big])} of GPU memory at once, "
        f"against {present.gib(needs[small])} for {_name(ps)}"
    )
    copies = needs[small] < os_.peak_gib_per_gpu * os_.total_gpus
    if ps.workload != "inference" and os_.total_gpus > 1 and copies:
        verdict += f" (its {os_.total_gpus} GPUs are for speed: each holds a copy)"
    text = f"Both parts sized: {'; '.join(lines)}. {verdict}."
    claim = f"{CLAIM_PREFIX} {_name(first_p)} and {_name(second_p)}"
    return ExpectationCheck(claim=claim, verdict="holds", explanation=text, asked=True, leads=True)
