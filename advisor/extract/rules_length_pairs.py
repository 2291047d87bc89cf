"""A request's prompt and output lengths written as a pair, each figure tagged by its role word (issue 12,
structural; evals v12/v14 development cases: "1k prompt / 200 out", "Prompt ~900, answer ~150", "7,500
tokens of diff in, ~400 tokens of review out"). The layout is two figures joined by "/", ",", ";", "+" or
"and", one tagged as what goes in (prompt, input, in, question, query) and one as what comes out (out,
output, answer, reply, response, completion), the role word after each figure or before it; the word
"tokens" may be missing, since the pair names the lengths.

Runs after the length rules and before rule_serving_io (which derives the context length and a batch's
volume from them), and fills only a field they left unread. Not read: a pair with two roles of one side
("prompt 900 / context 8k"), a figure of 1M tokens or more (no request's length), a rate ("20 tok/s out").
"""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_text import MULT, NUMBER, parse_count, parse_scaled

_IN = r"prompts?|inputs?|in|questions?|quer(?:y|ies)"
_OUT = r"out|outputs?|answers?|repl(?:y|ies)|responses?|completions?"
_APPROX = r"(?:~\s*|≈\s*|about\s+|around\s+|maybe\s+|roughly\s+|approx\.?\s+)?"


def _fig(n: str, m: str) -> str:
    """A figure with its multiplier, in named groups `n` and `m`."""
    return rf"{_APPROX}(?P<{n}>{NUMBER})\s*(?P<{m}>{MULT})?"


_TOK = r"(?:[\s-]*tok(?:en)?s?)?(?:\s+of\s+[a-z-]+)?"  # "7,500 tokens of diff in"
_JOIN = r"\s*(?:/|,|;|\+|and|&)\s*"
_NOT_RATE = r"(?!\s*(?:/\s*s|per\s+s|tok(?:en)?s?\s*/))"
# a figure in another unit: "out ~250 words" is no token length (tests/extract/test_length_slots.py)
_NOT_UNIT = (
    r"(?!\s*(?:%|words?|chars?|characters?|lines?|pages?|sentences?|paragraphs?|ms|s|secs?|seconds?"
    r"|minutes?|gb|mb|kb|users?)\b)(?!\s*%)"
)
# the role word after each figure: "1k prompt / 200 out"
_AFTER = re.compile(
    rf"(?<![\w.$€£]){_fig('n1', 'm1')}{_TOK}\s+(?P<r1>{_IN}|{_OUT})\b{_JOIN}"
    rf"{_fig('n2', 'm2')}{_TOK}\s+(?P<r2>{_IN}|{_OUT})\b{_NOT_RATE}",
    I,
)
# the role word before each figure: "Prompt ~900, answer ~150"
_BEFORE = re.compile(
    rf"\b(?P<r1>{_IN}|{_OUT})\s*(?:[:=]|is|of)?\s*{_fig('n1', 'm1')}{_TOK}{_JOIN}"
    rf"(?P<r2>{_IN}|{_OUT})\s*(?:[:=]|is|of)?\s*{_fig('n2', 'm2')}(?!\.?\d){_NOT_UNIT}{_NOT_RATE}",
    I,
)
_IN_WORD = re.compile(rf"^(?:{_IN})$", I)
# a count of things, not a length: "4k prompts, 1k outputs a day" (a plural noun after a bare figure, or a
# period after the pair: tests/extract/test_reading_fields_general.py)
_PLURAL = re.compile(r"(?:s|ies)$", I)
_PERIOD_AFTER = re.compile(
    r"\s*(?:a|an|per|/|each|every)\s*(?:day|week|month|hour|night|year|minute|second)\b", I
)
_MAX_LENGTH_TOKENS = 1e6  # no request's prompt or output is this long: a volume, not a length


def _value(m: re.Match[str], n: str, mult: str) -> float:
    num, scale = m.group(n), m.group(mult)
    return parse_scaled(num, scale) if scale else parse_count(num)


def rule_length_pairs(ctx: Ctx) -> None:
    """prompt_tokens and output_tokens from a pair of figures tagged "in" and "out"."""
    missing = [f for f in ("prompt_tokens", "output_tokens") if not ctx.has(f)]
    if not missing:
        return
    for s in ctx.sentences:
        for rx in (_AFTER, _BEFORE):
            for m in rx.finditer(s.text):
                if _PERIOD_AFTER.match(s.text, m.end()):
                    continue
                if rx is _AFTER and "tok" not in m.group(0).lower() and any(
                    _PLURAL.search(m.group(r)) and m.group(r).lower() != "ins" for r in ("r1", "r2")
                ):
                    continue  # "4k prompts, 1k outputs": counted items
                first_in = bool(_IN_WORD.match(m.group("r1")))
                if first_in == bool(_IN_WORD.match(m.group("r2"))):
                    continue  # two of one side: no pair of in and out
                values = (_value(m, "n1", "m1"), _value(m, "n2", "m2"))
                if not all(0 < v < _MAX_LENGTH_TOKENS for v in values):
                    continue
                prompt, output = values if first_in else values[::-1]
                for name, value in (("prompt_tokens", prompt), ("output_tokens", output)):
                    if name in missing:
                        ctx.add(s, name, int(value), q(m), "stated", m.start())
                return
