"""Prompt and answer lengths written side by side, the way requests state them (issue 12).

The patterns of advisor/extract/rules_serving_io.py read a length next to its noun ("prompts ~2k tokens").
People also write the two lengths as a pair whose roles follow from the words around each figure:

- the role noun after a bare figure: "~2k prompt / ~400 answer", "4k prompts, 1k outputs";
- one length marked as the answer and the other left plain, which is then the input: "sends ~1,200
  tokens of conversation history and gets ~300 tokens back", "transcript ~4k tokens each, summary ~200
  tokens", "each review is about 200 tokens, and the summary is about 60 tokens", "~3k tokens of
  prompt, ~80 tokens completed", "~2.5k tokens in (retrieved chunks) and ~200 tokens out";
- a labelled row of a pasted sheet: "Avg input per item<TAB>900<TAB>tokens".

This rule runs before rule_serving_io, so its findings feed the context length and the batch volume that
rule derives. A value it reads is "stated" (the user's figure, its role read from the words beside it).
"""

from __future__ import annotations

import re

from advisor.extract.regex_memo import per_reading
from advisor.extract.rules_ctx import Ctx, Gated, I
from advisor.extract.rules_text import APPROX, NUM, Sentence, parse_count, parse_number
from advisor.extract.sentence_memo import read_once

MAX_LENGTH_TOKENS = 1_000_000
"""Above this a figure in tokens is a volume (a corpus, a batch), not one request's prompt or answer."""

# a figure of tokens: "~1,200 tokens", "40-48k tokens", "2.5k tok", "1-1.5k back" (unit-less only before
# back/out, checked below); a range gives its upper end, as in rules_serving_io
_FIGURE = (
    rf"{APPROX}(?:(?P<lo>{NUM})\s*k?\s*(?:-|–|to)\s*)?(?P<num>{NUM})\s*(?P<k>k)?"
    r"(?P<unit>[\s-]*tok(?:en)?s?\b)?"
)
_FIGURE_RX = re.compile(_FIGURE, I)
_DIGIT = re.compile(r"\d")  # the same digits as NUM's \d (Unicode)
# what makes a figure a rate or a volume rather than one request's length
_NOT_LENGTH_AFTER = re.compile(
    r"\s*(?:/\s*(?:s|sec|min|h|hr|day)\b|(?:per|an?|each|every)\s+(?:s|sec|second|minute|min|hour|hr|day|week"
    r"|month|year|user|gpu)\b|of\s+(?:data|text|training|corpus|pre-?training)\b)",
    I,
)
_OUT_NOUNS = (
    r"answers?|outputs?|responses?|replies|reply|completions?|generations?|summar(?:y|ies)|verdicts?|labels?"
    r"|translations?|rewrites?|review\s+comments|comments|feedback|drafts?|captions?|abstracts?"
)
_IN_NOUNS = (
    r"prompts?|inputs?|context|history|questions?|queries|query|retrieved\s+\w+|instructions|prefix|diffs?"
)
# the answer named just before its figure: "summary ~200 tokens", "the verdict is ~90", "replies never
# more than 60 tokens"
_OUT_BEFORE = re.compile(
    rf"\b(?:{_OUT_NOUNS})\b(?:\s*(?:is|are|of|runs?|comes?\s+(?:out\s+)?(?:to|at)|averag\w*|never|not|more|than"
    r"|about|around|roughly|typically|usually|just|only|call\s+it|out|\(|,|:))*\s*$"
    r"|\b(?:produces?|returns?|generates?|writes?|emits?|yields?|sends?\s+back)\s*(?:back\s+)?$",
    I,
)
# or right after it: "~300 tokens back", "~80 tokens completed", "~600 tokens of review comments"
_OUT_AFTER = re.compile(
    rf"\s*(?:back|out\b(?!\s+of\s+(?!it|them|each))|completed|generated|returned|of\s+(?:output|(?:[\w-]+\s+)?"
    rf"(?:{_OUT_NOUNS})\b))",
    I,
)
_IN_BEFORE = re.compile(
    rf"\b(?:{_IN_NOUNS})\b(?:\s+(?:is|are|of|runs?|averag\w*|about|around|~|:|,))*\s*$", I
)
_IN_AFTER = re.compile(rf"\s*(?:in\b|going\s+in\b|of\s+(?:[\w-]+\s+)?(?:{_IN_NOUNS})\b)", I)
# the role noun right after a bare figure: "~2k prompt / ~400 answer", "4k prompts, 1k outputs"
_ROLE_PAIR = Gated(
    re.compile(
        rf"{APPROX}(?P<inp>{NUM})\s*(?P<ik>k)?\s*(?:tok(?:en)?s?\s+)?(?:prompts?|inputs?)\b\s*(?:[,/;&+]|and)\s*"
        rf"{APPROX}(?P<out>{NUM})\s*(?P<ok>k)?\s*(?:tok(?:en)?s?\s+)?(?:answers?|outputs?|responses?|replies"
        r"|completions?)\b(?!\s*(?:a|an|per|each|every)\s+(?:day|hour|week|month|minute|second)\b)",
        I,
    ),
    "prompt", "input",
)  # fmt: skip
# a labelled row: "Avg input per item<TAB>900<TAB>tokens", "Output length | 450 | tokens"
_ROW = Gated(
    re.compile(
        r"\b(?:avg\.?\s+|average\s+|mean\s+|typical\s+)?(?P<role>input|prompt|output|answer"
        rf"|completion)s?\b[^\t|\n\d]{{0,30}}[\t|:]\s*(?P<num>{NUM})\s*(?P<k>k)?\s*[\t|]?\s*tok(?:en)?s?\b",
        I,
    ),
    "input", "prompt", "output", "answer", "completion",
)  # fmt: skip


def _value(num: str, k: str | None) -> int | None:
    value = (parse_number(num) * 1000) if k else parse_count(num)
    return int(value) if 1 <= value <= MAX_LENGTH_TOKENS else None


@per_reading
def _figures(t: str) -> list[tuple[re.Match[str], int, str]]:
    """Token figures in `t` with their value and role: 'out', 'in' or '' (not marked)."""
    out: list[tuple[re.Match[str], int, str]] = []
    if not _DIGIT.search(t):
        return out  # every figure holds a digit (NUM): a third of a brief's sentences hold none
    for m in _FIGURE_RX.finditer(t):
        if not m.group("unit") and not m.group("k"):
            continue  # a bare figure is a length only as "1-1.5k back" (most numbers: asked first)
        after = t[m.end() : m.end() + 60]
        marked_out = _OUT_AFTER.match(after) is not None
        if not m.group("unit") and not marked_out:
            continue
        if _NOT_LENGTH_AFTER.match(after):
            continue
        value = _value(m.group("num"), m.group("k"))
        if value is None:
            continue
        before = t[max(0, m.start() - 40) : m.start()]
        role = "out" if marked_out else "in" if _IN_AFTER.match(after) else ""
        if not role:  # the words after a figure say more than those before it
            role = "out" if _OUT_BEFORE.search(before) else "in" if _IN_BEFORE.search(before) else ""
        out.append((m, value, role))
    return out


@read_once
def rule_lengths(ctx: Ctx) -> None:
    """prompt_tokens and output_tokens from a pair of lengths whose roles the words around them give."""
    for s in ctx.sentences:
        t = s.text
        if _rows(ctx, s) or _role_pairs(ctx, s):
            continue
        figures = _figures(t)
        if len(figures) != 2:
            continue  # one figure has no partner; three or more are a table or a list of cases
        roles = [r for _, _, r in figures]
        if "out" not in roles or roles.count("out") == 2:
            continue
        for m, value, role in figures:
            field = "output_tokens" if role == "out" else "prompt_tokens"
            said = (m.group(0) + t[m.end() : m.end() + 25].split(",")[0]).strip()
            ctx.add(s, field, value, said, "stated", m.start())


def _role_pairs(ctx: Ctx, s: Sentence) -> bool:
    found = False
    for m in _ROLE_PAIR.finditer(s.text):
        for field, num, k in (("prompt_tokens", "inp", "ik"), ("output_tokens", "out", "ok")):
            value = _value(m.group(num), m.group(k))
            if value is not None:
                ctx.add(s, field, value, m.group(0).strip(), "stated", m.start(num))
                found = True
    return found


def _rows(ctx: Ctx, s: Sentence) -> bool:
    found = False
    for m in _ROW.finditer(s.text):
        value = _value(m.group("num"), m.group("k"))
        if value is not None:
            role = m.group("role").lower()
            field = "prompt_tokens" if role in ("input", "prompt") else "output_tokens"
            ctx.add(s, field, value, m.group(0).strip(), "stated", m.start("num"))
            found = True
    return found
