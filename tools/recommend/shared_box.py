"""Can one box do both? A serving workload and a training workload in one request, asked whether the
serving pick's hardware also runs the training job (expert review 18, R11: "(1) serve Mixtral 8x7B ...
~20 users, and (2) separately ... a QLoRA of Llama 3 8B on 10M tokens once a month. Can one box do both?"
was left as "a question I could not answer").

The check takes the two answers the recommender already gave: the serving pick (its GPU, count, memory
per GPU and monthly cost) and the training job sized on that GPU with at most that many of them
(gpus_wanted, max_gpus). It computes nothing of its own beyond sums and a share:
    monthly training hours = wall_hours x runs_per_month                      (one run when not said)
    share of the month     = monthly training hours / 730 h                   (tools.units.HOURS_PER_MONTH)
    side by side           = serving peak + training peak <= usable, per GPU   (both in GiB)
Yes when the training fits on the serving box: beside the running endpoint when the memory sums fit,
else in a pause of the endpoint for those hours. No when the training job has no feasible set-up on it.
"""

from __future__ import annotations

from tools import present
from tools.profile import WorkloadProfile
from tools.ranges import Range
from tools.recommend.models import ExpectationCheck, Recommendation
from tools.units import HOURS_PER_MONTH

CLAIM_PREFIX = "one box for both:"
"""How the check's claim opens (advisor/extract/answered_requests.py counts the question answered by it)."""


def one_box_check(
    serving: Recommendation, training_on_box: Recommendation, training: WorkloadProfile
) -> ExpectationCheck | None:
    """The answer to 'can one box do both?' (module docstring); None without a serving pick."""
    box = serving.primary
    if box is None:
        return None
    what = f"{box.total_gpus}x {box.gpu_name} at {box.provider}"
    cost = present.usd_span(box.cost_usd, "/month")
    job = present.method_text(training.method, training.workload) if training.method else "training job"
    model = training.model_id or "the model"
    claim = f"{CLAIM_PREFIX} {what} serving, and the {job} of {model}"
    budget = _budget_words(serving, box.cost_usd)
    run = training_on_box.primary
    if run is None:
        return ExpectationCheck(
            claim=claim,
            verdict="cannot_hold",
            explanation=(
                f"No, not on one box: the serving pick, {what} ({cost}{budget}), cannot also run the {job} "
                f"of {model}: it has no feasible set-up on {box.total_gpus} {box.gpu_name} (see the training "
                "answer for what it needs)."
            ),
            asked=True,
            leads=True,
        )
    runs = training.runs_per_month or 1.0
    month_hours = run.wall_hours.high * runs
    share = month_hours / HOURS_PER_MONTH
    together = box.peak_gib_per_gpu + run.peak_gib_per_gpu
    if run.total_gpus <= box.total_gpus and together <= box.vram_gib_per_gpu:
        how = (
            f"it fits beside the running endpoint ({present.gib(box.peak_gib_per_gpu)} + "
            f"{present.gib(run.peak_gib_per_gpu)} of {present.gib(box.vram_gib_per_gpu)} per GPU)"
        )
    else:
        how = (
            f"run it while the endpoint is paused or moved: the two do not fit in memory together "
            f"({present.gib(box.peak_gib_per_gpu)} + {present.gib(run.peak_gib_per_gpu)} > "
            f"{present.gib(box.vram_gib_per_gpu)} per GPU)"
        )
    if training.runs_per_month is None:
        cadence = "one run (no cadence said)"
    elif runs >= 1:
        cadence = f"{present.number(runs)} run(s) a month"
    else:
        cadence = f"one run every {present.number(1 / runs)} months"
    return ExpectationCheck(
        claim=claim,
        verdict="holds",
        factor=share,
        explanation=(
            f"Yes, one box can do both: the serving pick, {what} ({cost}{budget}), also runs the {job} of "
            f"{model} on {run.total_gpus} of its GPUs ({present.gib(run.peak_gib_per_gpu)} per GPU) in "
            f"{present.hours_range(run.wall_hours, with_days=False)} a run, {cadence}: "
            f"{present.pct(share, 1)} of the box's month; {how}."
        ),
        asked=True,
        leads=True,
    )


def _budget_words(serving: Recommendation, cost: Range) -> str:
    """', within the $2,000 a month budget' (at its low end, or above it) when the serving part holds a
    monthly budget."""
    budget = serving.profile.budget_usd
    if budget is None or serving.profile.budget_capex:
        return ""
    said = f"the {present.usd(budget)} a month budget"
    if cost.high <= budget:
        return f", within {said}"
    return f", {said} at its low end" if cost.low <= budget else f", above {said}"
