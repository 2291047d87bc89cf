"""'Can one box do both?' asked of a message with two workloads (expert review 18, R11): the serving part is
sized, the training part is sized on the serving pick's GPUs, and tools/recommend/shared_box.py answers
whether one box runs both. Asked only when the input holds the question and a second workload
(InputAccount.other_workload); the two extra recommendations run only then."""

from __future__ import annotations

from collections.abc import Callable

from advisor.extract.answered_requests import ONE_BOX_Q
from tools.errors import InputError
from tools.input_account import InputAccount
from tools.profile import WorkloadProfile
from tools.recommend.models import Recommendation
from tools.recommend.shared_box import one_box_check


def asks_one_box(account: InputAccount | None) -> bool:
    """Whether the input holds a second workload and an unanswered question whether one box does both."""
    if account is None or account.other_workload is None:
        return False
    return any(c.kind == "question" and ONE_BOX_Q.search(c.text) for c in account.unused)


def with_one_box(
    rec: Recommendation | None,
    profile: WorkloadProfile,
    account: InputAccount | None,
    recommend: Callable[[WorkloadProfile], Recommendation],
) -> Recommendation | None:
    """`rec` with the one-box answer first among its checks, when asked (module docstring)."""
    if rec is None or account is None or not asks_one_box(account):
        return rec
    other = account.other_workload
    assert other is not None
    serving, training = (other, profile) if other.workload == "inference" else (profile, other)
    if training.workload == "inference" or serving.workload != "inference":
        return rec  # two serving parts or two training parts: not this question's shape
    try:
        serving_rec = rec if serving is profile else recommend(serving)
        box = serving_rec.primary
        if box is None:
            return rec
        why = {"gpus_wanted": "the serving pick's GPU (one box for both)",
               "max_gpus": "the serving pick's GPU count (one box for both)"}  # fmt: skip
        on_box = training.with_values("inferred", why, gpus_wanted=[box.gpu], max_gpus=box.total_gpus)
        training_rec = recommend(on_box)
    except InputError:
        return rec
    check = one_box_check(serving_rec, training_rec, training)
    if check is None:
        return rec
    return rec.model_copy(update={"expectation_checks": (check, *rec.expectation_checks)})
