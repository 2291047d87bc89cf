"""Prompt and answer lengths by the role word nearest each figure: the general reading behind the phrasings.

rules_serving_io reads a length glued to its noun ("prompts ~2k tokens") and rules_lengths a pair whose
roles the words right beside the figures give. Requests also put a few words between the role and the
figure, or name the role after it, in any order and any register:

- role, then filler, then the figure: "Prompts are big because of RAG, typically ~2,000 tokens",
  "Input per request: ~4k tokens", "the question plus the articles we paste in come to around 1,500
  tokens", "Each turn sends the system prompt plus retrieved articles ..., which lands near 6,000 tokens";
- the figure, then a verb of direction: "about 3,000 tokens go in and about 400 come out", "~300 back";
- labels before bare figures: "in ~3k toks / out ~250", "prompts ~1.2k toks, gens ~350" (a bare figure is
  a length only when the sentence says "tokens" elsewhere, or has a "k");
- one figure marked as the answer and one plain: "A review is maybe 300 tokens and the tag it writes back
  is tiny, ~20 tokens" (the plain one is what goes in);
- a table whose header names the roles: "| prompt (tokens) | answer (tokens) |" over "| 1,000 | 500 |".

Each figure takes the role of the nearest role word before it (within the same clause: no ";", "|" or
"/" between) unless a direction word right after it says otherwise. Figures that are rates ("tok/s",
"per user"), context windows ("4k context"), volumes ("50M tokens", "of training data"), money or times are
not lengths. The rule fills only a field the sentence's established patterns leave unread, and only in a
serving (or not yet known) workload: a fine-tuning part's "prompts of 2k tokens" is a training sample.
A value it reads is "stated": the user's own figure, its role read from the words beside it.
"""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, I
from advisor.extract.rules_serving_io import _IN_OUT, _OUTPUT, _PROMPT, _length
from advisor.extract.rules_text import APPROX, NUM, Sentence, parse_count, parse_number

MAX_SLOT_TOKENS = 200_000
"""Above this a figure is a volume or a context window, not one request's prompt or answer (the longest
served context windows of the catalog models are 128k-200k tokens)."""

_IN_WORDS = (
    r"isl|(?:prompt|input)_?(?:len(?:gth)?|tokens)|(?:user\s+|system\s+|input\s+)?prompts?|inputs?|questions?|queries|query|(?:chat\s+|conversation\s+)?history"
    r"|(?:go(?:es)?|going|goes|paste[ds]?|sen[dt]s?|feed|fed)\s+in"
)
_OUT_WORDS = (
    r"osl|(?:output|completion)_?(?:len(?:gth)?|tokens)|answers?|outputs?|responses?|repl(?:y|ies)|completions?|generations?|gens|summar(?:y|ies)|tags?|labels?"
    r"|verdicts?|captions?|come?s?\s+out|(?:writes?|comes?|sends?|gets?|returns?)\s+back"
)
# "in" and "out" alone are roles only as a label right before the figure: "in ~3k / out ~250", not "fit in"
_LABEL = re.compile(r"(?<!\bfit\s)(?<!\bfits\s)\b(?:(?P<in>in)|(?P<out>out))\s*[:=]?\s*$", I)
# a label that is a length in tokens: a bare figure after it needs no unit ("ISL 2048", "prompt_len=2048")
_LENGTH_LABEL = re.compile(
    r"\b(?:isl|osl|(?:prompt|input|output|completion)_?(?:len(?:gth)?|tokens))\s*[:=]?\s*$", I
)
# two roles and two figures in the same order: "input/output: 2k/300 tokens", "2000/300 tokens in/out"
_PAIR_IN = r"(?:prompts?|inputs?|in|isl|requests?|questions?|quer(?:y|ies))"
_PAIR_OUT = r"(?:outputs?|answers?|responses?|completions?|repl(?:y|ies)|out|osl|generations?)"
_FIG_PAIR = rf"~?\s*(?P<v1>{NUM})\s*(?P<k1>k)?\s*/\s*~?\s*(?P<v2>{NUM})\s*(?P<k2>k)?"
_PAIR_ROLES_FIRST = re.compile(
    rf"\b(?:(?P<io>{_PAIR_IN}\s*/\s*{_PAIR_OUT})|(?P<oi>{_PAIR_OUT}\s*/\s*{_PAIR_IN}))\b"
    rf"(?:\s+(?:tokens?|toks?|lengths?|sizes?))?\s*(?:[:=]|are|is|of|at)?\s*(?:about\s+|around\s+)?{_FIG_PAIR}",
    I,
)
_PAIR_FIGURES_FIRST = re.compile(
    rf"{_FIG_PAIR}\s*(?:tokens?|toks?)?\s+(?:(?P<io>{_PAIR_IN}\s*/\s*{_PAIR_OUT})|(?P<oi>{_PAIR_OUT}\s*/\s*"
    rf"{_PAIR_IN}))\b",
    I,
)
# a role word after "per" is the unit counted, not the figure's role ("Output tokens per prompt: 300" is an
# answer length); a plural right before "per" counts items, not tokens ("completions per prompt: 4", but
# "Input per request: ~4k tokens" is a length)
_ROLE = re.compile(
    rf"(?<!\bper\s)\b(?:(?P<out>{_OUT_WORDS})|(?P<in>{_IN_WORDS}))\b(?!\s+of\b)(?!(?<=s)\s+per\b)", I
)
# a length figure: "~2,000 tokens", "3k toks", "1-1.5k" (a range gives its upper end), "2.048 tokens"
_FIGURE = re.compile(
    rf"{APPROX}(?:(?P<lo>{NUM})\s*k?\s*(?:-|–|to)\s*)?(?P<num>{NUM})\s*(?P<k>k)?(?!\w|[.,]\d)"
    r"(?P<unit>[\s-]*tok(?:en)?s?\b)?",
    I,
)
# what follows a figure that is not a request's length
_NOT_LENGTH_AFTER = re.compile(
    r"\+?\s*(?:/\s*(?:s|sec|min|h|hr|day|user)\b|(?:per|an?|each|every)\s+(?:s|sec|second|minute|min|hour|hr|day"
    r"|week|month|year|user|person|stream|session|gpu)\b|(?:of\s+)?(?:context|ctx|window|seq|sequence)"
    r"|of\s+(?:data|text|training|corpus|pre-?training)\b|%|ms\b|s\b|secs?\b|seconds?\b|users?\b|ppl\b"
    r"|people\b|gb\b|gib\b|rpm\b|rps\b|qps\b|req|concurrent|sessions?\b|x\b|€|\$|usd\b|eur\b|gpus?\b"
    r"|[mb]\b|bn\b|million|billion|words?\b|chars?\b|characters?\b|lines?\b|pages?\b|sentences?\b"
    r"|paragraphs?\b|items?\b|bytes?\b|kb\b|mb\b"
    # a duration: "400M output tokens in 10 days" is a deadline, not a 10-token prompt
    r"|(?:hours?|hrs?|h|days?|weeks?|months?|years?|minutes?|mins?|nights?)\b)",
    I,
)
_NOT_LENGTH_BEFORE = re.compile(
    r"(?:[$€£]|\bstream(?:s|ing)?\s+at|\b(?:context|ctx|window|seq(?:uence)?\s+len(?:gth)?|max_?(?:model_)?len)\s*(?:length\s+)?"
    r"(?:of|is|=|:)?)\s*$",
    I,
)
# the role said right after the figure: "3,000 tokens go in", "400 come out", "~300 tokens back"
_ROLE_AFTER = re.compile(
    r"\s*(?:(?:go(?:es)?|going|are|is|get|gets|come|comes|coming|sent|fed|goes)\s+)?"
    # the direction closes its clause: "3,000 tokens go in and ...", not "20 in the same time"
    r"(?:(?P<in>in)\b(?=\s*(?:[,;./)&+|]|$|and\b|or\b))|(?P<out>out|back)\b(?!\s+of\b(?!\s+(?:it|them|each)\b)))"
    r"|\s*of\s+(?:(?P<in2>prompt|input|context|conversation|history|retrieved|instructions?)"
    r"|(?P<out2>output|answer|response|completion))\b",
    I,
)
# what may follow a figure without a unit: "in ~3k toks / out ~250", "prompts ~2k and replies ~500 tokens"
_BARE_END = re.compile(r"\s*(?:[,;.)/|]|$|and\b|or\b|(?:go|goes|come|comes|back|out|in)\b)", I)
# a role word right before the figure, as a label: "out ~250", "gens: ~350" (whatever follows the figure)
_ADJACENT = re.compile(rf"\b(?:{_OUT_WORDS}|{_IN_WORDS}|in|out)\s*[:=]?\s*$", I)
_CLAUSE_BREAK = re.compile(r"[;|/]|\.\s|\n")
_UNIT_SAID = re.compile(r"\btok(?:en)?s?\b", I)
_DIRECTION = re.compile(r"\b(?:in|out|back)\b", I)
_MAY_BE_LENGTH = re.compile(r"\dk\b|\d\s+k\b|\b(?:isl|osl)\b|_(?:len|length|tokens)\b", I)
_SERVING = ("inference", None)
_SERVING_FIELDS = ("concurrency", "latency_ms_per_token", "ttft_target_s")
# a table header of role cells, "prompt (tokens): answer (tokens)" (cells joined by ": " in a sentence)
_HEADER_CELL = re.compile(
    r"^\s*(?:avg\.?\s+|average\s+|mean\s+|typical\s+)?(?:(?P<in>prompt|input|question)s?|(?P<out>answer|output"
    r"|response|completion|reply)s?)(?:\s+(?:length|size|len))?\s*(?:\((?:tokens?|toks?)\))?\s*$",
    I,
)
_VALUE_CELL = re.compile(rf"^\s*(?P<num>{NUM})\s*(?P<k>k)?\s*(?:tok(?:en)?s?)?\s*$", I)


def _value(m: re.Match[str]) -> int | None:
    value = parse_number(m.group("num")) * 1000 if m.group("k") else parse_count(m.group("num"))
    return int(value) if 1 <= value <= MAX_SLOT_TOKENS else None


def _role_before(t: str, start: int, floor: int) -> str:
    """'in', 'out' or '' from the nearest role word before `start`, not reaching past `floor` (the end
    of the figure before) or a clause break."""
    window = t[max(floor, start - 70) : start]
    breaks = list(_CLAUSE_BREAK.finditer(window))
    if breaks:
        window = window[breaks[-1].end() :]
    if label := _LABEL.search(window):
        return "out" if label.group("out") else "in"
    roles = list(_ROLE.finditer(window))
    if not roles:
        return ""
    return "out" if roles[-1].group("out") else "in"


def _figures(t: str) -> list[tuple[re.Match[str], int, str]]:
    """The request-length figures of `t` with their value and role ('in', 'out' or '')."""
    unit_said = _UNIT_SAID.search(t) is not None
    found: list[tuple[re.Match[str], int, str]] = []
    if not unit_said and _MAY_BE_LENGTH.search(t) is None:
        return found  # no figure here can be a length: none in tokens, with a "k" or after a length label
    if _ROLE.search(t) is None and _DIRECTION.search(t) is None:
        return found  # no word gives any figure a role
    floor = 0
    for m in _FIGURE.finditer(t):
        if not m.group("num"):
            continue
        after = t[m.end() : m.end() + 40]
        if _NOT_LENGTH_AFTER.match(after) or _NOT_LENGTH_BEFORE.search(t[max(0, m.start() - 30) : m.start()]):
            floor = m.end()
            continue
        value = _value(m)
        if value is None:
            floor = m.end()
            continue
        role_after = _ROLE_AFTER.match(after)
        if role_after is not None:
            role = "in" if role_after.group("in") or role_after.group("in2") else "out"
        else:
            role = _role_before(t, m.start(), floor)
        # a figure with no unit is a length only beside a role word, in a sentence that says "tokens"
        labelled = _ADJACENT.search(t, max(0, m.start() - 30), m.start()) is not None  # "out ~250"
        in_tokens = unit_said or m.group("k") or _LENGTH_LABEL.search(t, max(0, m.start() - 30), m.start())
        if not m.group("unit") and not (role and in_tokens and (labelled or _BARE_END.match(after))):
            floor = m.end()
            continue
        found.append((m, value, role))
        floor = m.end()
    return found


def _said(t: str, m: re.Match[str]) -> str:
    """The figure with up to 30 characters before it, from a word's start: the role word it took."""
    start = max(0, m.start() - 30)
    if start > 0 and not t[start - 1].isspace():
        start = t.find(" ", start, m.start()) + 1 or m.start()
    after = _ROLE_AFTER.match(t, m.end())
    return " ".join(t[start : after.end() if after else m.end()].split())


def rule_length_slots(ctx: Ctx) -> None:
    """prompt_tokens and output_tokens from figures whose role the nearest role word gives; only for a
    field no rule has read yet, in a serving or unknown workload."""
    if ctx.workload not in _SERVING and not any(f.field in _SERVING_FIELDS for f in ctx.findings):
        return  # a training text; but a concurrency or a latency read says it serves after all
    read = {f.field for f in ctx.findings if f.field in ("prompt_tokens", "output_tokens")} | _read_later(ctx)
    if read == {"prompt_tokens", "output_tokens"}:
        return
    for i, s in enumerate(ctx.sentences):
        if _table(ctx, s, ctx.sentences[i + 1] if i + 1 < len(ctx.sentences) else None, read):
            continue
        if _pair(ctx, s, read):
            continue
        figures = _figures(s.text)
        roles = [r for _, _, r in figures]
        if len(figures) == 2 and sorted(roles) == ["", "out"]:
            figures = [(m, v, r or "in") for m, v, r in figures]  # the plain one is what goes in
        for m, value, role in figures:
            field = {"in": "prompt_tokens", "out": "output_tokens"}.get(role)
            if field is None or field in read:
                continue
            ctx.add(s, field, value, _said(s.text, m), "stated", m.start())
            read.add(field)


def _table(ctx: Ctx, s: Sentence, nxt: Sentence | None, read: set[str]) -> bool:
    """A header of role cells over a row of figures: prompt and answer lengths (recorded)."""
    if nxt is None or ":" not in s.text:
        return False
    cells = s.text.split(":")
    heads = [_HEADER_CELL.match(c) for c in cells]
    if not all(heads):
        return False
    values = [_VALUE_CELL.match(c) for c in nxt.text.split(":")]
    if len(values) != len(cells) or not all(values):
        return False
    for head, val in zip(heads, values, strict=True):
        assert head is not None and val is not None
        field = "prompt_tokens" if head.group("in") else "output_tokens"
        value = _value(val)
        if value is not None and field not in read:
            said = f"{head.group(0).strip()}: {val.group(0).strip()}"
            ctx.add(nxt, field, value, said, "stated", val.start())
            read.add(field)
    return True


def _read_later(ctx: Ctx) -> set[str]:
    """The length fields rules_serving_io's own patterns will read from this text (it runs after this
    rule, which yields to it)."""
    out: set[str] = set()
    for s in ctx.sentences:
        for field, rx in (("prompt_tokens", _PROMPT), ("output_tokens", _OUTPUT)):
            if field not in out and any(_length(m) is not None for m in rx.finditer(s.text)):
                out.add(field)
        if _IN_OUT.search(s.text):
            out |= {"prompt_tokens", "output_tokens"}
    return out


def _pair(ctx: Ctx, s: Sentence, read: set[str]) -> bool:
    """Two roles and two figures said as pairs ("input/output: 2k/300 tokens"); True when one was read."""
    m = _PAIR_ROLES_FIRST.search(s.text) or _PAIR_FIGURES_FIRST.search(s.text)
    if m is None:
        return False
    first, second = (m.group("v1"), m.group("k1")), (m.group("v2"), m.group("k2"))
    if m.group("oi"):
        first, second = second, first
    for field, (num, k) in (("prompt_tokens", first), ("output_tokens", second)):
        value = parse_number(num) * 1000 if k else parse_count(num)
        if field not in read and 1 <= value <= MAX_SLOT_TOKENS:
            ctx.add(s, field, int(value), " ".join(m.group(0).split()), "stated", m.start())
            read.add(field)
    return True
