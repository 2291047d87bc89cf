"""Capacity a team holds, said as the organisation holding a pool of GPUs: "The company holds a reserved
AWS cluster of 32 H100 (four p5 nodes)", "our lab has a pool of 16 A100s", "the institute operates a
partition with 64 H100", "we keep a prepaid block of 8 H200 on Nebius" (evals v13, board minutes: the
organisation as subject and the pool's noun before the count were not read).

Read only when no plainer ownership was read (rules_gpus, rules_owned_forms run first). Not held: a pool
weighed or priced ("we have a quote for a cluster of 32 H100", "the company has budget for ..."), rented
on demand, credits or quota, or another organisation's ("our competitor has a cluster of 1,000 H100")."""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, I
from advisor.extract.rules_models import GPU_RE, resolve_gpu
from advisor.extract.rules_text import NUMBER, parse_number

# who holds it: the writer, the writer's organisation
_HOLDER = (
    r"(?:\b(?:we|i)(?:'ve)?|\b(?:our|my|the)\s+(?:company|team|lab|group|org|organi[sz]ation|firm|startup"
    r"|university|institute|department|dept|employer|business|division|unit))"
)
# the present holding verb ("had" is history; "need", "want" are not held)
_VERB = r"(?:holds?|has|have|owns?|operates?|runs?|keeps?|maintains?|(?:has|have)\s+got)"
_POOL = r"(?:cluster|pool|fleet|block|partition|allocation|reservation|farm|rack|estate)"
_HELD = re.compile(
    rf"{_HOLDER}\s+(?:already\s+|currently\s+|still\s+|also\s+)?{_VERB}\s+(?:an?\s+|the\s+)?"
    # "a 30-day reservation on / for 8x H200" (expert review 14, R10 and P10b: read as a rental before)
    rf"(?P<words>(?:[\w.-]+\s+){{0,5}}?){_POOL}\s+(?:of|with|on|for)\s+(?P<num>{NUMBER})\s*(?:x\s*|×\s*)?"
    r"(?:nvidia\s+)?",
    I,
)
# a pool weighed, priced or not in hand
_NOT_HELD = re.compile(
    r"\b(?:budget|quotes?|offers?|proposals?|plans?|options?|room|approval|permission|need|for|on-?demand"
    r"|spot|credits?|quota|trial)\b",
    I,
)


def rule_held_capacity(ctx: Ctx) -> None:
    """owned_gpu(_count) from an organisation holding a pool of GPUs, when nothing else read them."""
    if ctx.has("owned_gpu"):
        return
    for s in ctx.sentences:
        for m in _HELD.finditer(s.text):
            g = GPU_RE.match(s.text, m.end())
            if g is None or _NOT_HELD.search(m.group("words")) is not None:
                continue
            ev = s.text[m.start() : g.end()].strip()
            ctx.add(s, "owned_gpu", resolve_gpu(g.group("gpu")), ev, "stated", g.start())
            ctx.add(s, "owned_gpu_count", int(parse_number(m.group("num"))), ev, "stated", g.start())
            return


# the part of the pool the team may use, said after it: "The department cluster has 32 A100 80GB, but 20 of
# them belong to the vision group, so realistically we get 12" (evals v7), "we can use only 8 of them",
# "in practice we have access to 4" (not "we get 12 tokens/s", "we get 3 nodes" (rules_allocation.py))
_WE_GET = re.compile(
    r"\b(?:we|i)(?:'ll|\s+will|\s+can|\s+may|\s+only)?\s+(?:only\s+|realistically\s+|actually\s+|effectively\s+"
    r"|really\s+)?(?:get|use|have\s+access\s+to|are\s+allowed)\s+(?:to\s+use\s+)?(?:only\s+|just\s+|about\s+)?"
    rf"(?P<num>{NUMBER})(?:\s+of\s+(?:them|those|these)|\s+(?:gpus?|cards?))?(?=\s*(?:$|[.,;:!?)]|\b(?:and|but|so)\b))",
    I,
)


def rule_usable_share(ctx: Ctx) -> None:
    """owned_gpu_count: the smaller part of the owned pool the team says it gets, in the owned sentence
    or the two after it."""
    count = next((f for f in ctx.findings if f.field == "owned_gpu_count"), None)
    if count is None or not isinstance(count.value, int):
        return
    spans = enumerate(ctx.sentences)
    at = next((i for i, s in spans if s.start <= count.position <= s.start + len(s.text)), None)
    if at is None:
        return
    for s in ctx.sentences[at : at + 3]:
        m = _WE_GET.search(s.text, count.position - s.start if s is ctx.sentences[at] else 0)
        if m is None:
            continue
        n = int(parse_number(m.group("num")))
        if 0 < n < count.value:
            ctx.findings[:] = [f for f in ctx.findings if f is not count]
            ctx.add(s, "owned_gpu_count", n, f"{count.evidence}; {m.group(0).strip()}", "stated", m.start())
        return


# machines times the cards in each, in the shorthand of chat and hardware lists: "we got 2 boxes w/ 8 H100
# each", "Hardware: 2 nodes, 8x H100 per node (owned)", "We own 3 boxes with 4 cards each, all RTX 4090"
_EACH_MACHINE = re.compile(
    rf"\b(?P<boxes>{NUMBER})\s+(?:[\w-]+\s+)?(?:nodes|servers|boxes|machines|hosts|workstations|rigs)\s*"
    rf"(?:,\s*|\s+(?:each\s+)?(?:with|w/|having|of|carrying)\s+|\s*w/\s*)(?P<per>{NUMBER})\s*(?:x\s*|×\s*)?"
    r"(?:(?P<generic>gpus|cards|accelerators)\b|(?:nvidia\s+)?(?=\S))",
    I,
)
_EACH_WORD = re.compile(r"\s*(?:each|apiece|a\s+piece|per\s+(?:node|server|box|machine|host)|in\s+each)\b", I)
_OURS = re.compile(
    r"\b(?:(?:we|i)(?:'ve)?\s+(?:\w+\s+)?(?:have|own|got|run|operate|bought)|our|my|owned|ours|on[\s-]?prem\w*"
    r"|in[\s-]house)\b",
    I,
)
# someone else's machines, or ones no longer there
_THEIRS = re.compile(
    r"\b(?:competitors?|rivals?|the\s+paper|the\s+authors|they|their|used\s+to|no\s+longer|sold|last\s+year"
    r"|previous(?:ly)?|formerly)\b",
    I,
)
_TYPE_AFTER = re.compile(r"[\s,;:(-]*(?:all\s+|each\s+an?\s+|of\s+type\s+|type\s*:?\s*)?(?:nvidia\s+)?", I)


def rule_machines_each(ctx: Ctx) -> None:
    """owned_gpu(_count) from machines x cards in each (above), when nothing else read the owned cards."""
    if ctx.has("owned_gpu"):
        return
    for s in ctx.sentences:
        t = s.text
        if _OURS.search(t) is None or _NOT_HELD.search(t) is not None or _THEIRS.search(t) is not None:
            continue
        for m in _EACH_MACHINE.finditer(t):
            g = None if m.group("generic") else GPU_RE.match(t, m.end())
            each = _EACH_WORD.match(t, g.end() if g is not None else m.end())
            if each is None:
                continue
            if g is None:  # "4 cards each, all RTX 4090": the type after the count
                g = GPU_RE.match(t, _TYPE_AFTER.match(t, each.end()).end())  # type: ignore[union-attr]
            if g is None:
                continue
            n = int(parse_number(m.group("boxes")) * parse_number(m.group("per")))
            ev = t[m.start() : max(g.end(), each.end())].strip()
            ctx.add(s, "owned_gpu", resolve_gpu(g.group("gpu")), ev, "stated", g.start())
            ctx.add(s, "owned_gpu_count", n, ev, "inferred", g.start())
            return
