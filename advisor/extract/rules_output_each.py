"""A batch's output length said through what each output is (issue 12; evals v15/v12 development sets:
"translate 8 million product descriptions ... Each translation is about 150 tokens", "3 million solutions
sampled ... solutions avg ~1.1k tok"): the noun names the written thing (a translation, a summary, a
solution, a verdict), so the figure is the output per item; generation_tokens = items x that length, and
with a deadline the rate it needs (units_text.rate_from_volume). The items are the count the job's verb
takes ("translate 8 million product descriptions") or a count of that same noun ("3 million solutions").

Runs after the other volume rules, only when none read a volume. Not read: an input's length ("Each
document is about 400 tokens": a document is read, not written), a figure that is no token count, a count
under 1,000 (a test run) or per period ("2M translations a month" is a steady rate).
"""

from __future__ import annotations

import re

from advisor.extract import units_text as U
from advisor.extract.base import select_findings
from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_text import MULT, NUM, NUMBER, Sentence, parse_count, parse_number, parse_scaled

_OUTPUT_NOUNS = (
    r"translations?|summar(?:y|ies)|descriptions?|answers?|replies|reply|responses?|completions?|solutions?"
    r"|verdicts?|drafts?|rewrites?|captions?|rationales?|explanations?|generations?|headlines?|titles?"
)
_EACH_IS = re.compile(
    rf"\b(?:(?:each|every|a|one|the)\s+(?:\w+\s+)?(?P<noun>{_OUTPUT_NOUNS})\s+(?:is|are|runs?\s+to|comes?\s+to"
    rf"|has|will\s+be|should\s+be)|(?P<noun2>{_OUTPUT_NOUNS})\s+(?:avg\.?|average|on\s+average|of))\s*"
    rf"(?:about\s+|around\s+|roughly\s+|approx\.?\s+|~\s*)?(?P<num>{NUM})\s*(?P<mult>k)?[\s-]*tok(?:en)?s?\b",
    I,
)
_VERB_COUNT = re.compile(
    r"\b(?:translate|summari[sz]e|describe|answer|solve|caption|rewrite|draft|generate|write|produce|sample"
    rf"|judge|grade|label)\s+(?:all\s+)?(?:the\s+|our\s+|about\s+|around\s+|~\s*)?(?P<num>{NUMBER})\s*"
    rf"(?P<mult>{MULT})?\s+(?:[a-z-]+\s+){{0,2}}?[a-z]{{3,}}s\b",
    I,
)
_PERIOD_AFTER = re.compile(r"\s*(?:a|an|per|/|each|every)\s*(?:day|week|month|hour|night|year)\b", I)
_MIN_ITEMS = 1000  # fewer items are a test run (rules_serving_io _MIN_BATCH_ITEMS)
_MIN_TOKENS = 1e6  # a smaller total is no batch volume (rules_serving_io _MIN_GENERATION_TOKENS)
_MAX_OUTPUT_TOKENS = 200_000  # above: no one output's length


def _count(m: re.Match[str]) -> float:
    mult = m.group("mult")
    return parse_scaled(m.group("num"), mult) if mult else parse_count(m.group("num"))


def _items(ctx: Ctx, noun: str) -> tuple[Sentence, re.Match[str], float] | None:
    """The batch's item count: the job verb's count, else a count of the output noun itself."""
    stem = noun.lower().rstrip("s").removesuffix("ie")
    same = re.compile(rf"(?P<num>{NUMBER})\s*(?P<mult>{MULT})?\s+(?:[a-z-]+\s+){{0,2}}?{stem}\w*\b", I)
    for rx in (_VERB_COUNT, same):
        for s in ctx.sentences:
            for m in rx.finditer(s.text):
                if _PERIOD_AFTER.match(s.text, m.end()):
                    continue
                count = _count(m)
                if count >= _MIN_ITEMS:
                    return s, m, count
    return None


def rule_output_each(ctx: Ctx) -> None:
    """output_tokens, generation_tokens and the rate by the deadline (module docstring)."""
    if ctx.workload not in ("inference", None) or ctx.has("generation_tokens"):
        return
    for s in ctx.sentences:
        if (each := _EACH_IS.search(s.text)) is None:
            continue
        tokens = parse_number(each.group("num")) * (1000 if each.group("mult") else 1)
        if not 1 <= tokens <= _MAX_OUTPUT_TOKENS:
            continue
        found = _items(ctx, each.group("noun") or each.group("noun2"))
        if found is None:
            return
        at, m, count = found
        total = count * tokens
        if total < _MIN_TOKENS:
            return
        if not ctx.has("output_tokens"):
            ctx.add(s, "output_tokens", int(tokens), q(each), "stated", each.start())
        ev = f'"{q(m)}" x "{q(each)}" = {total:,.0f} output tokens'
        ctx.add(at, "generation_tokens", total, ev, "inferred", m.start())
        if ctx.workload is None:
            ctx.add(at, "workload", "inference", f'"{q(m)}" with an output each -> a batch job (inference)',
                    "inferred", m.start())  # fmt: skip
            ctx.workload = "inference"
        best = select_findings(f for f in ctx.findings if f.field == "deadline_hours")
        deadline = best.get("deadline_hours")
        if deadline is not None and not ctx.has("target_tokens_per_s"):
            conv = U.rate_from_volume(total, float(deadline.value))
            ctx.add(at, "target_tokens_per_s", conv.value, f"{ev} by the deadline: {conv.how}", "inferred",
                    m.start())  # fmt: skip
        return
