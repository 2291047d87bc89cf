"""More ways a team writes the hardware it asks about or was told suffices (claimed_gpu, claimed_gpu_count),
read when advisor/extract/rules_claims.py read no claim (evals v13 failures, written per form):

- the modal before the cards and the verb after them: "Will 4x L40S hold it?", "Can 2 A100s handle
  this?", "would a single H100 cope?", "could 8x H200 serve 150 users?";
- a count of the cards named before: "accelerator = h100 ... Is 16 of those enough to finish in 5 days?",
  "we like the L40S; would 4 of them do?";
- a question whose verb takes the workload ("Could two H200s serve Qwen2.5 72B ...?") or asks whether it is
  possible with the cards ("Is it also possible with RTX 4090?"), in a sentence ending in "?";
- part of the team's own machines: "2 servers with 8 H200 each ... is it possible with only one server
  or do we need the two?" (one server's GPUs, of the owned card).

Not a claim: a statement of a plan with no question or sufficiency word ("we will run 4x L40S in
Frankfurt"), a count of something else ("16 of those users"), a machine subset said as a fact ("one
server is in Madrid")."""

from __future__ import annotations

import re

from advisor.extract.base import Finding
from advisor.extract.rules_claims import _CLAIM_HOURS, _claimed_hours
from advisor.extract.rules_ctx import Ctx, I
from advisor.extract.rules_gpus import NODE_GPUS
from advisor.extract.rules_models import GPU_RE, resolve_gpu
from advisor.extract.rules_text import NUMBER, Sentence, parse_number
from advisor.extract.scan import MatchAhead

_COUNT = rf"(?:(?P<num>{NUMBER})\s*(?:x\s*|×\s*)?|a\s+single\s+|just\s+(?:one\s+|a\s+)?|only\s+(?:one\s+)?)?"
_MODAL = re.compile(rf"\b(?:will|would|can|could|do|does|should|might|may)\s+{_COUNT}(?:nvidia\s+)?$", I)
# the sufficiency verb after the cards, and what it takes: "hold it", "handle this", "cope?", "serve 150"
_COPES = re.compile(
    r"s?(?:\s+(?:gpus?|cards?))?\s+(?:(?:really|actually|easily|still|comfortably)\s+)?"
    r"(?:hold|handle|manage|cope|carry|sustain|serve|host|fit|support|keep\s+up|cut\s+it|suffice|do"
    r"|be\s+(?:ok|okay|fine|enough|sufficient|able))\b"
    r"(?=\s*(?:it|this|that|them|the\b|our\b|\d|with\b|for\b|\?|$|[,.!]))",
    I,
)
# "16 of those", "4 of them", "eight of these cards", "2 of the same"
_OF_THOSE = re.compile(
    rf"\b(?P<num>{NUMBER})\s+(?:of\s+(?:those|these|them|the\s+same)(?:\s+(?:cards?|gpus?|ones?))?)\b", I
)
_SUFFICES = re.compile(
    r"\b(?:enough|sufficient|suffices?|adequate|do\s+it|do\s+the\s+(?:job|trick)|cut\s+it|hold|handle"
    r"|manage|cope|feasible|possible|realistic|doable)\b|\?",
    I,
)
# someone's advice on the hardware: "Our consultant recommended 8x A100", "the sales rep proposed 2 H200
# nodes", "We were quoted 4x H100 for this"; a counted configuration with a check asked: "4x L40S should be
# fine, right?", "Planning on 4 H100s - sanity check?"
_ADVISED = re.compile(
    r"\b(?:recommend(?:s|ed)?|propos(?:es|ed)|suggest(?:s|ed)|quot(?:es|ed)|spec(?:ced|'d)|pitch(?:es|ed))\s+"
    rf"(?:us\s+|me\s+)?(?:an?\s+|a\s+single\s+|just\s+)?{_COUNT}(?:nvidia\s+)?$",
    I,
)
_FINE = re.compile(
    r"s?(?:\s+(?:gpus?|cards?|nodes?|servers?))?\s+(?:should|would|will|might|ought\s+to)\s+be\s+(?:fine|ok|okay|good"
    r"|plenty|adequate|alright)\b",
    I,
)
_CHECK_ASKED = re.compile(
    r"\b(?:sanity[\s-]check|right\s*\?|correct\s*\?|no\s*\?|does\s+(?:that|this)\s+(?:sound|look)\s+(?:right|ok)"
    r"|make\s+sense)",
    I,
)
# a yes/no question on named cards: "Is an L40S good enough to serve ...?", "Are 2x A100 sufficient?",
# "is a single H100 fast enough for 40 users?", "Are four L4s up to the job?" (expert review 13, R13)
_IS_VERB = re.compile(rf"\b(?:is|are|isn'?t|aren'?t)\s+(?:just\s+|only\s+)?{_COUNT}(?:nvidia\s+)?$", I)
_IS_ENOUGH = re.compile(
    r"s?(?:\s+(?:gpus?|cards?|alone))?\s+(?:(?:really|actually|still|alone)\s+)?"
    r"(?:(?:good|fast|big|strong|powerful)\s+enough|enough|sufficient|adequate|up\s+to\s+(?:it|the\s+(?:job|task))"
    r"|capable\s+of|able\s+to|ok|okay|fine)\b",
    I,
)
# a question whose verb takes the workload itself (evals v12): "Could two H200s serve Qwen2.5 72B in bf16 for
# 64 users ... ?", "Can 4x L40S run Llama 3 70B?"; only in a sentence that ends in "?"
_SERVES_ASKED = re.compile(
    r"s?(?:\s+(?:gpus?|cards?))?\s+(?:serve|host|run(?!\s+out\b)|train|handle|fit)\s+\S", I
)
# "Is it also possible with RTX 4090?", "would it be feasible on 2 A100s?" (evals v12, non-native German)
_POSSIBLE_WITH = re.compile(
    r"\b(?:is\s+(?:it|this|that)|would\s+(?:it|this|that)\s+be|will\s+(?:it|this|that)\s+be)\s+"
    rf"(?:also\s+|even\s+|still\s+)?(?:possible|feasible|doable|realistic)\s+(?:with|on|using)\s+"
    rf"(?:(?:an?|only|just)\s+)?{_COUNT}(?:nvidia\s+)?$",
    I,
)
_COUNT_BEFORE = re.compile(rf"(?:^|\b(?:on|with|of|use|using)\s+|[\s,;:(-]){_COUNT}(?:nvidia\s+)?$", I)
_MACHINE = r"(?:servers?|nodes?|box(?:es)?|machines?|hosts?|chassis)"
# one of the team's machines asked about: "possible with only one server", "can we do it on one node?"
_PART = re.compile(
    rf"\b(?:only|just|a\s+single|single|one|1)\s+(?:of\s+(?:the|our|those|these)\s+(?:\w+\s+)?)?{_MACHINE}\b",
    I,
)
# "2 servers", "both HGX B200 boxes", "our two DGX H100 nodes": up to two words naming the kind
_BOXES = re.compile(rf"\b(?P<num>{NUMBER}|both)\s+(?:[\w-]+\s+){{0,2}}{_MACHINE}\b", I)


def rule_claim_forms(ctx: Ctx) -> None:
    """claimed_gpu(_count) from the forms above when rule_claims read none."""
    if ctx.has("claimed_gpu"):
        return
    for i, s in enumerate(ctx.sentences):
        if _modal_copes(ctx, s) or _of_those(ctx, i, s) or _part_of_owned(ctx, s) or _advised(ctx, s):
            return


def _count(m: re.Match[str]) -> int:
    return int(parse_number(m.group("num"))) if m.group("num") else 1


def _modal_copes(ctx: Ctx, s: Sentence) -> bool:
    t = s.text
    for g in GPU_RE.finditer(t):
        modal = _MODAL.search(t[max(0, g.start() - 40) : g.start()])
        asked = t.rstrip().endswith("?")
        if modal is not None and asked and _SERVES_ASKED.match(t, g.end()) is not None:
            pass  # "Could two H200s serve Qwen2.5 72B ...?"
        elif (possible := _POSSIBLE_WITH.search(t[max(0, g.start() - 60) : g.start()])) is not None and asked:
            modal = possible  # "Is it also possible with RTX 4090?"
        elif modal is None or _COPES.match(t, g.end()) is None:
            modal = _IS_VERB.search(t[max(0, g.start() - 40) : g.start()])
            if modal is None or _IS_ENOUGH.match(t, g.end()) is None or not t.rstrip().endswith("?"):
                continue
        said = t[g.start() - (len(modal.group(0))) : g.end()].strip()
        ctx.add(s, "claimed_gpu", resolve_gpu(g.group("gpu")), said, "stated", g.start())
        ctx.add(s, "claimed_gpu_count", _count(modal), said, "stated", g.start())
        ctx.claim_sentences.add(s.start)
        return True
    return False


def _advised(ctx: Ctx, s: Sentence) -> bool:
    """Hardware someone advised, or a counted set-up the writer asks to have checked."""
    t = s.text
    check_asked = MatchAhead(_CHECK_ASKED, t)  # asked of the rest of the sentence once, not per name
    for g in GPU_RE.finditer(t):
        before = t[max(0, g.start() - 40) : g.start()]
        cue = _ADVISED.search(before)
        if cue is None:
            cue = _COUNT_BEFORE.search(before)
            if cue is None or cue.group("num") is None:
                continue
            if _FINE.match(t, g.end()) is None and not check_asked.at_or_after(g.end()):
                continue
        said = t[g.start() - len(cue.group(0)) : g.end()].strip()
        # "2 H200 nodes": a data-centre node carries NODE_GPUS cards (rules_gpus.NODE_GPUS, HGX boards)
        nodes = _NODES_AFTER.match(t, g.end()) is not None
        n = _count(cue) * (NODE_GPUS if nodes else 1)
        ctx.add(s, "claimed_gpu", resolve_gpu(g.group("gpu")), said, "stated", g.start())
        ctx.add(s, "claimed_gpu_count", n, said, "inferred" if nodes else "stated", g.start())
        ctx.claim_sentences.add(s.start)
        return True
    return False


_NODES_AFTER = re.compile(r"s?\s+(?:nodes|servers|boxes)\b", I)


def _of_those(ctx: Ctx, i: int, s: Sentence) -> bool:
    t = s.text
    m = _OF_THOSE.search(t)
    if m is None or _SUFFICES.search(t, m.end()) is None:
        return False
    # the cards named last before it: earlier in the sentence, else in the sentences before
    named = list(GPU_RE.finditer(t[: m.start()]))
    for j in range(i - 1, -1, -1):
        if named:
            break
        named = list(GPU_RE.finditer(ctx.sentences[j].text))
    if not named:
        return False
    g = named[-1]
    said = f'"{g.group(0).strip()}" and "{m.group(0)}"'
    ctx.add(s, "claimed_gpu", resolve_gpu(g.group("gpu")), said, "stated", m.start())
    ctx.add(s, "claimed_gpu_count", int(parse_number(m.group("num"))), said, "stated", m.start())
    ctx.claim_sentences.add(s.start)
    hours = _CLAIM_HOURS.search(t, m.end())
    if hours is not None and not ctx.has("claimed_hours"):
        stated = hours.group("unit").lower().startswith("h")
        ctx.add(s, "claimed_hours", _claimed_hours(hours), hours.group(0).strip(),
                "stated" if stated else "inferred", hours.start())  # fmt: skip
    return True


def _owned(ctx: Ctx, name: str) -> Finding | None:
    return next((f for f in ctx.findings if f.field == name), None)


def _part_of_owned(ctx: Ctx, s: Sentence) -> bool:
    gpu, count = _owned(ctx, "owned_gpu"), _owned(ctx, "owned_gpu_count")
    if gpu is None or count is None or not isinstance(count.value, int):
        return False
    owned_s = next((o for o in ctx.sentences if o.start <= count.position <= o.start + len(o.text)), None)
    if owned_s is None:
        return False
    # in the owned sentence itself only after the machines (lines of a note joined into one sentence)
    part = _PART.search(s.text, count.position - s.start + 1 if owned_s is s else 0)
    if part is None or _SUFFICES.search(s.text, part.start()) is None:
        return False
    boxes = _BOXES.search(owned_s.text)
    said_boxes = boxes.group("num") if boxes is not None else "0"
    n_boxes = 2 if said_boxes.lower() == "both" else int(parse_number(said_boxes))
    if n_boxes < 2 or count.value % n_boxes:
        return False  # one machine, or the machines' size unknown
    per = count.value // n_boxes
    said = f'"{part.group(0)}" of "{boxes.group(0) if boxes else ""}": {per} GPUs'
    ctx.add(s, "claimed_gpu", gpu.value, said, "stated", part.start())
    ctx.add(s, "claimed_gpu_count", per, said, "inferred", part.start())
    return True
