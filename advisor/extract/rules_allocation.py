"""Hardware a team may use written as a share of a bigger estate: nodes of a shared partition, the
group's SLURM nodes, the servers of an estate left for this solution (issue 12: an HPC or enterprise
team states what it can use this way, and the plain "we have 8 A100s" phrasings miss it).

The machines and the cards in each are often said in different sentences ("the partition's nodes each
carry 4x A100 40GB SXM" ... "we'll use 4 nodes of the shared partition"), so these read the whole text:

- nodes the team will use or may hold: "we'll use 4 nodes of the shared partition", "we may hold at most
  2 nodes at a time", with the cards per node said anywhere ("nodes each carry 4x A100 40GB", "the H100
  partition (4 GPUs per node)");
- a SLURM job script: `--nodes=2` with `--gres=gpu:h100:4` (2 x 4 H100);
- an estate of which a part is this solution's: "the Bank's existing GPU estate: six servers with eight
  H100 SXM GPUs each ... the remaining three are available to this solution" (3 x 8).

Not owned: node-hours or GPU-hours (an allocation's size), nodes a claim or question names ("a week on
16 nodes?"), a cluster booked by another group. Used by rule_owned_gpus when nothing plainer was found.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import I
from advisor.extract.rules_models import GPU_RE
from advisor.extract.rules_text import NUMBER, parse_number

_GPU = r"(?P<gpu>(?:nvidia\s+)?(?:[ahbl]\d{2,3}[a-z]?(?:[\s-]?(?:sxm\d?|pcie|nvl|\d{2,3}\s?gb))*|l40s?|mi\d{3}x?))"  # noqa: E501
# the nodes this team will use: "we'll use 4 nodes of the shared partition", "we may hold at most 2 nodes
# at a time", "we get 3 nodes on the A100 partition" (not "16 nodes?" in a question, not node-hours)
_USE_NODES = keyed(
    rf"(?:\b(?:we|i)(?:'ll|\s+will|\s+can|\s+may|\s+are\s+allowed\s+to|'re\s+allowed\s+to)?|\band\s+(?:can|may|will))"
    rf"\s+(?:use|get|hold|have"
    rf"|run\s+on)\s+(?:at\s+most\s+|up\s+to\s+|no\s+more\s+than\s+)?(?P<num>{NUMBER})\s+"
    r"(?:(?:gpu|compute)\s+)?nodes?\b(?![\s-]*hours?)",
    I,
)
# the cards in each node: "nodes each carry 4x A100 40GB SXM", "nodes with 8x H100 each",
# "the H100 partition (4 GPUs per node)"
_PER_NODE = keyed(
    rf"\bnodes?\s+(?:each\s+)?(?:carry|carries|have|has|hold|holds|with|of)\s+(?:(?P<per>{NUMBER})\s*[x×]?\s*{_GPU}"
    rf"|(?P<per3>{NUMBER})\s*[x×]?\s*{_GPU.replace('gpu>', 'gpu3>')})"
    rf"|\b{_GPU.replace('gpu>', 'gpu2>')}\s+partition\s*\(\s*(?P<per2>{NUMBER})\s+gpus?\s+(?:per|a|each)"
    r"\s+node\s*\)",
    I,
)
_SLURM_NODES = keyed(r"--nodes[=\s]+(?P<num>\d+)\b", I)
_SLURM_GRES = keyed(r"--gres[=\s]+gpu:(?P<gpu>[a-z0-9_-]+):(?P<per>\d+)\b", I)
# an estate that is this team's: "the Bank's existing GPU estate: six servers with eight H100 SXM GPUs each"
_ESTATE = keyed(
    rf"\b(?:(?:the|our)\s+(?:\w+'s\s+)?|\w+'s\s+)existing\s+(?:gpu\s+)?(?:estate|fleet|cluster|servers|hardware"
    rf"|infrastructure)\s*(?::|of|with|has|is|comprises)\s*(?P<num>{NUMBER})\s+(?:gpu\s+)?(?:servers|nodes|machines)"
    rf"\s+(?:with|of)\s+(?P<per>{NUMBER})\s*[x×]?\s*{_GPU}",
    I,
)
# the part of it left for this work: "the remaining three are available to this solution", "two of these
# servers are available to us"
_AVAILABLE = keyed(
    rf"\b(?:the\s+remaining|(?P<num2>{NUMBER})\s+of\s+(?:these|those|them|the)(?:\s+\w+)?)\s*(?P<num>{NUMBER})?"
    r"(?:\s+(?:servers|nodes|machines))?\s+(?:are|is|will\s+be)\s+(?:available|free|reserved)\s+(?:to|for)\s+"
    r"(?:this|the|us|our)\b",
    I,
)


@dataclass(frozen=True)
class Share:
    """Cards a team may use out of a bigger estate: the card as written, how many, and the words."""

    gpu: str
    count: int
    evidence: str
    position: int  # offset in the text


def _card(name: str) -> str | None:
    name = name.strip()
    return name if GPU_RE.fullmatch(name) else None


def _used_nodes(text: str) -> Share | None:
    use = _USE_NODES.search(text)
    per = _PER_NODE.search(text)
    if use is None or per is None:
        return None
    gpu = per.group("gpu") or per.group("gpu2") or per.group("gpu3")
    count = per.group("per") or per.group("per2") or per.group("per3")
    card = _card(gpu) if gpu else None
    if card is None or count is None:
        return None
    n = int(parse_number(use.group("num"))) * int(parse_number(count))
    return Share(card, n, f'"{use.group(0).strip()}" x "{per.group(0).strip()}"', use.start())


def _slurm(text: str) -> Share | None:
    gres = _SLURM_GRES.search(text)
    if gres is None or _card(gres.group("gpu")) is None:
        return None
    nodes = _SLURM_NODES.search(text)
    n = int(nodes.group("num")) if nodes else 1
    said = f"{nodes.group(0)} x {gres.group(0)}" if nodes else gres.group(0)
    return Share(gres.group("gpu"), n * int(gres.group("per")), said, gres.start())


def _estate(text: str) -> Share | None:
    est = _ESTATE.search(text)
    if est is None or _card(est.group("gpu")) is None:
        return None
    servers, per = int(parse_number(est.group("num"))), int(parse_number(est.group("per")))
    avail = _AVAILABLE.search(text, est.end())
    said = est.group(0).strip()
    if avail is not None:
        left = avail.group("num") or avail.group("num2")
        if left is not None and 0 < int(parse_number(left)) <= servers:
            servers = int(parse_number(left))
            said = f'{said} ... "{avail.group(0).strip()}"'
    return Share(est.group("gpu"), servers * per, said, est.start())


def find_share(text: str) -> Share | None:
    """The cards a team may use out of a shared or bigger estate in `text`, or None (see the module)."""
    return _slurm(text) or _estate(text) or _used_nodes(text)
