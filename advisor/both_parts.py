"""'Which needs the bigger box and what would each cost?' asked of a message with two workloads (expert
review 20, R08: the training part was sized and the serving part left to a later 'size the serving part').
The other workload (InputAccount.other_workload) is sized too and tools/recommend/two_parts.py says what
each pick costs and which part needs the bigger box. Asked only when the input holds such a question and a
second workload; the extra recommendation runs only then. 'Can one box do both?' is advisor/one_box.py's."""

from __future__ import annotations

from collections.abc import Callable

from advisor.extract.answered_requests import EACH_Q
from advisor.one_box import asks_one_box
from tools.errors import InputError
from tools.input_account import InputAccount
from tools.profile import WorkloadProfile
from tools.recommend.models import Recommendation
from tools.recommend.two_parts import two_parts_check


def _asked(account: InputAccount) -> bool:
    said = [c.text for c in account.unused if c.kind == "question"]
    said += [t for t in account.used if t.rstrip().endswith("?")]
    return any(EACH_Q.search(t) for t in said)


def with_both_parts(
    rec: Recommendation | None,
    profile: WorkloadProfile,
    account: InputAccount | None,
    recommend: Callable[[WorkloadProfile], Recommendation],
) -> Recommendation | None:
    """`rec` with both parts' answer first among its checks, when asked (module docstring)."""
    if rec is None or account is None or account.other_workload is None or asks_one_box(account):
        return rec
    if not _asked(account):
        return rec
    other = account.other_workload
    try:
        other_rec = recommend(other)
    except InputError:
        return rec
    check = two_parts_check(rec, profile, other_rec, other)
    if check is None:
        return rec
    return rec.model_copy(update={"expectation_checks": (check, *rec.expectation_checks)})
