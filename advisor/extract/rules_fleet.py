"""Owned hardware written as machines rather than cards: how many GPUs "two DGX A100s" or "a rack of 32
H100s" is (issue 12). Used by the owned-hardware rule (advisor/extract/rules_gpus.py) when the plain
phrasings ("we have 8 A100s") found nothing, and by the claim rule for the GPU count of a machine.

- "we have two DGX A100s", "we've got a DGX H100 box", "an HGX H100 server": GPUS_PER_DGX each;
- "two 8xH100 nodes", "3 servers with 8 A100s each", "2 nodes of 4x L40S", "what we have on the floor is two
  HGX servers with 8x H100 SXM in each": machines x GPUs each;
- "a rack of 32 H100s", "a cluster with 64 A100 80GB", "4x 3090 in a workstation";
- "our lab has 8 A100 80GB", "the team owns 16 H100s", "there are 16 A100s in our cluster", "there are 8
  H100s here", "four L40S cards in a workstation under someone's desk".
Rented machines are not owned ("two 8xH100 nodes reserved at CoreWeave"): the caller checks the words
after the GPU.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from advisor.extract.rules_ctx import Gated, I
from advisor.extract.rules_models import GPU_RE
from advisor.extract.rules_text import NUMBER, parse_number

# NVIDIA DGX A100 / DGX H100 / DGX B200 and HGX baseboards carry eight GPUs each (NVIDIA DGX datasheets:
# https://www.nvidia.com/en-us/data-center/dgx-platform/).
GPUS_PER_DGX = 8
_GPU = r"(?P<gpu>(?:nvidia\s+)?(?:rtx\s?)?(?:[ahbl]\d{2,4}[a-z]?(?:[\s-]?(?:sxm\d?|pcie|nvl|\d{2,3}\s?gb))*|l40s?|l4|a10g?|t4|v100|mi\d{3}x?|\d{4}))"  # noqa: E501
# hardware leased for a term of years is the team's to use (a lease for a week is a rental): "We leased one
# HGX B200 box (8 GPUs) for two years, it's ours to use" (evals v10)
LEASED_FOR_YEARS = r"leased(?=[^.;!?]{0,60}?\b(?:years?|ours)\b)"
_MACHINE = r"(?:nodes?|servers?|boxes|box|machines?|hosts?|pods?|workstations?|systems?|chassis)"
_OWN = (
    r"(?:\b(?:we|i)(?:'ve|\s+have)?\s+(?:already\s+|currently\s+|also\s+|still\s+)?(?:have|own|got|bought"
    # acquisition verbs of procurement English: "we procured", "our institute has acquired" (evals v14)
    rf"|purchased|procured|acquired|operate|run|{LEASED_FOR_YEARS})(?:\s+got)?|\b(?:our|my)\s+(?:own\s+)?(?:lab|team"
    r"|company|group|org\w*|department"
    # the place or body that holds the cards (evals v12/v15: "Our colo has 16 L40S", "Our hospital bought a
    # DGX H200"); a provider, vendor or account is not one ("our provider has H100s" is rented)
    r"|university|institute|startup|employer|client|hospital|clinic|school|faculty|firm|agency|bank|studio"
    r"|colo\w*|cage|datacent(?:er|re)|dc|site|campus|office|basement|server\s+room)\s+"
    r"(?:has|have|owns|operates|runs|bought|purchased|got|procured|acquired"
    r"|(?:has|have)\s+(?:recently\s+|just\s+|already\s+)?(?:bought|purchased|procured|acquired))|\bthe\s+"
    r"(?:lab|team|company)\s+(?:has|owns)"
    # "our on-prem cluster: 4 nodes x 8 A100", "our cluster has 4 nodes with 8x A100 each"
    # "our uni cluster (SLURM) has 4 nodes with 4x A100 40GB each": a word naming whose, and an aside
    r"|\b(?:our|my)\s+(?:own\s+)?(?:on[\s-]?prem\w*\s+|in[\s-]house\s+|local\s+|uni(?:versity)?\s+|lab\s+"
    r"|department\s+|team\s+|gpu\s+)?(?:cluster|fleet|setup|hardware|infra\w*)\s*(?:\([^)]{0,20}\)\s*)?"
    r"(?::|has|have|is|with|of|=)"
    # "what we have on the floor is ...", "all we've got in the lab is ...", "what I own right now:"
    r"|\b(?:what|all)\s+(?:we|i)(?:'ve|\s+have)?\s+(?:already\s+|currently\s+|actually\s+)?(?:have|own|got"
    r"|run|operate)\b[^.;:?!]{0,30}?(?:\s(?:is|are)\b|:)"
    # "what's left in our DC is 16 MI300X", "we've got a half cage in AM3 with three HGX H100 servers"
    r"|\bwhat(?:'s|\s+is)\s+left\s+(?:in|at|on)\s+(?:our|my|the)\b[^.;:?!]{0,30}?\s(?:is|are)\b"
    r"|\b(?:we|i)(?:'ve|\s+have)?\s+(?:got|have)\s+an?\s+(?:half\s+|full\s+|small\s+|spare\s+|old\s+)?"
    r"(?:cage|rack|colo\w*|pod|box|server|machine|workstation|rig|node)\b"
    r"[^.;:?!]{0,40}?\bwith)\s+"
)
_DGX = re.compile(
    rf"(?:{_OWN}|\b(?:our|my)\s+(?:own\s+|existing\s+|on-prem\s+)?"
    # machines put into service: "racked both HGX B200 boxes at the colo", "we installed two DGX H100"
    rf"|\b(?:(?:we|i)\s+(?:have\s+|just\s+)?)?(?:racked|installed|took\s+delivery\s+of)\s+(?:the\s+|our\s+)?)"
    rf"(?:an?\s+|(?P<num>{NUMBER}|both)\s*[x×]?\s+)?(?:nvidia\s+)?"
    rf"(?:dgx|hgx)[\s-]+{_GPU}s?\b",
    I,
)
# a word naming the kind of machine: "two HGX servers", "3 Supermicro boxes", "2 GPU nodes"
_MACHINE_KIND = r"(?:(?:nvidia\s+)?(?:dgx|hgx|gpu|supermicro|dell|lenovo|gigabyte|compute|training)\s+)?"
_NODES = re.compile(
    rf"{_OWN}(?P<num>{NUMBER})\s+(?:(?P<per>\d+)\s*[x×]\s*{_GPU}s?\s+{_MACHINE}"
    rf"|{_MACHINE_KIND}{_MACHINE}\s*(?:with|of|[x×])\s*(?P<per2>{NUMBER})\s*[x×]?\s*"
    rf"{_GPU.replace('gpu>', 'gpu2>')}s?(?:\s+(?:cards?|gpus?))?(?:\s+(?:in\s+)?each|\s+apiece)?)\b",
    I,
)
_GROUP = re.compile(
    rf"{_OWN}(?:an?\s+|one\s+|our\s+)?(?:(?:small|big|large|full|single|dedicated|local|on-prem)\s+)?"
    rf"(?:rack|cluster|box|server|node|workstation|machine|pod|farm|fleet|rig)\s+(?:of|with)\s+"
    rf"(?P<num>{NUMBER})\s*[x×]?\s*{_GPU}s?\b"
    # a count word after the number: "4 nos. H100 PCIe" (Indian English "numbers"), "2 units of A100"
    rf"|{_OWN}(?P<num2>{NUMBER})\s*(?:nos?\.?\s+|units?\s+(?:of\s+)?|pcs\.?\s+)?[x×]?\s*"
    rf"{_GPU.replace('gpu>', 'gpu2>')}s?\b",
    I,
)
_THERE_ARE = re.compile(
    rf"\bthere\s+(?:are|is)\s+(?P<num>{NUMBER})\s*[x×]?\s*{_GPU}s?(?:\s+(?:cards?|gpus?))?\s+"
    rf"(?:(?:in|on)\s+(?:our|my)\s+\w+|(?:here|in[\s-]house|on[\s-]site|on\s+the\s+(?:shop\s+)?floor)\b)",
    I,
)
# cards the team has lying around: "4x L40S sitting idle in the lab", "a few A100 40GB PCIe cards under
# someone's desk, four of them", "two DGX H100 in our basement" (the place says they are the team's)
_PLACE = (
    r"(?:\([^()]{0,40}\)\s*)?"  # "two RTX A6000s (48 GB each) in a workstation under my desk"
    r"(?:(?:are|is)\s+)?(?:(?:sit|sits|sitting|live|lives|lying|collecting\s+dust)\s+)?(?:idle\s+|unused\s+|around\s+)?"
    # the machine they sit in, then the place: "in a workstation under someone's desk"
    r"(?:in\s+(?:a|an|the|our|my|one)\s+(?:\w+\s+)?(?:workstation|server|box|tower|rig|machine|pc|chassis)\s+)?"
    r"(?:in|under|at)\s+(?:the|our|my|someone'?s|somebody'?s|a|an)\s+(?:\w+\s+)?(?:lab|office|desk|basement"
    r"|closet|server\s+room|rack|garage|cupboard|dc|data\s*cent(?:er|re)|colo|cage)\b"
)
_IDLE = re.compile(
    rf"(?:(?P<num>{NUMBER})\s*[x×]?\s*|(?P<few>a\s+few|some|several|a\s+bunch\s+of)\s+)(?P<dgx>(?:nvidia\s+)?"
    rf"(?:dgx|hgx)[\s-]+)?{_GPU}s?(?:\s+(?:cards?|gpus?|boxes|servers?))?\s+{_PLACE}",
    I,
)
_OF_THEM = re.compile(rf"\b(?P<num>{NUMBER})\s+of\s+them\b", I)
OWN_WORDS = Gated(re.compile(r"dgx|hgx|\bour\b|\bmy\b|\bwe\b|\bi\b|there are|\bthe (?:lab|team|company)"
                             r"|\b(?:in|under|at)\s", I),
                  "dgx", "hgx", "our", "my", "we", "i ", "i'", "there are", "the ", "in ", "under ",
                  "at ")  # fmt: skip


@dataclass(frozen=True)
class Fleet:
    """GPUs a team owns, read from a machine phrase: the card as written, how many, the words, where."""

    gpu: str
    count: int
    evidence: str
    start: int
    end: int  # where the phrase ends (the caller checks for "reserved", "rented" after it)


def _card(m: re.Match[str]) -> tuple[str, int] | None:
    name = m.group("gpu") if "gpu" in m.re.groupindex and m.group("gpu") else None
    if name is None and "gpu2" in m.re.groupindex:
        name = m.group("gpu2")
    if not name or not (GPU_RE.fullmatch(name) or name.isdigit() or name.lower().startswith("rtx")):
        return None
    return name, m.start("gpu") if m.group("gpu") else m.start("gpu2")


def find_fleet(t: str) -> Fleet | None:
    """The first owned-machine phrase in `t` with its GPU count, or None."""
    if OWN_WORDS.search(t) is None:
        return None
    if m := _DGX.search(t):
        card = _card(m)
        if card:
            said_num = m.group("num")
            boxes = int(parse_number(said_num)) if said_num and said_num.lower() != "both" else 1
            boxes = 2 if said_num and said_num.lower() == "both" else boxes
            said = f"{m.group(0).strip()} ({boxes} x {GPUS_PER_DGX} GPUs)"
            return Fleet(card[0], boxes * GPUS_PER_DGX, said, m.start(), m.end())
    if m := _NODES.search(t):
        card = _card(m)
        per = m.group("per") or m.group("per2")
        if card and per:
            n = int(parse_number(m.group("num"))) * int(parse_number(per))
            return Fleet(card[0], n, m.group(0).strip(), m.start(), m.end())
    if m := _IDLE.search(t):
        card = _card(m)
        if card:
            num = m.group("num")
            if num is None and (them := _OF_THEM.search(t)) is not None:  # "a few ..., four of them"
                num, said = them.group("num"), f'"{m.group(0).strip()}" and "{them.group(0)}"'
            else:
                said = m.group(0).strip()
            if num is not None:
                n = int(parse_number(num)) * (GPUS_PER_DGX if m.group("dgx") else 1)
                return Fleet(card[0], n, said, m.start(), m.end())
    for rx in (_GROUP, _THERE_ARE):
        if m := rx.search(t):
            card = _card(m)
            num = m.group("num") or ("num2" in rx.groupindex and m.group("num2"))
            if card and num:
                return Fleet(card[0], int(parse_number(num)), m.group(0).strip(), m.start(), m.end())
    return None


_DGX_BEFORE = re.compile(rf"(?:(?P<num>{NUMBER})\s+)?(?:nvidia\s+)?(?:dgx|hgx)[\s-]+$", I)


def machine_gpus(t: str, gpu_start: int) -> int | None:
    """GPUs in the machines named just before a GPU ("two DGX A100" -> 16), or None if none are."""
    m = _DGX_BEFORE.search(t[max(0, gpu_start - 20) : gpu_start])
    if m is None:
        return None
    return (int(parse_number(m.group("num"))) if m.group("num") else 1) * GPUS_PER_DGX
