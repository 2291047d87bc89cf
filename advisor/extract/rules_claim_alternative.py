"""A reported claim on named hardware and the set-up the user asks about beside it (expert review 19, R06).

- The claim is the reporter's: "A vendor claims 2,000 tokens/s aggregate on 8x MI300X", "their 8x MI300X box
  can serve ... at 2,000 tokens/s", "according to the reseller, 4x L40S handle 300 users". The GPU named in it
  is the claim's (claimed_gpu, claimed_gpu_count, claim_source), never a GPU the team requires: P06 ("How fast
  would 8x H200 serve Llama 3.1 405B ...? A vendor claims 2,000 tokens/s aggregate on 8x MI300X.") read the
  MI300X as the only GPU type allowed and answered "Nothing in the catalog fits".
- The other set-up the user names in a question of its own ("Would we be better off renting 8x H200?", "How
  fast would 8x H200 serve it?", "Should we rent 8x H200 instead?", "What about 8x H200?") is the
  alternative the buyer weighs against the claimed box: both go to gpus_compared with their counts
  (gpu_counts_compared, the claim's first), so the two set-ups are sized and priced side by side
  (tools/recommend/compare_setups.py) while the claim is checked on its own hardware. R06 checked the
  claim and recommended 8x B200 without ever sizing the 8x H200 asked about.

Only a sentence with a named reporter before its verb (rules_claim_source's forms), a counted GPU and
something the hardware is said to do (a rate, "can serve / handle / run", "is enough", a time) is a claim
here; a reported rule ("our CTO says we must use 8x H100") or owned hardware is not. The alternative must
be a question (a question mark, or "better off", "instead", "what about") naming a counted catalog GPU of
another type.
"""

from __future__ import annotations

import re

from advisor.extract.rules_claim_source import _SOURCES, source_words
from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_gpu_lists import _count_before
from advisor.extract.rules_gpus import _gpu_id, _in_catalog
from advisor.extract.rules_models import GPU_RE
from advisor.extract.rules_text import Sentence

# what the hardware is said to do: a rate, a time, a verb of serving or sufficing
_DOES = re.compile(
    r"\b(?:tok(?:en)?s?\s*/\s*s(?:ec)?|tokens?\s+(?:per|a|/)\s+s(?:ec(?:ond)?)?|tps|t/s)\b"
    r"|\b(?:can|could|will|would|does|do)\s+(?:easily\s+)?(?:serve|handle|host|run|do|hit|reach|deliver|push"
    r"|sustain|manage)\b|\b(?:serves?|handles?|hits?|reach(?:es)?|delivers?|sustains?|push(?:es)?|manages?)\b"
    r"|\b(?:is|are)\s+(?:more\s+than\s+)?enough\b|\b(?:hours?|days?|weeks?)\b",
    I,
)
# a rule or an order reported, not a claim on what hardware does: "our CTO says we must use 8x H100"
_RULE = re.compile(
    r"\b(?:must|have\s+to|has\s+to|only|required?|policy|mandat\w*|approved|standardi[sz]ed)\b", I
)
_OWNED = re.compile(r"\b(?:we|i)\s+(?:own|have|bought|run|operate)\b|\bour\s+own\b|\bin[\s-]house\b", I)
# a question about another set-up: "Would we be better off renting 8x H200?", "What about 8x H200 instead?"
_ASKS = re.compile(
    r"\?|\bbetter\s+off\b|\binstead\b|\bwhat\s+about\b|\bhow\s+about\b|\bcompar\w*\b|\bwould\s+\w+\s+be\s+"
    r"(?:better|cheaper|faster)\b",
    I,
)
_CLAIM_FIELDS = ("claimed_gpu", "claimed_gpu_count", "claimed_gpu_bound", "claimed_hours")


def _counted_gpus(text: str) -> list[tuple[re.Match[str], str, int]]:
    """(match, catalog id, count) of each GPU named with a count in `text` ("8x MI300X", "two H200")."""
    out = []
    for g in GPU_RE.finditer(text):
        gid = _gpu_id(g.group("gpu"))
        n, _ = _count_before(text, g.start())
        if n is not None and _in_catalog(gid):
            out.append((g, gid, n))
    return out


def _reported(ctx: Ctx) -> tuple[Sentence, re.Match[str], str, int, re.Match[str]] | None:
    """The first reported claim on counted hardware: (sentence, GPU match, id, count, reporter match)."""
    for s in ctx.sentences_with(*_SOURCES):  # each step needs a reporter (a sentence without one is passed)
        t = s.text
        src = next((m for rx in _SOURCES if (m := rx.search(t)) is not None), None)
        if src is None or _RULE.search(t) or _OWNED.search(t) or not _DOES.search(t):
            continue
        gpus = _counted_gpus(t)
        if gpus:
            g, gid, n = gpus[0]
            return s, g, gid, n, src
    return None


def _alternative(
    ctx: Ctx, claim: Sentence, claim_gpu: str
) -> tuple[Sentence, re.Match[str], str, int] | None:
    """The set-up of another GPU type the user asks about in a sentence of its own (module docstring)."""
    for s in ctx.sentences_with(_ASKS):
        if s.start == claim.start or not _ASKS.search(s.text):
            continue
        for g, gid, n in _counted_gpus(s.text):
            if gid != claim_gpu:
                return s, g, gid, n
    return None


def _inside(s: Sentence, position: int) -> bool:
    return s.start <= position < s.start + len(s.text)


def rule_claim_alternative(ctx: Ctx) -> None:
    """claimed_gpu, claimed_gpu_count and claim_source of a reported claim the claim rules left as the
    team's wish, and gpus_compared / gpu_counts_compared with the set-up asked about beside it."""
    found = _reported(ctx)
    if found is None:
        return
    s, g, gid, n, src = found
    alt = _alternative(ctx, s, gid)
    claimed_here = any(f.field == "claimed_gpu" and _inside(s, f.position) for f in ctx.findings)
    if alt is None and claimed_here:
        return  # the claim rules read it; nothing else is asked beside it
    keep = []
    for f in ctx.findings:
        if f.field == "gpus_wanted" and _inside(s, f.position):
            continue  # the claim's GPU is not a requirement (P06)
        if alt is not None and _inside(alt[0], f.position) and f.field in (*_CLAIM_FIELDS, "gpus_wanted"):
            continue  # the set-up asked about is the compared alternative, not the claim
        keep.append(f)
    ctx.findings[:] = keep
    if not claimed_here:
        ctx.claim_sentences.add(s.start)  # its rate and time are the claim's, not the team's
        said = s.text[max(0, g.start() - 6) : g.end()].strip()
        ctx.add(s, "claimed_gpu", gid, q(g), "stated", g.start())
        ctx.add(s, "claimed_gpu_count", n, said, "stated", g.start())
    if not ctx.has("claim_source"):
        ctx.add(s, "claim_source", source_words(src), q(src), "stated", src.start())
    if alt is None:
        return
    a_s, a_g, a_id, a_n = alt
    said = a_s.text[_count_before(a_s.text, a_g.start())[1] : a_g.end()]  # "8x H200", as written
    ctx.add(a_s, "gpus_compared", [gid, a_id], said, "stated", a_g.start())
    ctx.add(a_s, "gpu_counts_compared", [n, a_n], said, "stated", a_g.start())
