"""Owned hardware written in the other ways teams write it: the fallback of rule_owned_gpus when no
ownership sentence ("we have 8 A100s", "the 4 A6000s under my desk", advisor/extract/rules_gpus.py) was
read.

- a label: "Owned: 4x H100 PCIe", "On prem: 8xH100", "Our servers: 8 x NVIDIA A100-SXM4-80GB", "My rig:
  single 3090", and a label line over a bullet list ("Available hardware:" / "- 8x H100 SXM (on-prem)");
- a mark after the card: "Hardware: 2x A100 80GB (owned, in our server room)", "8x H200 (on-prem)";
- the machine that holds them: "Our on-prem box has 8x H200", "my home rig has two 3090s";
- capacity an institution gives the team: "our university cluster gives us 16 A100 nodes, each with 4
  GPUs", "we have access to 8 A100 80GB on the university HPC" (evals v10 README: capacity at the team's
  disposal, a university cluster included, counts as owned);
- a pasted tool listing: `nvidia-smi` table rows or `nvidia-smi -L` lines, `lspci` controller lines,
  counted one GPU per index or bus address.

Not owned: what a paper, a competitor or a past job used, cards sold or no longer there, and capacity
rented, reserved or on order (rules_gpus._RENTED_AFTER, the same test as the ownership sentences)."""

from __future__ import annotations

import re

from advisor.extract.base import Finding
from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_fleet import find_fleet
from advisor.extract.rules_gpus import _RENTED_AFTER, _asks_about
from advisor.extract.rules_models import GPU_RE, _catalog, find_providers, resolve_gpu
from advisor.extract.rules_text import NUMBER, Sentence, parse_number

_CONSUMER = r"(?:rtx\s*)?(?P<bare>3090|4090|5090)s?\b"
# a count said in words as well as digits: "a pair of 4090s", "a couple of A100s", "a dozen L4s"
_PAIRS = {"pair": 2, "couple": 2, "dozen": 12, "dual": 2, "twin": 2, "triple": 3, "quad": 4, "octo": 8}
_COUNT = (
    rf"(?:(?:an?\s+)?(?P<pair>pair|couple|dozen|dual|twin|triple|quad|octo)\s+(?:of\s+)?"
    r"|(?:an?\s+)?(?P<way>\d+)[\s-]*way\s+"
    rf"|(?P<num>{NUMBER})\s*(?:x\s*|×\s*|(?=\d)"
    r"|of\s+(?:the|our|those|these)\s+(?:\d+\s*gb\s+)?)?\s*)?"  # "8 of the 80GB A100s"
    r"(?:(?:idle|spare|unused|free|dedicated|own|older|new|used)\s+)?(?:nvidia\s+|geforce\s+)?"
)
_OWNER_WORDS = (
    r"own(?:ed)?|on[\s-]?prem\w*|in[\s-]house|existing|current|available|local|our|my|the\s+(?:team|lab"
    r"|company)'?s?"
)
_THINGS = (
    r"hardware|gpus?|servers?|rigs?|box(?:es)?|clusters?|machines?|compute|workstations?|setup|inventory|fleet"
    r"|nodes?|resources|infra\w*|kit|hw"
)
# whose the cards are: "our lab's 4 A6000s", "the company's 4x A100", "my team's 8 H100s"
_POSSESSOR = (
    r"\b(?:(?:our|my|the)\s+(?:team|lab|company|group|department|dept|university|uni|institute|org|office|startup"
    r"|employer)|(?:team|lab|company|group|department))'s"
)
# "Owned: ...", "On prem: ...", "Our servers: ...", "My rig: ...", "Available hardware: ..."
_LABEL = re.compile(
    rf"^\W*(?:(?:{_OWNER_WORDS})(?:\s+[\w-]+){{0,2}}?\s+(?:{_THINGS})|owned|on[\s-]?prem\w*|in[\s-]house"
    rf"|(?:{_THINGS})\s+(?:(?:we|i)\s+(?:have|own)|(?:on|at)\s+hand|in\s+house))\s*(?::|-|–|=)\s*",
    I,
)
_BULLET = re.compile(r"^\s*(?:[-*•·]|\d+[.)])\s*", I)
# "(owned, in our server room)", "(on-prem)", ", all owned", "- ours"
_MARK_AFTER = re.compile(
    r"\s*(?:\d+\s*gb\s*)?(?:\(\s*(?:[^)]{0,30}?\b)?|,\s*(?:all\s+)?|\s*[-–—]\s*)(?:owned|ours|on[\s-]?prem\w*"
    r"|in[\s-]house|bought|purchased|paid\s+off|our\s+own)\b",
    I,
)
# "Our on-prem box has 8x H200", "my home rig has two 3090s", "our lab server: 4x A6000"
_MACHINE_HAS = re.compile(
    # "the department cluster has 32 A100 80GB" (evals v7): the institution's machine, at the team's disposal
    rf"(?:\b(?:our|my)|{_POSSESSOR}|\bthe\s+(?:department|dept|university|uni|institute|faculty|lab))\s+(?:[\w-]+\s+){{0,3}}?(?:box|server|machine|rig|workstation|desktop|node"
    r"|cluster|rack|pc|tower)\s*(?:(?:has|have|holds|contains|comes\s+with|runs|packs|is)\s+(?:got\s+)?|[:=]\s*"
    r"|with\s+|\(\s*)",
    I,
)
# an institution's capacity at the team's disposal
_GIVES = re.compile(
    r"\b(?:gives?|provides?|offers?|lends?|allocates?)\s+us(?:\s+(?:use\s+of|access\s+to))?\s+"
    r"|\b(?:we|i)\s+(?:have|get|got)\s+(?:free\s+|guaranteed\s+|dedicated\s+|exclusive\s+)?access\s+to\s+",
    I,
)
_INSTITUTION = re.compile(
    r"\b(?:universit\w*|uni|campus|hpc|lab|institut\w*|department|dept|national|internal|in[\s-]house"
    r"|on[\s-]?prem\w*|our\s+(?:own\s+)?cluster|employer|slurm|supercomputer)\b",
    I,
)
_NODES_EACH = re.compile(
    rf"\s*(?:nodes?|servers?|machines?|boxes)\s*,?\s*(?:each\s+)?(?:with|of|having|carrying)\s+(?P<per>{NUMBER})"
    r"\s*(?:x\s*)?(?:gpus?|cards?)?(?:\s+each)?\b",
    I,
)
_NOT_OURS = re.compile(
    r"\b(?:used\s+to|no\s+longer|sold|former(?:ly)?|old\s+(?:job|company|employer|lab)|at\s+my\s+last|competitors?"
    r"|the\s+paper|the\s+authors|they\s+(?:have|own|use|used|trained))\b",
    I,
)
# tool listings: nvidia-smi's table row ("| 0  NVIDIA A100-SXM4-80GB  On |"), nvidia-smi -L ("GPU 0: NVIDIA
# H100 80GB HBM3 (UUID: ...)"), lspci ("41:00.0 3D controller: NVIDIA Corporation GH100 [H100 SXM5 80GB]"),
# nvidia-smi --query-gpu=index,name,memory.total --format=csv ("0, NVIDIA RTX A6000, 49140 MiB")
_SMI_ROW = re.compile(r"(?:^|[|:;\s])\s*(?P<idx>\d{1,2})(?:\s*,)?\s+NVIDIA\s+", I)
_SMI_L = re.compile(r"\bGPU\s+(?P<idx>\d{1,2})\s*:\s*NVIDIA\s+", I)
# the row's persistence-mode column, or the CSV row's next field (a memory size, a UUID, a bus id)
_SMI_TAIL = re.compile(r"[\w-]*(?:\s+(?:On|Off)\b|\s*,\s*(?:\d+\s*MiB|GPU-|0000:|\d+\s*%|\d+\s*W\b))", I)
_LSPCI = re.compile(
    r"\b(?P<idx>[0-9a-f]{2,4}:[0-9a-f]{2}\.\d)\s+(?:VGA\s+compatible|3D)\s+controller\s*:\s*NVIDIA\s+Corporation\s+"
    r"[\w-]*\s*\[",
    I,
)


_COUNT_RE = re.compile(_COUNT, I)
_COUNT_BEFORE_RE = re.compile(rf"(?<![\w-]){_COUNT}$", I)
_CONSUMER_RE = re.compile(_CONSUMER, I)
# cards the team got, with a verb the ownership sentences lack: "We just bought 8 L40S", "we took delivery
# of 8 L40S", "IT gave us 2 A100s", "we were allocated 16 H100s on the cluster", "We've 8 A100s", "We're
# sitting on 16 idle A100s", "got 2 4090s at home" (the subject dropped), "The only hardware I have is
# two 3090s"
_ACQUIRED = re.compile(
    r"(?:\b(?:we|i)(?:'ve|'re|\s+have|\s+are)?\s+(?:just\s+|recently\s+|finally\s+|now\s+|also\s+|already\s+)?"
    r"(?:bought|purchased|acquired|took\s+delivery\s+of|received|sitting\s+on|operate|host|running|run|possess"
    r"|paid\s+for)"
    r"|\b(?:we|i)'ve(?=\s+(?:\d|a\s|an\s|one|two|three|four|five|six|eight|ten|twelve|sixteen))"
    r"|\b(?:gave|lent|loaned|allocated|assigned|bought|got|purchased|provided|left|donated|handed)"
    r"\s+(?:us|me|our\s+team)"
    rf"|{_POSSESSOR}|\b(?:existing|current|in[\s-]house|on[\s-]?prem\w*)\s+(?:fleet|cluster|pool|stock)\s+of"
    r"|\b(?:we|i)\s+(?:were|was|have\s+been|got|get)\s+(?:allocated|assigned|given|lent)"
    r"|^\W*(?:got|have|own)|\b(?:we|i)(?:'ve\s+got|\s+(?:(?!will|would|might|could|should|may|must|need|want|wish"
    r"|hope|plan|expect|soon|then)\w+\s+)?(?:have|own))"
    r"|\b(?:the\s+only|all\s+the)\s+(?:hardware|gpus?|cards?|compute)\s+(?:we|i)\s+(?:have|own|got)\s+(?:is|are))"
    r"\s+",
    I,
)
_NOT_GIVEN = re.compile(r"\b(?:credits?|quota|trial|free\s+tier|voucher)\b", I)
# hardware weighed, not had: "What we have is a quote for two servers with 8 H100 each"
_WEIGHED = re.compile(
    r"\b(?:quot\w*|offer\w*|proposal|considering|looking\s+(?:at|to)|plan\w*\s+to|would|could|buy|buying"
    r"|purchasing|(?:what\s+if|suppose|if)\s+(?:we|i)\s+(?:just\s+)?bought|order\w*"
    r"|rent\w*|lease\w*|from\s+the\s+blog|blog)\b",
    I,
)
# a machine sized in GPUs: "We have 2 x 8 H100 nodes", "we have one 8-GPU H100 box", "we operate a 64-GPU
# H100 cluster"; and the size in brackets: "Our H100 cluster (64 GPUs)", "our on-prem H100s (32 of them)"
_SIZED = re.compile(
    rf"\b(?:(?P<boxes>{NUMBER})\s*(?:x|×)\s*(?P<per>\d+)\s*(?:x\s*|×\s*)?(?=(?:nvidia\s+)?[ahlb]\d{{2,3}}\w*\s+"
    r"(?:nodes|servers|boxes|machines))"
    rf"|(?P<boxes2>an?|one|single|{NUMBER})\s+(?P<per2>\d+)[\s-]*gpus?\s+"
    # "a 2-node 8x H200 cluster"
    rf"|(?:an?\s+)?(?P<boxes3>{NUMBER})[\s-]*nodes?\s+(?P<per3>\d+)\s*(?:x|×)\s*)",
    I,
)
_SIZED_MACHINE = re.compile(
    r"\s*(?:sxm\w*\s+|pcie\s+)?(?:cluster|nodes?|servers?|box(?:es)?|machines?|rigs?|pods?)\b", I
)
_BRACKET_SIZE = re.compile(
    rf"\s*(?:cluster|fleet|farm|nodes?|servers?|box)?\s*\(\s*(?P<num>{NUMBER})\s*(?:gpus|cards|of\s+them)\s*\)",
    I,
)
_NVIDIA = re.compile(r"\s*(?:nvidia\s+)?", I)
_OUR = re.compile(r"\b(?:our|my)\s+(?:own\s+|on[\s-]?prem\w*\s+|in[\s-]house\s+|local\s+)?$", I)
_OWNS = re.compile(
    r"\b(?:we|i)(?:'ve|\s+have)?\s+(?:\w+\s+)?(?:have|own|got|operate|run|bought)\s+$"
    r"|\b(?:our|my)\s+(?:own\s+|on[\s-]?prem\w*\s+|in[\s-]house\s+)?$",
    I,
)


def read_owned_forms(ctx: Ctx) -> bool:
    """owned_gpu(_count) from a label, a mark, a machine, an institution or a tool listing; True when read.
    A question in the same statement about them ("Is our 2-node 8x H200 cluster enough?") also makes them
    claimed_gpu(_count), as rules_gpus does for the ownership sentences."""
    if not _read(ctx):
        return False
    gpu = next(f for f in ctx.findings if f.field == "owned_gpu")
    count = next((f for f in ctx.findings if f.field == "owned_gpu_count"), None)
    s = max((x for x in ctx.sentences if x.start <= gpu.position), key=lambda x: x.start)
    if count is None or ctx.has("claimed_gpu") or s.start in ctx.claim_sentences:
        return True
    if _asks_about(s.text, gpu.position - s.start):
        ctx.add(s, "claimed_gpu", gpu.value, gpu.evidence, "stated", gpu.position - s.start)
        ctx.add(s, "claimed_gpu_count", count.value, count.evidence, count.status, gpu.position - s.start)
    return True


def _read(ctx: Ctx) -> bool:
    if _tool_listing(ctx) or _table(ctx):
        return True
    label_open = False  # the previous sentence was an ownership label with nothing after its colon
    for s in ctx.sentences:
        t = s.text
        if _NOT_OURS.search(t):
            label_open = False
            continue
        lab = _LABEL.match(t)
        if lab is not None and not t[lab.end() :].strip():
            label_open = True
            continue
        if label_open and (b := _BULLET.match(t)) is not None and _card(ctx, s, b.end(), q(b) or "list"):
            return True
        label_open = label_open and _BULLET.match(t) is not None
        said = t[: lab.end()].strip() if lab is not None else ""
        if lab is not None and (_card(ctx, s, lab.end(), said) or _fleet_after(ctx, s, lab.end())):
            return True
        if _marked(ctx, s) or _machine(ctx, s) or _institution(ctx, s) or _acquired(ctx, s) or _sized(ctx, s):
            return True
        if _generic(ctx, s) or _in_ours(ctx, s) or _boxes_each(ctx, s):
            return True
    return False


# cards where the team keeps them: "there's a 4090 in my gaming PC", "An 8xH100 node is sitting in our
# datacenter", "our quad A6000 workstation"
_PLACE = (
    r"lab|office|rack|basement|desk|datacenter|data\s+cent(?:er|re)|server\s+room|closet|colo|premises|building"
    r"|home|house|garage|pc|workstation|machine|box|server|rig|desktop|tower|cluster"
)
_IN_OURS = re.compile(
    r"s?\s*(?:cards?|gpus?|machines?|nodes?|servers?|box(?:es)?|workstations?)?\s*(?:(?:is|are)\s+)?(?:sitting\s+"
    r"|idle\s+|installed\s+|racked\s+|living\s+)?(?:in|under|at|on)\s+(?:our|my)\s+(?:[\w-]+\s+){0,2}?"
    rf"(?:{_PLACE})\b",
    I,
)
_LEAD = re.compile(
    r"(?:^|\bthere(?:'s|\s+is|\s+are)\s+|\b(?:our|my)\s+(?:own\s+)?|[.;:]\s+|\band\s+)\W*(?:an?\s+|one\s+)?$",
    I,
)
_OUR_MACHINE = re.compile(r"\s*(?:workstation|box|server|rig|node|machine|cluster|desktop|tower)\b", I)


def _in_ours(ctx: Ctx, s: Sentence) -> bool:
    """Cards said with the place the team keeps them, or as "our <count> <card> <machine>"."""
    t = s.text
    if _WEIGHED.search(t):
        return False
    cards = sorted([*GPU_RE.finditer(t), *_CONSUMER_RE.finditer(t)], key=lambda x: x.start())
    for g in cards:  # each card, then the count written before it (a scan from every position is slow)
        lo = max(0, g.start() - 30)
        m = _COUNT_BEFORE_RE.search(t[lo : g.start()])
        start = lo + m.start() if m is not None else g.start()
        if _LEAD.search(t[max(0, start - 30) : start]) is None:
            continue
        ours = re.search(r"\b(?:our|my)\s+(?:own\s+)?$", t[max(0, start - 12) : start], I)
        if _IN_OURS.match(t, g.end()) or (ours and _OUR_MACHINE.match(t, g.end())):
            return _card(ctx, s, start, "")
    return False


_BOXES_EACH = re.compile(
    rf"\b(?P<boxes>{NUMBER})\s+(?:\w+\s+)?(?:servers|nodes|machines|boxes|workstations)\s*,?\s*(?P<each>each\s+)?"
    r"(?:with|of|having|carrying)\s+"
    rf"(?P<per>{NUMBER})\s*(?:x\s*|×\s*)?(?:nvidia\s+)?",
    I,
)
_EACH = re.compile(r"[^.;]{0,20}?\beach\b", I)
_OURS_ANYWHERE = re.compile(r"\b(?:our|my|we|i)\b", I)


def _boxes_each(ctx: Ctx, s: Sentence) -> bool:
    """"two servers with 8 H100 SXM each in our colo" = 16 (the team's, by "our" in the sentence)."""
    t = s.text
    if _OURS_ANYWHERE.search(t) is None or _NOT_GIVEN.search(t) or _WEIGHED.search(t) or find_providers(t):
        return False
    for m in _BOXES_EACH.finditer(t):
        g = GPU_RE.match(t, m.end())
        if g is None or not (m.group("each") or _EACH.match(t, g.end())):
            continue
        if _RENTED_AFTER.match(t[g.end() : g.end() + 60]):
            continue
        n = int(parse_number(m.group("boxes")) * parse_number(m.group("per")))
        ev = t[m.start() : g.end()].strip()
        ctx.add(s, "owned_gpu", resolve_gpu(g.group("gpu")), ev, "stated", g.start())
        ctx.add(s, "owned_gpu_count", n, ev, "inferred", g.start())
        return True
    return False


def _generic(ctx: Ctx, s: Sentence) -> bool:
    """A count of generic cards with the type beside it ("We have 8 GPUs (A100 80GB)")."""
    t = s.text
    for m in _GENERIC.finditer(t):
        g = GPU_RE.match(t, m.end())
        if g is None or _RENTED_AFTER.match(t[m.start("num") : m.start("num") + 60]):
            continue
        ev = t[m.start() : g.end()].strip()
        ctx.add(s, "owned_gpu", resolve_gpu(g.group("gpu")), ev, "stated", g.start())
        ctx.add(s, "owned_gpu_count", int(parse_number(m.group("num"))), ev, "stated", g.start())
        return True
    return False


# a count corrected after the owned cards: "We have 4 A100s. Sorry, I meant 2 A100s.", "we have 4 a100s,
# sorry i meant 2", "make that 6 GPUs" (the number must be followed by a card, "GPUs", "of them" or the end
# of the clause: "sorry, I meant 2 days" corrects something else)
_CORRECTED_COUNT = re.compile(
    rf"\b(?:i\s+meant|meant\s+to\s+say|make\s+(?:that|it)|correction\s*:?|it'?s\s+actually|actually\s+(?:it'?s|we\s+have"
    rf"|only)|sorry,?\s+(?:it'?s|we\s+have|only))\s+(?:only\s+)?(?P<num>{NUMBER})\s*(?:x\s*)?(?=$|[.,;!)]|(?:nvidia\s+)?"
    r"(?P<gpu>[ahlbv]\d|rtx|\d090)|(?:gpus?|cards?|of\s+them)\b)",
    I,
)


# the count after the name: "A100 80GB x 4", "A6000 (x2)", "H100 ×8"
_COUNT_AFTER = re.compile(r"\s*(?:(?:x|×)\s*(?P<num>\d+)\b|\(\s*(?:x|×)?\s*(?P<num2>\d+)\s*\))", I)
# a count of generic cards, the type said beside it: "We have 8 GPUs (A100 80GB)", "eight GPUs, all A100
# 40GB", "our server has 4 GPUs: RTX A6000", "4 GPUs, which are RTX A6000s"
_GENERIC = re.compile(
    rf"\b(?:(?:we|i)(?:'ve|\s+have)?\s+(?:\w+\s+)?(?:have|own|got)|(?:has|have|with|holds|contains))\s+"
    rf"(?P<num>{NUMBER})\s+(?:\w+\s+)?(?:gpus|cards|accelerators)\s*(?:,?\s*(?:which|that)\s+are\s+|\(\s*"
    r"|,\s*(?:all|each|both)?\s*(?:an?\s+)?|:\s*|\s*[-–—]\s*|\s+of\s+type\s+|\s+(?:all\s+)?(?:are|being)\s+)(?:nvidia\s+)?",
    I,
)


def refine_owned_count(ctx: Ctx) -> None:
    """The count of owned cards read as a type only, or as one card, from the size said in brackets
    after them: "our on-prem H100s (32 of them)", "Our H100 cluster (64 GPUs)"; a count corrected later."""
    gpu = next((f for f in ctx.findings if f.field == "owned_gpu"), None)
    if gpu is None and ctx.prior is not None and ctx.prior.owned_gpu is not None:
        _corrected(ctx, ctx.prior.owned_gpu, -1)  # a later turn: "sorry, I meant 2 A100s"
        return
    if gpu is not None:
        gpu = _memory_in_brackets(ctx, gpu)
    count = next((f for f in ctx.findings if f.field == "owned_gpu_count"), None)
    if gpu is not None and count is not None and _corrected(ctx, gpu.value, gpu.position):
        return
    if gpu is None or (count is not None and count.status == "stated"):
        return
    s = max((x for x in ctx.sentences if x.start <= gpu.position), key=lambda x: x.start, default=None)
    if s is None:
        return
    for g in GPU_RE.finditer(s.text):
        size = _BRACKET_SIZE.match(s.text, g.end()) or _COUNT_AFTER.match(s.text, g.end())
        if size is not None and resolve_gpu(g.group("gpu")) == gpu.value:
            ctx.findings[:] = [f for f in ctx.findings if f is not count]
            ev = s.text[g.start() : size.end()].strip()
            n = size.group("num") or size.group("num2")
            ctx.add(s, "owned_gpu_count", int(parse_number(n)), ev, "stated", g.start())
            return


_MEMORY_AFTER = re.compile(r"\s*\(\s*(?P<gb>\d{2,3})\s*gb?\b", I)


def _memory_in_brackets(ctx: Ctx, gpu: Finding) -> Finding:
    """The owned card's memory said in brackets after it: "8xA100 (40GB)" is the 40 GB A100."""
    s = max((x for x in ctx.sentences if x.start <= gpu.position), key=lambda x: x.start, default=None)
    if s is None:
        return gpu
    for g in GPU_RE.finditer(s.text):
        mem = _MEMORY_AFTER.match(s.text, g.end())
        if mem is None or resolve_gpu(g.group("gpu")) != gpu.value or "gb" in g.group("gpu").lower():
            continue
        gid = resolve_gpu(f"{g.group('gpu').rstrip('sS')} {mem.group('gb')}GB")
        cat = _catalog()
        if gid == gpu.value or cat is None or not cat.has_gpu(gid):
            return gpu  # the catalog has no such variant ("H100 (40GB)"): keep the card read
        ctx.findings[:] = [f for f in ctx.findings if f is not gpu]
        ctx.add(s, "owned_gpu", gid, s.text[g.start() : mem.end()].strip() + ")", "stated", g.start())
        return ctx.findings[-1]
    return gpu


def _corrected(ctx: Ctx, gid: object, after: int) -> bool:
    """Record a corrected owned count said after position `after`; True when one was."""
    for s in ctx.sentences:
        if s.start + len(s.text) <= after:
            continue
        for m in _CORRECTED_COUNT.finditer(s.text):
            if s.start + m.start() <= after:
                continue
            g = GPU_RE.match(s.text, m.start("gpu")) if m.group("gpu") else None
            if m.group("gpu") and (g is None or resolve_gpu(g.group("gpu")) != gid):
                continue  # another card: "actually it's 2 H100s" of owned A100s is not their count
            ctx.add(s, "owned_gpu_count", int(parse_number(m.group("num"))), q(m), "stated", m.start())
            return True
    return False


def _acquired(ctx: Ctx, s: Sentence) -> bool:
    """Cards the team got ("We just bought 8 L40S", "IT gave us 2 A100s")."""
    if _NOT_GIVEN.search(s.text) or find_providers(s.text):
        return False  # "Lambda gave us 8 H100s": a cloud's capacity, rented (rules_gpus._WANT_CUE)
    # the cards, or a machine holding them: "a previous project left us a server with 4x A100"
    weighed = _WEIGHED.search(s.text) is not None
    return any(_card(ctx, s, m.end(), q(m)) or (not weighed and _fleet_after(ctx, s, m.end()))
               for m in _ACQUIRED.finditer(s.text)
               if not _SUPPOSED.search(s.text[max(0, m.start() - 20) : m.start()]))  # fmt: skip


# a purchase supposed, not made: "what if we purchased our own 16x H100 instead?" (rules_purchase_price)
_SUPPOSED = re.compile(r"\b(?:what\s+if|suppose|supposing|imagine|if|say|and\s+if)\s*$", I)


def _sized(ctx: Ctx, s: Sentence) -> bool:
    """A machine the team has, sized in GPUs ("two 8-GPU H100 nodes" = 16, "our H100 cluster (64 GPUs)")."""
    t = s.text
    for m in _SIZED.finditer(t):
        if _OWNS.search(t[max(0, m.start() - 40) : m.start()]) is None:
            continue
        g = GPU_RE.match(t, _NVIDIA.match(t, m.end()).end())  # type: ignore[union-attr]  # always matches
        if g is None or (m.group("per2") and _SIZED_MACHINE.match(t, g.end()) is None):
            continue
        boxes = parse_number(m.group("boxes") or m.group("boxes2") or m.group("boxes3"))
        n = int(boxes * int(m.group("per") or m.group("per2") or m.group("per3")))
        ev = t[m.start() : g.end()].strip()
        ctx.add(s, "owned_gpu", resolve_gpu(g.group("gpu")), ev, "stated", g.start())
        ctx.add(s, "owned_gpu_count", n, ev, "inferred", g.start())
        return True
    for g in GPU_RE.finditer(t):
        size = _BRACKET_SIZE.match(t, g.end())
        if size is None or _OUR.search(t[max(0, g.start() - 30) : g.start()]) is None:
            continue
        ev = t[g.start() : size.end()].strip()
        ctx.add(s, "owned_gpu", resolve_gpu(g.group("gpu")), ev, "stated", g.start())
        ctx.add(s, "owned_gpu_count", int(parse_number(size.group("num"))), ev, "stated", g.start())
        return True
    return False


def _fleet_after(ctx: Ctx, s: Sentence, at: int) -> bool:
    """Machines after an ownership label: "Infrastructure we own: a single HGX H100 (8 GPUs)"."""
    fleet = find_fleet(f"we have {s.text[at:]}")
    if fleet is None:
        return False
    pos = at + max(0, fleet.start - len("we have "))
    ctx.add(s, "owned_gpu", resolve_gpu(fleet.gpu), fleet.evidence, "stated", pos)
    ctx.add(s, "owned_gpu_count", fleet.count, fleet.evidence, "inferred", pos)
    return True


def _card_at(t: str, pos: int) -> tuple[re.Match[str], str, str | None] | None:
    """The card written at `pos` with its count: (match, catalog id, number said or None)."""
    m = _COUNT_RE.match(t, pos)
    if m is None:
        return None
    g = GPU_RE.match(t, m.end()) or _CONSUMER_RE.match(t, m.end())
    if g is None and m.group("num") and m.group("num").isdigit():  # "have 4090s": the number was the card
        g = _CONSUMER_RE.match(t, m.start("num"))
        if g is not None:
            return g, resolve_gpu(f"rtx {g.group('bare')}"), None
    if g is None:
        return None
    gid = resolve_gpu(f"rtx {g.group('bare')}") if "bare" in g.re.groupindex else resolve_gpu(g.group("gpu"))
    if m.group("pair"):
        return g, gid, str(_PAIRS[m.group("pair").lower()])
    if m.group("way"):  # "an 8-way H100 box"
        return g, gid, m.group("way")
    return g, gid, m.group("num")


def _card(ctx: Ctx, s: Sentence, pos: int, said: str, mark: str = "") -> bool:
    """Record the card (and count) written at `pos` of sentence `s` as owned; False when none or rented."""
    t = s.text
    found = _card_at(t, pos)
    if found is None:
        return False
    g, gid, num = found
    if _RENTED_AFTER.match(t[g.end() : g.end() + 60]):
        return False
    ev = f"{said} {t[pos : g.end()].strip()} {mark}".strip()
    ctx.add(s, "owned_gpu", gid, ev, "stated", g.start())
    if num is None and _POOL_AFTER.match(t, g.end()):
        return True  # "the university's A100 partition": the type, of a size not said
    ctx.add(s, "owned_gpu_count", int(parse_number(num)) if num else 1, ev, "stated" if num else "inferred",
            g.start())  # fmt: skip
    return True


_POOL_AFTER = re.compile(r"s?\s*(?:partition|cluster|fleet|pool|farm|nodes|servers|queue)\b", I)


def _marked(ctx: Ctx, s: Sentence) -> bool:
    """A card followed by an ownership mark: "2x A100 80GB (owned, in our server room)"."""
    t = s.text
    for g in GPU_RE.finditer(t):
        mark = _MARK_AFTER.match(t, g.end())
        if mark is None:
            continue
        start = max(0, g.start() - 12)
        m = re.compile(rf"{_COUNT}$", I).search(t[start : g.start()])
        at = start + m.start() if m is not None and m.group("num") else g.start()
        return _card(ctx, s, at, "", q(mark))
    return False


def _machine(ctx: Ctx, s: Sentence) -> bool:
    """The team's machine and what it holds: "Our on-prem box has 8x H200"."""
    return any(_card(ctx, s, m.end(), q(m)) for m in _MACHINE_HAS.finditer(s.text))


def _institution(ctx: Ctx, s: Sentence) -> bool:
    """Capacity an institution gives the team: "our university cluster gives us 16 A100 nodes, each with 4
    GPUs" (16 x 4), "we have access to 8 A100 80GB on the university HPC"."""
    t = s.text
    if _INSTITUTION.search(t) is None:
        return False
    for m in _GIVES.finditer(t):
        found = _card_at(t, m.end())
        if found is None:
            continue
        g, gid, num = found
        if _RENTED_AFTER.match(t[g.end() : g.end() + 60]):
            return False
        count = int(parse_number(num)) if num else 1
        ev = t[m.start() : g.end()].strip()
        if (each := _NODES_EACH.match(t, g.end())) is not None:
            count *= int(parse_number(each.group("per")))
            ev = t[m.start() : each.end()].strip()
        status = "inferred" if each is not None or not num else "stated"
        ctx.add(s, "owned_gpu", gid, ev, "stated", g.start())
        ctx.add(s, "owned_gpu_count", count, ev, status, g.start())
        return True
    return False


def _tool_listing(ctx: Ctx) -> bool:
    """owned_gpu(_count) from pasted nvidia-smi or lspci output: one GPU per index (bus address)."""
    seen: dict[str, set[str]] = {}
    first: dict[str, tuple[Sentence, int, str]] = {}
    for s in ctx.sentences:
        t = s.text
        if "nvidia" not in t.lower():
            continue  # every listing names the vendor
        for kind, rx in (("smi", _SMI_ROW), ("smi -L", _SMI_L), ("lspci", _LSPCI)):
            for m in rx.finditer(t):
                g = GPU_RE.match(t, m.end())
                if g is None or (rx is _SMI_ROW and _SMI_TAIL.match(t, g.end()) is None):
                    continue  # "8 NVIDIA H100s are what we need" is no table row
                gid = resolve_gpu(g.group("gpu"))
                seen.setdefault(gid, set()).add(f"{kind}:{m.group('idx')}")
                first.setdefault(gid, (s, g.start(), t[m.start() : g.end()].strip()))
    if not seen:
        return False
    gid = max(seen, key=lambda k: len(seen[k]))
    s, at, said = first[gid]
    n = len(seen[gid])
    ev = f"{said} ({n} listed)"
    ctx.add(s, "owned_gpu", gid, ev, "stated", at)
    ctx.add(s, "owned_gpu_count", n, ev, "inferred", at)
    return True


# a Markdown table of hardware ("| Hardware | Qty | Ownership |" / "| A100 80GB | 4 | owned |"): the text
# clean-up turns a row into cells joined by ";" (rules_text._table_row), one block per row
_QTY_HEAD = re.compile(r"^\W*(?:qty|quantity|count|#|number|no\.?|units|gpus|how\s+many)\W*$", I)
_CARD_HEAD = re.compile(r"^\W*(?:gpus?|hardware|cards?|model|type|accelerators?|device|sku)\W*$", I)
_OWNED_CELL = re.compile(r"^\W*(?:owned|ours|on[\s-]?prem\w*|in[\s-]house|bought|purchased|yes)\b", I)
_OWNED_TITLE = re.compile(
    r"\b(?:our|my|owned|own|inventory|existing|current|on[\s-]?prem\w*|in[\s-]house|(?:we|i)\s+(?:have|own))\b",
    I,
)
_RENTED_CELL = re.compile(
    r"\b(?:rent\w*|leas\w*|reserv\w*|cloud|spot|on[\s-]demand|quot\w*|planned|order\w*)\b", I
)


def _table(ctx: Ctx) -> bool:
    """owned_gpu(_count) from the first owned row of a hardware table with a quantity column."""
    blocks: dict[int, list[Sentence]] = {}
    for s in ctx.sentences:
        blocks.setdefault(s.block, []).append(s)
    order = sorted(blocks)
    for i, b in enumerate(order):
        head = [c.strip() for c in " ".join(x.text for x in blocks[b]).split(";")]
        if len(head) < 2:
            continue
        qty = next((j for j, c in enumerate(head) if _QTY_HEAD.match(c)), None)
        card = next((j for j, c in enumerate(head) if _CARD_HEAD.match(c)), None)
        if qty is None or card is None:
            continue
        title = " ".join(x.text for x in blocks[order[i - 1]]) if i > 0 else ""
        for row_block in order[i + 1 :]:
            row = blocks[row_block]
            cells = [c.strip() for c in " ".join(x.text for x in row).split(";")]
            if len(cells) != len(head):
                break  # the table ended
            g = GPU_RE.search(cells[card])
            n = re.fullmatch(r"\d{1,4}", cells[qty])
            rest = " ".join(c for j, c in enumerate(cells) if j not in (card, qty))
            owned = (any(_OWNED_CELL.match(c) for c in cells) or _OWNED_TITLE.search(title) is not None
                     or re.search(r"\b(?:our|my)\b", rest, I) is not None)  # "| A100 | 4 | our rack |"
            if g is None or n is None or not owned or _RENTED_CELL.search(rest):
                continue
            s = row[0]
            ev = f"table row: {' | '.join(cells)}"
            ctx.add(s, "owned_gpu", resolve_gpu(g.group("gpu")), ev, "stated", 0)
            ctx.add(s, "owned_gpu_count", int(n.group(0)), ev, "stated", 0)
            return True
    return False


def rule_owned_forms(ctx: Ctx) -> None:
    """Runs right after rules_gpus.rule_owned_gpus (RULES): owned hardware in labels, marks, machines,
    institutions and tool listings when nothing plainer was read; a count in brackets after the cards."""
    if not ctx.has("owned_gpu"):
        read_owned_forms(ctx)
    refine_owned_count(ctx)
