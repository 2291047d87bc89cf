"""A follow-up that keeps only part of the set-up named or held before: "and if we only got one of the two
nodes?", "what if we only had half of them?", "with just one node?" (expert review 6, R20 turn 3: "a
question I could not answer", answer unchanged), or grows it: "and if we add two more of the same cards?",
"what if we doubled it?" (expert review 10, R20 turn 3).

The earlier turns' set-up is the hardware the team holds (owned_gpu_count, e.g. a 2-node 8x H200
reservation) or the one a claim or question named (claimed_gpu_count, "is 16x H100 enough?"); the
follow-up's count replaces it: its nodes x the GPUs per node. GPUs per node come from the earlier words
("16x H200 (two nodes)", "2 nodes with 8x H100 each"), else 8 per node (an HGX / DGX board holds 8 GPUs:
NVIDIA DGX H100/H200 user guide, "8x NVIDIA H100 GPUs"), said in the evidence. A sentence that names a
GPU of its own is a new set-up (the GPU rules read it), not a share of the old one.
"""

from __future__ import annotations

import re

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_models import GPU_RE
from advisor.extract.rules_text import Sentence, parse_number

GPUS_PER_NODE_DEFAULT = 8  # HGX / DGX boards: 8 GPUs per node (NVIDIA DGX H100/H200 user guide)
_SMALL = r"\d+|one|two|three|four|five|six|eight|a\s+single|a|single"
_UNIT = r"nodes?|servers?|boxes|box|machines?"
# "one of the two nodes", "only one node", "just a single box", "half of them", "half the nodes"
_SHARE = keyed(
    rf"\b(?P<n>{_SMALL})\s+of\s+(?:the|our|those|these)\s+(?:(?P<m>{_SMALL})\s+)?(?P<unit>{_UNIT})\b"
    rf"|\b(?:only|just)\s+(?:(?:got|had|get|have|use|used|keep|kept|had\s+access\s+to)\s+)?(?P<n2>{_SMALL})"
    rf"\s+(?P<unit2>{_UNIT})\b"
    r"|\b(?P<half>half)\s+(?:of\s+)?(?:them\b|(?:the|our|those|that)\s+(?:gpus|cards|nodes|servers|boxes"
    r"|machines|cluster|reservation|capacity)\b)",
    I,
)
# "and if we add two more of the same cards?", "with 4 more GPUs?", "what if we doubled it?" (expert
# review 10, R20 turn 3): the earlier count grows by the number said (GPUs, or nodes of the earlier size)
_MORE = keyed(
    rf"\b(?:add(?:ed|ing)?|get|got|buy|bought|had|have|rent(?:ed)?|with|plus)\s+(?:another\s+)?"
    rf"(?P<n>{_SMALL})\s+(?:more|extra|additional)\b(?:\s+(?:of\s+(?:the\s+)?(?:same|those|these|them)\s+)?"
    rf"(?P<unit>{_UNIT}|gpus?|cards?)\b|(?=\s*(?:[?.!,]|$)))"
    r"|\b(?P<double>doubl(?:e|ed|ing))\s+(?:it|them|that|the\s+(?:gpus|cards|nodes|count|cluster))\b",
    I,
)
_HYPOTHETICAL = re.compile(r"\?|\b(?:if|suppose|say|assuming|instead)\b", I)
_NODES_SAID = re.compile(rf"\b(?P<m>{_SMALL})[\s-]+(?:{_UNIT})\b", I)


def _count(word: str) -> int:
    low = " ".join(word.lower().split())
    return 1 if low in ("a", "single", "a single") else int(parse_number(low))


def rule_followup_share(ctx: Ctx) -> None:
    """owned_gpu_count or claimed_gpu_count for a follow-up keeping part of the earlier set-up."""
    prior = ctx.prior
    if prior is None:
        return
    if prior.claimed_gpu is not None and prior.claimed_gpu_count is not None:
        field, total = "claimed_gpu_count", prior.claimed_gpu_count
    elif prior.owned_gpu is not None and prior.owned_gpu_count is not None:
        field, total = "owned_gpu_count", prior.owned_gpu_count
    else:
        return
    earlier = prior.provenance.get(field)
    earlier_words = (earlier.evidence if earlier is not None else None) or ""
    for s in ctx.sentences:
        t = s.text
        if not _HYPOTHETICAL.search(t) or GPU_RE.search(t) is not None:
            continue
        if _grow(ctx, s, field, total, earlier_words):
            return
        m = _SHARE.search(t)
        if m is None:
            continue
        if m.group("half"):
            new, how = total // 2, f"half of {total}"
        else:
            n = _count(m.group("n") or m.group("n2"))
            nodes, said = _nodes(total, earlier_words, m.group("m"))
            per_node = total // nodes
            basis = "" if said else f", {GPUS_PER_NODE_DEFAULT} GPUs per node assumed"
            new, how = n * per_node, f"{n} x {per_node} GPUs per node ({total} GPUs in {nodes} nodes{basis})"
        if 0 < new < total:
            ctx.add(s, field, new, f'"{q(m)}": {how} = {new} GPUs', "inferred", m.start())
            return


def _nodes(total: int, earlier_words: str, said: str | None = None) -> tuple[int, bool]:
    """Nodes the earlier `total` GPUs sit in: said in the follow-up, else in the earlier words ("16x H200
    (two nodes)"), else GPUS_PER_NODE_DEFAULT per node; and whether the count was said."""
    earlier_nodes = _NODES_SAID.search(earlier_words)
    said = said or (earlier_nodes.group("m") if earlier_nodes else None)
    return (_count(said), True) if said else (max(1, total // GPUS_PER_NODE_DEFAULT), False)


def _grow(ctx: Ctx, s: Sentence, field: str, total: int, earlier_words: str) -> bool:
    """The earlier count plus the GPUs (or nodes) a follow-up adds; True when it was read."""
    m = _MORE.search(s.text)
    if m is None:
        return False
    if m.group("double"):
        new, how = total * 2, f"twice {total}"
    else:
        n = _count(m.group("n"))
        if m.group("unit") and re.match(_UNIT, m.group("unit"), I):
            per_node = max(1, total // _nodes(total, earlier_words)[0])
            new, how = total + n * per_node, f"{total} + {n} x {per_node} GPUs per node"
        else:
            new, how = total + n, f"{total} + {n}"
    ctx.add(s, field, new, f'"{q(m)}": {how} = {new} GPUs', "inferred", m.start())
    return True
