"""'Can one box do both?' asked of a message with two workloads (expert review 18, R11): the serving part is
sized, the training part is sized on the serving pick's GPUs, and tools/recommend/shared_box.py answers
whether one box runs both. Asked only when the input holds the question and a second workload
(InputAccount.other_workload); the two extra recommendations run only then.

A node of a stated size ("Can it all run on one 8-GPU node?", expert review 19, R08) is split instead: the
serving part is sized on at most that many GPUs, the training part on the node's other GPUs of the same
type at the same provider, and tools/recommend/node_split.py answers "yes: 4 GPUs serve, 4 train"; when
nothing is left for training or it has no set-up there, the shared-box answer stands."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from advisor.extract.answered_requests import ONE_BOX_Q
from advisor.extract.rules_gpus import _in_catalog, family_ids
from advisor.extract.rules_models import GPU_RE
from tools.catalog.load import load_catalog
from tools.errors import InputError
from tools.input_account import InputAccount
from tools.profile import WorkloadProfile
from tools.recommend.models import ExpectationCheck, Recommendation
from tools.recommend.node_split import node_split_check
from tools.recommend.shared_box import one_box_check

# the node's size in the question: "one 8-GPU node", "a single 8x node", "one node with 8 GPUs"
_NODE_GPUS = re.compile(
    r"\b(?P<n>\d{1,2})[\s-]*(?:x\s*)?(?:gpus?|cards?|(?:nvidia\s+)?[ahbl]\d{2,3}\w*|l40s|mi\d{3}x?)?[\s-]*"
    r"(?:node|box|server|machine)\b"
    r"|\b(?:node|box|server|machine)\s+(?:with|of)\s+(?P<m>\d{1,2})\s*(?:gpus?|cards?)\b",
    re.I,
)


def _questions(account: InputAccount) -> list[str]:
    """The input's questions whether one box does both: unused ones, and used ones (a node's size read as
    a GPU limit, "Can it all run on one 8-GPU node?", still asks the question)."""
    said = [c.text for c in account.unused if c.kind == "question"]
    said += [t for t in account.used if t.rstrip().endswith("?")]
    return [t for t in said if ONE_BOX_Q.search(t)]


def asks_one_box(account: InputAccount | None) -> bool:
    """Whether the input holds a second workload and a question whether one box does both."""
    if account is None or account.other_workload is None:
        return False
    return bool(_questions(account))


def node_size(account: InputAccount) -> int | None:
    """The GPUs of the one node the question names ("one 8-GPU node" -> 8), None when it names no size."""
    for text in _questions(account):
        m = _NODE_GPUS.search(text)
        if m is not None:
            n = int(m.group("n") or m.group("m"))
            return n if n > 1 else None
    return None


def node_gpu(account: InputAccount) -> list[str]:
    """The catalog ids of the GPU the node is named with ("a single 8x H100 node" -> the H100s), [] when
    the question names none."""
    for text in _questions(account):
        m = _NODE_GPUS.search(text)
        g = GPU_RE.search(text[m.start() : m.end()]) if m is not None else None
        if g is not None:
            return [i for i in family_ids(g.group("gpu")) if _in_catalog(i)]
    return []


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
    node = node_size(account)
    try:
        if node is not None and serving.max_gpus is None:  # the serving part fits in the node it asks of
            why = {"max_gpus": f"the {node}-GPU node asked about"}
            serving = serving.with_values("inferred", why, max_gpus=node)
        named = node_gpu(account)
        if named and not serving.gpus_wanted:  # "a single 8x H100 node": that GPU
            serving = serving.with_values("inferred", {"gpus_wanted": "the node's GPU asked about"},
                                          gpus_wanted=named)  # fmt: skip
        serving_rec = rec if serving is profile else recommend(serving)
        box = serving_rec.primary
        if box is None:
            return rec
        check = _split(serving_rec, training, node, recommend) if node is not None else None
        if check is None:
            why = {"gpus_wanted": "the serving pick's GPU (one box for both)",
                   "max_gpus": "the serving pick's GPU count (one box for both)"}  # fmt: skip
            on_box = training.with_values("inferred", why, gpus_wanted=[box.gpu], max_gpus=box.total_gpus)
            check = one_box_check(serving_rec, recommend(on_box), training)
    except InputError:
        return rec
    if check is None:
        return rec
    return rec.model_copy(update={"expectation_checks": (check, *rec.expectation_checks)})


def _split(
    serving_rec: Recommendation,
    training: WorkloadProfile,
    node: int,
    recommend: Callable[[WorkloadProfile], Recommendation],
) -> ExpectationCheck | None:
    """The node split (tools/recommend/node_split.py), or None when nothing is left for the training part."""
    box = serving_rec.primary
    assert box is not None
    rest = node - box.total_gpus
    if rest <= 0:
        return None
    why = {"gpus_wanted": "the serving pick's GPU (the rest of the node)",
           "max_gpus": f"the {rest} GPUs of the {node}-GPU node the serving part leaves",
           "providers_required": "the serving pick's provider (one node)"}  # fmt: skip
    on_rest = training.with_values(
        "inferred", why, gpus_wanted=[box.gpu], max_gpus=rest, providers_required=[box.provider]
    )
    return node_split_check(serving_rec, recommend(on_rest), training, node, _offered(recommend, box, node))


def _offered(recommend: Any, box: Any, node: int) -> bool | None:
    """Whether the serving pick's provider lists nodes of `node` of its GPU: in the recommender's catalog
    when it carries one (advisor.service.recommending.Recommending), else the bundled one; None when
    neither answers."""
    loader = getattr(recommend, "catalog", None) or load_catalog
    try:
        records = loader().prices_for(box.gpu)
    except (InputError, LookupError, TypeError, ValueError):
        return None
    return any(r.provider == box.provider and node in r.gpus_per_node for r in records)
