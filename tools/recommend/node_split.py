"""Can it all run on one N-GPU node? Two workloads asked of a node of a stated size (expert review 19, R08:
"(a) serve Qwen2.5 32B Instruct for our internal RAG bot, ~30 concurrent users, 16k context; (b) a nightly
DPO run on Qwen2.5 7B with 200k preference pairs. Can it all run on one 8-GPU node?" sized the DPO only and
left the node question open; the answer is "yes: 4 GPUs serve, 4 train").

The node's GPUs are split: the serving pick (its GPU type and count, at most the node's) keeps its GPUs, and
the training job is sized on the rest of the node, the same GPU type at the same provider (gpus_wanted,
max_gpus, providers_required: advisor/one_box.py asks the recommender). This module only adds up:

    GPUs left for training = node GPUs - serving GPUs
    monthly training hours = wall_hours (each end) x runs_per_month        (one run when not said)
    share of the month     = monthly training hours / 730 h                 (tools.units.HOURS_PER_MONTH)
    node per month         = node GPUs x the serving pick's price per GPU-hour x 730 h

Both run at once on separate GPUs, so neither waits. When the serving pick already takes the whole node, or
the training job has no set-up on the GPUs left, tools/recommend/shared_box.py's answer (the job in a pause
of the endpoint, or no) stands."""

from __future__ import annotations

from tools import present
from tools.profile import WorkloadProfile
from tools.recommend.models import ExpectationCheck, Recommendation
from tools.recommend.shared_box import CLAIM_PREFIX
from tools.units import HOURS_PER_MONTH


def node_split_check(
    serving: Recommendation,
    training_on_rest: Recommendation,
    training: WorkloadProfile,
    node_gpus: int,
    node_offered: bool | None,
) -> ExpectationCheck | None:
    """'Yes: 4 GPUs serve, 4 train' on one `node_gpus`-GPU node (module docstring); None when the split does
    not apply (no serving pick, no GPUs left, or no training set-up on them). `node_offered`: whether the
    serving pick's provider rents nodes of that size of its GPU (None: not known)."""
    box, run = serving.primary, training_on_rest.primary
    if box is None or run is None:
        return None
    rest = node_gpus - box.total_gpus
    if rest <= 0 or run.total_gpus > rest or run.gpu != box.gpu:
        return None
    job = _job_text(training, training_on_rest.profile)
    model = training.model_id or "the model"
    served = serving.profile.model_id or "the model"
    runs = training.runs_per_month or 1.0
    share = run.wall_hours.high * runs / HOURS_PER_MONTH
    low_share = run.wall_hours.low * runs / HOURS_PER_MONTH
    if training.runs_per_month is None:
        cadence = "one run (no cadence said)"
    elif runs >= 1:
        cadence = f"{present.number(runs)} run(s) a month"
    else:
        cadence = f"one run every {present.number(1 / runs)} months"
    node_usd = node_gpus * box.usd_per_gpu_hour * HOURS_PER_MONTH
    node = f"one {node_gpus}-GPU node of {box.gpu_name}"
    if node_offered is False:
        where = (f"; {box.provider} does not list {node_gpus}-GPU nodes of it, so rent the node where it "
                 "does")  # fmt: skip
    else:
        where = ""
    on = f"on {run.total_gpus} of them, " if run.total_gpus < rest else ""
    rate = f", {present.tokens_per_s_range(box.decode_tokens_per_s)}" if box.decode_tokens_per_s else ""
    serve_gpus = "1 GPU serves" if box.total_gpus == 1 else f"{box.total_gpus} GPUs serve"
    serve_usd = present.usd_span(box.cost_usd, "/month")
    serve_mem = f"{present.gib(box.peak_gib_per_gpu)} per GPU"
    train_mem = f"{on}{present.gib(run.peak_gib_per_gpu)} per GPU"
    hours = present.hours_range(run.wall_hours, with_days=False)
    if low_share > 1:
        verdict, answer = "cannot_hold", "No, the cadence does not fit"
    elif share > 1:
        verdict, answer = "tight", "Only at the fast end"
    else:
        verdict, answer = "holds", "Yes"
    return ExpectationCheck(
        claim=f"{CLAIM_PREFIX} {node}: serving {served} and the {job} of {model}",
        verdict=verdict,
        factor=share,
        explanation=(
            f"{answer}, on {node}: {serve_gpus} {served} ({serve_mem}{rate}), the other "
            f"{rest} run the {job} of {model} ({train_mem}) in {hours} a run, {cadence}: "
            f"{_share_text(low_share, share)} of their month, side by side with the endpoint. The whole node "
            f"at {box.provider}'s {present.usd(box.usd_per_gpu_hour)} per GPU-hour: {present.usd(node_usd)} "
            f"a month (the serving GPUs alone: {serve_usd}){where}."
        ),
        asked=True,
        leads=True,
    )


def _job_text(training: WorkloadProfile, resolved: WorkloadProfile) -> str:
    """'DPO (LoRA)', 'QLoRA', 'full fine-tuning': the objective when it is not plain SFT, with the method
    the training answer sized (its profile's, defaults filled)."""
    method = resolved.method or training.method
    how = present.method_text(method, training.workload) if method else None
    objective = training.training_objective
    if objective and objective != "sft":
        return f"{objective.upper()} ({how})" if how else objective.upper()
    return how or "training job"


def _share_text(low: float, high: float) -> str:
    """'75.0%', or '50% - 75%' when the two ends differ by more than a point."""
    if high - low < 0.01:
        return present.pct(high, 1)
    return f"{present.pct(low)} - {present.pct(high)}"
