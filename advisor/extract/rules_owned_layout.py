"""How the team's own GPUs sit in servers, and the network between them (expert review 18, R03 and R13):
owned_gpus_per_node and owned_fabric, read in the sentence that says what the team owns and the one after.

- GPUs per server: "16x A100 80GB (2 nodes, InfiniBand)" (16 / 2 = 8, inferred), "4 servers with 8x A100
  40GB each", "8 GPUs per node", "two 8xH100 nodes", "2 nodes of 8 H100", "two DGX A100" (8 each:
  rules_fleet.GPUS_PER_DGX);
- the network: "InfiniBand", "NDR IB", "RoCE", "100 Gb Ethernet", "25GbE"; "no InfiniBand" alone is Ethernet.
A node count that does not divide the GPUs owned, or a size above them, says nothing. Rented machines are
not read: only the sentences of the owned finding (or, in a later turn about the GPUs owned before, a
sentence that names their servers or network with "our", "they" or "them").
"""

from __future__ import annotations

import re

from advisor.extract.base import Finding
from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I, negated, q
from advisor.extract.rules_fleet import GPUS_PER_DGX
from advisor.extract.rules_text import NUMBER, Sentence, parse_number

_MACHINE = r"(?:nodes?|servers?|boxes|box|machines?|hosts?|chassis)"
# "8 GPUs per node", "8 per server", "8 GPUs in each node", "8 cards/node"
_PER_NODE = keyed(
    rf"\b(?P<per>\d+)\s*(?:x\s*|×\s*)?(?:gpus?|cards?|accelerators?)?\s*(?:per|in\s+each|each|/)\s*{_MACHINE}\b",
    I,
)
# "8x A100 40GB each", "with 8 GPUs each", "8x H100 SXM apiece"
_EACH = keyed(
    r"\b(?P<per>\d+)\s*[x×]\s*[^,.;()]{1,30}?\s+(?:each|apiece)\b"
    r"|\bwith\s+(?P<per2>\d+)\s+(?:gpus?|cards?)\s+(?:each|apiece)\b",
    I,
)
# "two 8xH100 nodes", "2 8-GPU servers", "2 nodes of 8 H100", "4 servers with 8x A100"
_SIZED = keyed(
    rf"\b{NUMBER}\s+(?P<per>\d+)\s*(?:x|×|-)\s*(?:gpus?\s+|[a-z]{{1,3}}\d{{2,4}}\w*\s+){_MACHINE}\b"
    rf"|\b{NUMBER}\s+{_MACHINE}\s+(?:of|with)\s+(?P<per2>\d+)\s*(?:x|×)?\s*(?:gpus?|cards?|[a-z]{{1,3}}\d{{2,4}})",
    I,
)
# "(2 nodes, InfiniBand)", "across two servers", "in 4 boxes"
_NODES = keyed(
    rf"\b(?P<n>{NUMBER})\s+(?:(?:hgx|dgx|gpu|compute|training|physical)\s+)?{_MACHINE}\b"
    r"(?!\s*(?:per|each))",
    I,
)
_DGX = keyed(r"\b(?:dgx|hgx)\b", I)
_INFINIBAND = keyed(
    r"\binfini[\s-]?band\b|\b(?:ndr|hdr|edr|xdr)\s*(?:ib|infiniband)\b|\bIB\s+(?:network|fabric|interconnect|links?)\b",
    I,
)
_ROCE = keyed(r"\broce(?:\s*v2)?\b|\brdma\s+over\s+(?:converged\s+)?ethernet\b", I)
_ETHERNET = keyed(r"\b(?:\d+\s*(?:g|gb|gbit|gbps|gb/s|gigabit)[\s-]*)?ethernet\b|\b\d+\s*gbe\b|\bgbe\b", I)
# a later turn about the servers owned before: "they're 2 nodes over InfiniBand", "our servers use RoCE"
_THEIRS = keyed(r"\b(?:our|they(?:'re|\s+are)?|them|those|these|the\s+(?:cluster|servers?|nodes?))\b", I)
_RENTED = keyed(
    r"\b(?:rent\w*|cloud|provider|quote[sd]?|on[\s-]demand|spot|reserv\w*|buy\w*|purchas\w*)\b", I
)


def _owned_sentences(ctx: Ctx) -> list[Sentence]:
    """The sentences holding an owned-hardware finding, each with the one after it (unless that one is about
    renting or buying)."""
    spots = [f.position for f in ctx.findings if f.field in ("owned_gpu", "owned_gpu_count")]
    out: list[Sentence] = []
    for i, s in enumerate(ctx.sentences):
        if any(s.start <= pos <= s.start + len(s.text) for pos in spots):
            after = ctx.sentences[i + 1 : i + 2]
            for t in [s, *(a for a in after if _RENTED.search(a.text) is None)]:
                if t not in out:
                    out.append(t)
    if not out and ctx.prior is not None and ctx.prior.owned_gpu:
        out = [s for s in ctx.sentences if _THEIRS.search(s.text) and not _RENTED.search(s.text)]
    return out


def _owned_count(ctx: Ctx) -> int | None:
    counts: list[Finding] = [f for f in ctx.findings if f.field == "owned_gpu_count"]
    if counts:
        return int(max(counts, key=lambda f: f.position).value)
    return ctx.prior.owned_gpu_count if ctx.prior is not None else None


def _per_node(s: Sentence, count: int | None) -> tuple[int, str, str] | None:
    """(GPUs per server, status, evidence) said in `s`."""
    t = s.text
    for rx in (_PER_NODE, _EACH, _SIZED):
        for m in rx.finditer(t):
            said = next((g for g in ("per", "per2") if g in m.re.groupindex and m.group(g)), None)
            if said is None:
                continue
            per = int(m.group(said))
            if per >= 1 and (count is None or per <= count):
                return per, "stated", q(m)
    if count is None:
        return None
    for m in _NODES.finditer(t):
        n = int(parse_number(m.group("n")))
        if n >= 1 and count % n == 0 and count // n >= 1:
            return count // n, "inferred", f"{count} GPUs / {q(m)} = {count // n} per server"
    if _DGX.search(t) is not None and count % GPUS_PER_DGX == 0:
        return GPUS_PER_DGX, "inferred", f"DGX/HGX servers hold {GPUS_PER_DGX} GPUs each"
    return None


def _fabric(s: Sentence) -> tuple[str, str, str] | None:
    """(fabric, status, evidence) said in `s`; a negated InfiniBand alone ("no InfiniBand") is Ethernet."""
    t = s.text
    denied: re.Match[str] | None = None
    for name, rx in (("roce", _ROCE), ("infiniband", _INFINIBAND), ("ethernet", _ETHERNET)):
        for m in rx.finditer(t):
            if negated(t, m.start()):
                denied = denied or (m if name == "infiniband" else None)
                continue
            return name, "stated", q(m)
    if denied is not None:
        return "ethernet", "inferred", f"{q(denied)} denied: the servers are joined by Ethernet"
    return None


def rule_owned_layout(ctx: Ctx) -> None:
    """owned_gpus_per_node and owned_fabric from the owned-hardware sentences."""
    sentences = _owned_sentences(ctx)
    if not sentences:
        return
    count = _owned_count(ctx)
    for s in sentences:
        got = _per_node(s, count) if not ctx.has("owned_gpus_per_node") else None
        if got is not None:
            ctx.add(s, "owned_gpus_per_node", got[0], got[2], got[1])
        fabric = _fabric(s) if not ctx.has("owned_fabric") else None
        if fabric is not None:
            ctx.add(s, "owned_fabric", fabric[0], fabric[2], fabric[1])
