"""A figure the writer sets aside in the same sentence is not a fact about this job (issue 12; evals v15:
"Yesterday's shift saw 1,900 tok/s on the old pipeline -- different model, ignore." was read as the rate
target, "Prior spend: FY25 EUR 12.400 on the old vendor (for comparison)" as the budget). The findings of
numbers in such a sentence are dropped, so the job's own figures (or the derived ones) stand:

- told to ignore it: "..., ignore", "ignore that number", "not relevant here", "irrelevant";
- given only to compare or for reference: "(for comparison)", "for reference only", "(just FYI)" (not a
  bare "Just FYI, the budget is ...", which states the budget);
- about another model and so not relevant: "different model, ignore", "other model, not relevant";
- said to be unrelated at the sentence's end: "FYI the marketing team's $2M launch budget is unrelated lol"
  (not "unrelated to the launch, our budget is $40k", where the word opens the sentence).

Not set aside: "ignore spot pricing" (no figure is dropped, the words state a preference read elsewhere),
a figure in another sentence than the cue, and "compared with last year we need 2x the throughput"
(a comparison that states this job's need has no aside cue).

- a parenthesis opened for reference (evals v15 bot log: "(For reference:\n the last team that asked ran 8B
  on 1 GPU for 20 users.)" was read as "at most 1 GPU", which ruled out every 70B set-up): from the opener to
  its closing ")" in the same sentence or at most ASIDE_PAREN_SENTENCES sentences on; the rest of the
  sentence after the ")" keeps its figures.
"""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, I

_ASIDE = re.compile(
    r"(?:[,;:(]|--|-|\u2013|\u2014)\s*(?:please\s+)?(?:ignore|disregard)\s*(?:it|that|this|those)?\s*[.!)]?\s*$"
    r"|\b(?:ignore|disregard)\s+(?:that|this|those|these|the)\s+(?:number|figure|rate|value|amount)s?\b"
    r"|\b(?:not\s+relevant\s+(?:here|for\s+this)|irrelevant\s+(?:here|for\s+this))\b"
    r"|\(\s*(?:for\s+comparison|for\s+reference(?:\s+only)?|just\s+fyi|fyi)\s*\)"
    r"|\b(?:for\s+comparison\s+only|for\s+reference\s+only)\b"
    r"|\b(?:different|another|other)\s+model\s*,\s*(?:so\s+)?(?:ignore|not\s+relevant|irrelevant)\b"
    # evals v18: "..., but this is not important now", "(EUR 14.2M) is reported separately", "The server cost
    # AED 1.9 million, for your information.", "(..., not relevant)", "it has no bearing on the answer"
    r"|\b(?:this|that|it)\s+is\s+not\s+important\b|\b(?:is|are)\s+(?:reported|handled|budgeted)\s+separately\b"
    r"|[,;(]\s*(?:for\s+(?:your\s+)?information(?:\s+only)?|not\s+relevant|irrelevant)\s*[.!)]*\s*$"
    r"|\bhas\s+no\s+bearing\b|\bgiven\s+for\s+information\s+only\b",
    I,
)
# "the marketing team's $2M launch budget is unrelated" (evals v14 geekbot standup): the clause's figures
# only (from its last ";" or ", but"), so "Budget is $9k; the $50k grant is not related" keeps the $9k
_UNRELATED = re.compile(
    r"(?:^|;|\bbut\b)(?P<clause>[^;]*?\b(?:is|are|'s)\s+(?:totally\s+|completely\s+|entirely\s+)?"
    r"(?:unrelated|not\s+related)\s*(?:lol|btw|fwiw|tbh|\(?fyi\)?)?\s*[.!)]*\s*)$",
    I,
)
# "(For reference: the last team ran 8B on 1 GPU.)": an aside parenthesis, up to its ")"
_ASIDE_PAREN_OPEN = re.compile(
    r"\(\s*(?:for\s+(?:reference|comparison)|(?:just\s+)?fyi)\s*[:,\u2013\u2014-]", I
)
ASIDE_PAREN_SENTENCES = 3
"""Sentences after the opener searched for the closing ")"; an aside is one or two sentences, so a ")" further
on closes something else (and no span is dropped without it)."""
_NUMBER = re.compile(r"\d")
# fields a number states; a figure set aside gives none of them
_FIGURE_FIELDS = frozenset({
    "target_tokens_per_s", "budget_usd", "deadline_hours", "concurrency", "latency_ms_per_token",
    "ttft_target_s", "dataset_tokens", "generation_tokens", "prompt_tokens", "output_tokens", "context_len",
    "max_gpus",
    "power_price_usd_per_kwh", "utilization", "epochs",
    "params_b",  # "(the 2025 run was 350M params and cost EUR 14k -- ignore)" (evals v15 .env, ext25)
})  # fmt: skip


def rule_aside_figures(ctx: Ctx) -> None:
    """Drop the figures of a sentence that sets them aside (module docstring)."""
    spans = [(s.start, s.start + len(s.text)) for s in ctx.sentences_with(_ASIDE) if _ASIDE.search(s.text)]
    for s in ctx.sentences_with(_UNRELATED):
        if m := _UNRELATED.search(s.text):
            spans.append((s.start + m.start("clause"), s.start + len(s.text)))
    spans.extend(_paren_spans(ctx))
    if not spans:
        return
    ctx.findings[:] = [
        f
        for f in ctx.findings
        if not (
            f.field in _FIGURE_FIELDS
            and _NUMBER.search(f.evidence)
            and any(a <= f.position < b for a, b in spans)
        )
    ]


def _paren_spans(ctx: Ctx) -> list[tuple[int, int]]:
    """(start, end) of each aside parenthesis, up to its ")" (module docstring)."""
    out: list[tuple[int, int]] = []
    sentences = ctx.sentences
    for i, s in enumerate(sentences):
        if "(" not in s.text or (m := _ASIDE_PAREN_OPEN.search(s.text)) is None:
            continue
        if (close := s.text.find(")", m.end())) >= 0:
            out.append((s.start + m.start(), s.start + close + 1))
            continue
        for later in sentences[i + 1 : i + 1 + ASIDE_PAREN_SENTENCES]:
            if (close := later.text.find(")")) >= 0:
                out.append((s.start + m.start(), later.start + close + 1))
                break
    return out
