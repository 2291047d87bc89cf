"""A figure repaired where it is said, or settled a sentence later (issue 12, group B: a later correction
must replace the earlier value; advisor/extract/rules_corrections.py reads the worded ones).

- An inline repair: "twenty-ish people hammering it at once, er no, more like 35", "8 GPUs, or rather
  16", "200k tokens, I mean 300k": the figure after the repair marker takes the field of the figure read
  just before the marker in the same sentence (its unit when bare). A figure with another field's unit
  word ("20 users, I mean 400 tokens each") repairs nothing.
- A figure settled: "80 is the 2026 number, product says 120 for launch." ... "ok, 120 it is" / "let's go
  with 120" / "120 then": the settled figure takes the field whose value an earlier sentence named next to
  it. Nothing is settled when no earlier sentence holds both.
"""

from __future__ import annotations

import re

from advisor.extract.rules_corrections import _FIGURE, _INTEGER, _UNITS, _end, _unit_after, _value
from advisor.extract.rules_ctx import QUOTED_PENALTY, Ctx, I, q
from advisor.extract.rules_text import Sentence

# a speaker's own repair: "er no, more like", "no wait", "or rather", "I mean", "make that", "sorry,"
_REPAIR = re.compile(
    r"(?:\b(?:er+m?|uh+|um+|hmm+)\s*,?\s*)?\bno\s*(?:,\s*(?:wait\s*,?\s*)?|\s(?:wait\s*,?\s*)?(?=more|make|it|act|sor))"
    r"(?:more\s+like|make\s+(?:it|that)|it'?s|actually|sorry)?(?=[\s,~]*(?:about\s+|like\s+|~\s*)?[$€£]?\d)"
    r"|\b(?:or\s+rather|i\s+mean|make\s+that|no\s+wait|correction\s*:)(?=[\s,~]*(?:about\s+|like\s+|~\s*)?[$€£]?\d)",
    I,
)
# "120 it is", "go with 120", "settle on 120", "120 then.", "120, final"
_SETTLED = re.compile(
    r"(?:\b(?:go(?:ing)?\s+with|settle[ds]?\s+on|agreed?\s+on|stick\s+with)\s+(?:~\s*)?(?P<a>[$€£]?\d[\d,.]*\s*[km]?)\b"
    r"|(?P<b>[$€£]?\d[\d,.]*\s*[km]?)\s+(?:it\s+is|then\s*[.!]?$|(?:is\s+)?final\b))",
    I,
)
_MAX_RATIO = 20.0  # a repair stays within a factor of 20 of the figure it repairs: "20, er no, 35"


def rule_repairs(ctx: Ctx) -> None:
    """Inline repairs and settled figures (see the module docstring)."""
    for s in ctx.sentences:
        if s.start in ctx.claim_sentences:
            continue
        _inline(ctx, s)
        _settled(ctx, s)


def _numeric(field: str, value: object) -> bool:
    return field in _UNITS and isinstance(value, int | float) and not isinstance(value, bool)


def _inline(ctx: Ctx, s: Sentence) -> None:
    t = s.text
    for m in _REPAIR.finditer(t):
        new_m = _FIGURE.search(t, m.end())
        base = s.start - (QUOTED_PENALTY if s.quoted else 0)
        before = [f for f in ctx.findings
                  if base <= f.position < base + m.start() and _numeric(f.field, f.value)]  # fmt: skip
        if new_m is None or not before:
            continue
        old = max(before, key=lambda f: f.position)
        word = _unit_after(t, new_m.end())
        if word and word not in _UNITS[old.field]:
            continue  # "20 users, I mean 400 tokens each", "no 4 bit": another quantity
        new = _value(new_m, new_m.group("mult"))
        if not _close(new, float(old.value)):
            continue
        _set(ctx, s, old.field, new, f'"{q(new_m)}" repairs "{old.value:g}" ("{q(m)}")')


def _settled(ctx: Ctx, s: Sentence) -> None:
    m = _SETTLED.search(s.text)
    if m is None:
        return
    fig = _FIGURE.search(m.group("a") or m.group("b") or "")
    if fig is None:
        return
    new = _value(fig, fig.group("mult"))
    earlier = [x for x in ctx.sentences if x.start < s.start]
    for x in reversed(earlier):
        said = [_value(f, f.group("mult")) for f in _FIGURE.finditer(x.text)]
        if not any(_same(v, new) for v in said):
            continue
        held = {f.field: float(f.value) for f in sorted(ctx.findings, key=lambda f: f.position)
                if f.position < x.start + len(x.text) and _numeric(f.field, f.value)}  # fmt: skip
        fields = [k for k, v in held.items() if not _same(v, new) and any(_same(v, w) for w in said)]
        if len(fields) == 1:
            _set(ctx, s, fields[0], new, f'"{q(m)}" settles on {new:g} (named beside {held[fields[0]]:g})')
        return


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-6 * max(1.0, abs(b))


def _close(new: float, old: float) -> bool:
    return new > 0 and old > 0 and not _same(new, old) and max(new, old) / min(new, old) <= _MAX_RATIO


def _set(ctx: Ctx, s: Sentence, field: str, new: float, evidence: str) -> None:
    if field in _INTEGER:
        if new != int(new):
            return
        ctx.add(s, field, int(new), evidence, "stated", _end(s))
    else:
        ctx.add(s, field, new, evidence, "stated", _end(s))
