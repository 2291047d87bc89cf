"""A batch's volume written as a product of factors (issue 12, structural; evals v14/v15 development sets:
"50k convos x 8 turns x ~300 tok per turn (output)", "400k samples x ~1.5k tokens each", "37 checkpoints x
5k prompts x 4 samples each" with the output length said elsewhere). The layout is a chain of counts joined
by "x", "×" or "*", each count with its noun; when the last factor is a token length, the chain's product is
the job's token volume, else the product is its item count, which meets the output length read elsewhere.

The same chain is a training set's size ("20k examples x 2k tokens", rules_data) or a generation job's
output: it is read as generation only where the text is a generation job, that is the workload reader
found inference, or found nothing and the text names a generation (a synthetic-data job, a teacher model,
new or output tokens, a (re)generation verb, sampling; "samples" alone is a noun, no generation). A
training word anywhere leaves the chain to rules_data. Then the chain's dataset_tokens reading in that
sentence is replaced by generation_tokens, the workload is inference (inferred), and with a deadline the
rate it needs (units_text.rate_from_volume).

Not read: one factor alone (no chain), a chain under 1,000 items or 1M tokens (a test run; the limits of
rules_serving_io), a chain per period ("2M x 200 tokens a day" is a steady rate), prices or sizes in GB.
"""

from __future__ import annotations

import re

from advisor.extract import units_text as U
from advisor.extract.base import select_findings
from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_text import MULT, NUMBER, Sentence, parse_count, parse_scaled

_APPROX = r"(?:~\s*|≈\s*|about\s+|around\s+|approx\.?\s+|roughly\s+|ca\.?\s+)?"
_FACTOR = rf"{_APPROX}{NUMBER}\s*(?:{MULT})?"
_TIMES = r"\s*(?:[x×*]|times)\s*"
_NOUN = r"(?:\s+(?!tok(?:en)?s?\b)[a-z][a-z-]{1,20}){1,2}"  # "convos", "synthetic convos", not "tokens"
_TOKENS = r"\s*(?:output\s+|new\s+|gen(?:erated)?\s+)?tok(?:en)?s?\b"
# two or more counted nouns joined by "x", ending in a token length or in a last counted noun
_CHAIN = re.compile(
    rf"(?<![\w.$€£])(?P<chain>{_FACTOR}{_NOUN}(?:{_TIMES}{_FACTOR}{_NOUN})*"
    rf"(?:{_TIMES}(?P<len>{_FACTOR}){_TOKENS}|{_TIMES}{_FACTOR}{_NOUN}))",
    I,
)
_ONE = re.compile(rf"(?P<num>{NUMBER})\s*(?P<mult>{MULT})?", I)
_PERIOD_AFTER = re.compile(r"\s*(?:a|an|per|/|each|every)\s*(?:day|week|month|hour|night|year)\b", I)
_MONEY_OR_SIZE = re.compile(r"[$€£]|\b(?:usd|eur|gbp|gb|tb|gib|tib|mb)\b", I)
# what says the text makes text: a synthetic-data job, a teacher, output or new tokens, (re)generation
_GENERATES = keyed(
    r"\bsynth(?:etic)?\b|\bteacher\b|\b(?:new|output|generated)\s+tok(?:en)?s?\b|\btok(?:en)?s?\s+out\b"
    r"|\(output\)|\b(?:re-?)?generat(?:e|es|ed|ing|ion)\b|\bdistil\w*|\bsampl(?:ed|ing)\b|\bsample\s+(?=\d)",
    I,
)
# a training word: the chain is then a training set's size (rules_data)
_TRAINS = keyed(
    r"\b(?:fine[\s-]?tun\w*|finetun\w*|pre-?train\w*|LoRA|QLoRA|SFT|DPO|epochs?|train(?:ing)?\s+(?:on|run|job"
    r"|set|data))\b",
    I,
)
_MIN_ITEMS = 1000  # fewer items are a test run (rules_serving_io _MIN_BATCH_ITEMS)
_MIN_TOKENS = 1e6  # a smaller total is no batch volume (rules_serving_io _MIN_GENERATION_TOKENS)


def _product(text: str) -> float:
    """The product of every count in a chain's text ("50k convos x 8 turns" -> 400,000)."""
    total = 1.0
    for m in _ONE.finditer(text):
        mult = m.group("mult")
        total *= parse_scaled(m.group("num"), mult) if mult else parse_count(m.group("num"))
    return total


def _is_generation(ctx: Ctx) -> bool:
    if ctx.workload == "inference":
        return True
    if ctx.workload is not None or any(_TRAINS.search(s.text) for s in ctx.sentences):
        return False
    return any(_GENERATES.search(s.text) for s in ctx.sentences)


def _chains(ctx: Ctx) -> list[tuple[Sentence, re.Match[str]]]:
    found = []
    for s in ctx.sentences:
        for m in _CHAIN.finditer(s.text):
            if _PERIOD_AFTER.match(s.text, m.end()) or _MONEY_OR_SIZE.search(m.group(0)):
                continue
            found.append((s, m))
    return found


def rule_generation_chain(ctx: Ctx) -> None:
    """generation_tokens (workload inference, target rate with a deadline) from a chain of counts joined by
    "x" in a generation job's text."""
    if ctx.has("generation_tokens") or not _is_generation(ctx):
        return
    best = select_findings(f for f in ctx.findings if f.field in ("output_tokens", "deadline_hours"))
    for s, m in _chains(ctx):
        length = m.group("len")
        items_text = m.group("chain")[: m.start("len") - m.start("chain")] if length else m.group("chain")
        items = _product(items_text)
        out = best.get("output_tokens")
        if length:
            each = _product(length)
            said = f'"{q(m)}"'
        elif out is not None:
            each, said = float(out.value), f'"{q(m)}" x "{out.evidence}"'
        else:
            continue
        total = items * each
        if items < _MIN_ITEMS or total < _MIN_TOKENS:
            continue
        lo, hi = s.start, s.start + len(s.text)
        ctx.findings[:] = [
            f for f in ctx.findings if not (f.field == "dataset_tokens" and lo <= f.position < hi)
        ]
        if ctx.workload is None:
            ctx.add(s, "workload", "inference", f"{said}: a generation job's output -> inference", "inferred",
                    m.start())  # fmt: skip
            ctx.workload = "inference"
        ctx.add(s, "generation_tokens", total, f"{said} = {total:,.0f} output tokens", "inferred", m.start())
        if length and out is None:
            ev = f'"{length.strip()}" tokens per item'
            ctx.add(s, "output_tokens", int(each), ev, "inferred", m.start())
        deadline = best.get("deadline_hours")
        if deadline is not None:
            conv = U.rate_from_volume(total, float(deadline.value))
            ctx.add(s, "target_tokens_per_s", conv.value, f"{said} by the deadline: {conv.how}", "inferred",
                    m.start())  # fmt: skip
        return
