"""GPUs asked about by count or named for renting, and a time said as the compute window (expert review 6).

- "How many H100s do we need ...?" is a question about the count of H100s: the H100 is the GPU wanted
  (gpus_wanted) and the answer is the count that meets the stated time; it is not a claim about one GPU
  (review 6, R05 / P05 read "within 30 days" as "1x H100 in 720 h: impossible"). `asks_count` lets the
  claim rules (advisor/extract/rules_claims.py) leave such a sentence alone, so its time is a deadline.
- "we'd rent H100s", "we will be renting A100s": the GPU the team means to rent is the GPU wanted (R06).
  "or should we rent H100s?" asks; it is weighed by the answer, not a requirement.
- "We have roughly one month of compute time", "we've got 3 weeks of cluster time": the calendar window
  the job must fit in, a deadline (R05). Hours of GPU time ("500 GPU-hours") are a compute budget, not a
  window, and stay unread here.
"""

from __future__ import annotations

import re

from advisor.extract import units_text as U
from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_gpus import _in_catalog, family_ids
from advisor.extract.rules_models import GPU_RE
from advisor.extract.rules_text import APPROX, NUMBER, parse_number

# "how many H100s do we need", "how many H100 GPUs would it take", "how many A100s are required"; a time
# asked about ("how many hours on 8x H100") is not a count
_HOW_MANY = keyed(r"\bhow\s+many\s+(?:more\s+)?(?:nvidia\s+)?", I)
_GENERIC = re.compile(r"(?:gpus?|cards?|nodes?|servers?|boxes|machines|accelerators)\b", I)
_COUNT_VERB = re.compile(
    r"(?:\s*(?:gpus?|cards?|nodes?|servers?))?[^.?!;]{0,40}?\b(?:need(?:ed|s)?|requir\w*|necessary"
    r"|(?:does|would|will)\s+it\s+take|it\s+(?:would\s+)?takes?|(?:should|must|do|would)\s+we\s+(?:rent|buy|get"
    r"|use|book|reserve))\b",
    I,
)
# the question ends at the GPU: "How many H100s?", "how many H100 GPUs?" (expert review 12, R04), or
# the message does, unpunctuated, as chat is written: "... done in 60 days. How many H100s" (review 16, R16)
_COUNT_END = re.compile(r"(?:\s*(?:gpus?|cards?))?\s*(?:\?|[.!]?\s*$)", I)
# "how many GPUs at minimum / at least": the smallest set-up (rules_memory_question), not the deadline's count
_AT_LEAST = re.compile(r"[^.?!]{0,40}?\bat\s+(?:the\s+)?(?:minimum|least|min)\b", I)
# the team's plan to rent a GPU: "we'd rent H100s", "we would be renting 16 A100s", "we plan to rent H200s"
_RENT = keyed(
    r"\b(?:we'?d|we\s+would|we'?ll|we\s+will|we\s+plan\s+to|we'?re\s+going\s+to|we\s+intend\s+to"
    r"|we\s+want\s+to|we'?d\s+like\s+to|we\s+are\s+going\s+to)\s+(?:be\s+)?(?:probably\s+|likely\s+|just\s+)?"
    r"rent(?:ing)?\s+(?:some\s+|a\s+few\s+|\d+\s*(?:x|×)?\s*)?$",
    I,
)
# the calendar window the team has for the job: "we have roughly one month of compute time"
_WINDOW = keyed(
    rf"\b(?:we\s+have|we'?ve\s+got|we\s+get|there\s+is|there'?s)\s+(?:only\s+|just\s+)?{APPROX}"
    rf"(?P<num>{NUMBER}|a|an)\s+(?P<unit>days?|weeks?|months?)\s+of\s+(?:compute|cluster|gpu|machine"
    rf"|training)(?:\s+time)?\b(?!\s*[-\s]hours?)",
    I,
)


def asks_count(text: str) -> bool:
    """Whether `text` asks how many GPUs (of a named kind or any) a job needs."""
    for m in _HOW_MANY.finditer(text):
        noun = GPU_RE.match(text, m.end()) or _GENERIC.match(text, m.end())
        if noun is not None and (_COUNT_VERB.match(text, noun.end()) or _COUNT_END.match(text, noun.end())):
            return True
    return False


def _counted_gpu(text: str) -> tuple[re.Match[str], str] | None:
    """The GPU named right after "how many" in a count question ("How many H100s do we need"), with the
    words from "how many" to the GPU: the evidence tools/recommend/count_answer.py reads as a count asked."""
    for m in _HOW_MANY.finditer(text):
        g = GPU_RE.match(text, m.end())
        if g is not None and (_COUNT_VERB.match(text, g.end()) or _COUNT_END.match(text, g.end())):
            return g, text[m.start() : g.end()].strip()
    return None


def _generic_count(text: str) -> re.Match[str] | None:
    """ "how many GPUs do we need", "How many GPUs?": a count asked with no GPU named (expert review 16, R16:
    the pick's GPU is counted); "how many GPUs at minimum" is the smallest set-up, memory_asked's
    (advisor/extract/rules_memory_question.py)."""
    for m in _HOW_MANY.finditer(text):
        noun = _GENERIC.match(text, m.end())
        if noun is None or not noun.group(0).lower().startswith("gpu"):
            continue
        if _COUNT_VERB.match(text, noun.end()) or _COUNT_END.match(text, noun.end()):
            return m if _AT_LEAST.match(text, m.end()) is None else None
    return None


def _wanted(ctx: Ctx, s_index: int, g: re.Match[str], said: str) -> None:
    s = ctx.sentences[s_index]
    owned = next((f.value for f in ctx.findings if f.field == "owned_gpu"), None)
    ids = [i for i in family_ids(g.group("gpu")) if _in_catalog(i)]
    if ids and (owned is None or owned not in ids):
        ctx.add(s, "gpus_wanted", ids, said, "stated", g.start())


def rule_count_question(ctx: Ctx) -> None:
    """gpus_wanted from "how many H100s do we need" and "we'd rent H100s"; deadline_hours from "we have
    one month of compute time" (module docstring)."""
    wanted = {str(f.evidence) for f in ctx.findings if f.field == "gpus_wanted"}
    for i, s in enumerate(ctx.sentences):
        t = s.text
        if (counted := _counted_gpu(t)) is not None and q(counted[0]) not in wanted:
            _wanted(ctx, i, counted[0], counted[1])
        for g in GPU_RE.finditer(t):
            if _RENT.search(t, max(0, g.start() - 60), g.start()) is not None and q(g) not in wanted:
                _wanted(ctx, i, g, q(g))
        if (generic := _generic_count(t)) is not None and not ctx.has("count_asked"):
            said = t[generic.start() : generic.start() + 40].split("?")[0].strip()
            ctx.add(s, "count_asked", True, said, "stated", generic.start())
        if s.start in ctx.claim_sentences:
            continue
        for m in _WINDOW.finditer(t):
            num = m.group("num")
            amount = 1.0 if num.lower() in ("a", "an") else parse_number(num)
            unit = m.group("unit").lower().rstrip("s")
            conv = U.hours_from(amount, unit)
            how = f'"{q(m)}": {conv.how} (the calendar window for the job, read as its deadline)'
            ctx.add(s, "deadline_hours", conv.value, how, "inferred", m.start())
