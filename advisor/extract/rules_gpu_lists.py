"""GPU types wanted or excluded, said as verdicts or as labelled lists (read after rule_gpu_choice):

- a verdict right after the name: "h200s yes, b200s no (driver pain)", "A100 ok, L4 nope";
- a labelled list: "What we need: H100 or H200", "What we don't want: AMD, L40S, or anything PCIe",
  "Avoid: consumer cards". A vendor excludes its GPUs; "anything PCIe" / "PCIe cards" excludes every
  card whose catalog form factor is PCIe (tools/catalog/gpus.yaml `form_factor`).
"""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, I
from advisor.extract.rules_gpus import _consumer_ids, _gpu_id, _in_catalog, _vendor_ids, family_ids
from advisor.extract.rules_models import GPU_RE, _catalog
from advisor.extract.rules_text import Sentence
from advisor.extract.scan import words_back

_YES = r"(?:yes|yep|ok|okay|fine|good|preferred|welcome)"
_NO = (
    r"(?:no|nope|nah|out|not\s+ok(?:ay)?|not\s+allowed|banned|excluded"
    # the GPU first, then the refusal (evals v16, a Hungarian writer): "B200 also we do not need, too big"
    r"|(?:(?:also|too)\s+)?(?:we|i)\s+(?:really\s+)?(?:do\s+not|don'?t|won'?t|will\s+not)\s+(?:need|want|use)"
    r"(?:\s+(?:it|them|that|either))?)"
)
# the verdict follows the name and ends the clause: "h200s yes," / "b200s no (driver pain)"
_VERDICT = re.compile(
    rf"\s*(?::|=|-)?\s*(?:(?P<yes>{_YES})|(?P<no>{_NO}))\s*(?=[,.;(!]|$|\s+(?:and|but)\b)", I
)
# the key's noun, as a form or CSV header writes it: "allowed GPUs: H100 / H200", "excluded cards: L4"
_KEY_NOUN = r"(?:\s+(?:gpus?|cards?|accelerators?|hardware|gpu\s+types?))?"
_LABEL = re.compile(
    r"\b(?:what\s+)?(?:we|i)\s+(?P<neg>don'?t|do\s+not|won'?t|will\s+not|can'?t|cannot)?\s*"
    r"(?:need|want|require|accept|use|take)\s*:\s*(?P<list>[^.;]+?)"
    r"(?=\s*,?\s*\b(?:because|since|as|so|given)\b|[.;]|$)"
    r"|\b(?P<neg2>avoid|exclude[sd]?|excluding|not\s+allowed|banned|no-?go|blacklist(?:ed)?)"
    rf"{_KEY_NOUN}\s*:\s*(?P<list2>[^.;]+)"
    rf"|\b(?:whitelist(?:ed)?|allowed|approved|wanted|permitted|acceptable){_KEY_NOUN}\s*:\s*(?P<list3>[^.;]+)",
    I,
)
_VENDOR = re.compile(r"\b(?P<v>amd|intel|nvidia)\b", I)
_PCIE = re.compile(
    r"\b(?:anything|any(?:thing)?\s+in)\s+pcie\b|\bpcie\s+(?:cards?|gpus?|form[\s-]factor|variants?)\b", I
)
_CONSUMER = re.compile(r"\bconsumer\s+(?:cards?|gpus?)\b|\bgaming\s+cards?\b", I)


def _pcie_ids() -> list[str]:
    cat = _catalog()
    if cat is None:
        return []
    return [str(g.id) for g in cat.gpus if "pcie" in str(getattr(g, "form_factor", "")).lower()]


def _named_ids(text: str) -> list[tuple[int, list[str]]]:
    """(position, GPU ids) for each GPU, vendor and card class a list names."""
    out: list[tuple[int, list[str]]] = []
    for g in GPU_RE.finditer(text):
        ids = [i for i in family_ids(g.group("gpu")) if _in_catalog(i)]
        if ids:
            out.append((g.start(), ids))
    for v in _VENDOR.finditer(text):
        out.append((v.start(), _vendor_ids(v.group("v").lower(), keep=True)))
    for m in _PCIE.finditer(text):
        out.append((m.start(), _pcie_ids()))
    for m in _CONSUMER.finditer(text):
        out.append((m.start(), _consumer_ids()))
    return [(pos, ids) for pos, ids in out if ids]


def _labelled(ctx: Ctx, s: Sentence) -> None:
    for m in _LABEL.finditer(s.text):
        excluded = bool(m.group("neg") or m.group("neg2"))
        group = "list" if m.group("list") else "list2" if m.group("list2") else "list3"
        body = m.group(group)
        start = m.start(group)
        field = "gpus_excluded" if excluded else "gpus_wanted"
        said = s.text[m.start() : m.end()].strip()
        for pos, ids in _named_ids(body):
            ctx.add(s, field, ids, said, "stated", start + pos)


def _verdicts(ctx: Ctx, s: Sentence) -> None:
    for g in GPU_RE.finditer(s.text):
        v = _VERDICT.match(s.text, g.end())
        if v is None:
            continue
        ids = [i for i in family_ids(g.group("gpu")) if _in_catalog(i)]
        if ids:
            field = "gpus_wanted" if v.group("yes") else "gpus_excluded"
            ctx.add(s, field, ids, s.text[g.start() : v.end()].strip(), "stated", g.start())


# GPUs set side by side (expert review 7, R02: "(H100 vs H200 vs L40S)" was dropped): names joined by
# "vs", "versus", "or", "and", "," or "/" with at least one "vs" / "versus", or any joiner in a sentence
# that asks for a comparison ("compare H100, H200 and L40S", "which is better, H100 or H200?")
_JOIN = re.compile(
    # a set-up's provider said after it: "64x H100 on CoreWeave, or 32x B200" (expert review 13, R20)
    r"s?(?:\s+(?:on|at|from|via)\s+[A-Za-z][\w.-]*(?:\s+cloud)?)?"
    r"\s*(?:,\s*(?:or|and)?|/|vs\.?|versus|or|and|(?:(?:is\s+)?worth\s+it\s+)?over|instead\s+of|rather\s+than)\s*"
    # "1x L40S or 1x H100?", "8 H100 vs 4 H200", "a single H100 or two L40S", "Is an H200 worth it over H100?"
    # (expert reviews 9 and 11)
    r"(?:(?:\d{1,3}\s*[x×]?|a\s+single|one|two|three|four|eight)\s+|\d{1,3}\s*[x×]\s*)?",
    I,
)
_CHOICE_JOIN = re.compile(r"\b(?:or|over|instead\s+of|rather\s+than)\b", I)
_VS = re.compile(r"\b(?:vs\.?|versus)(?!\w)", I)
_ENDS_ASKING = re.compile(r"s?(?:\s*\w+){0,3}\s*\?", I)  # the choice ends the question
_ASKS_COMPARISON = re.compile(
    r"\b(?:compar\w*|side[\s-]by[\s-]side|which\s+(?:is|one|of)|better|trade-?offs?)\b", I
)


def _compared(ctx: Ctx, s: Sentence) -> None:
    """gpus_compared: a catalog id per GPU named in a comparison, in the order said."""
    names = list(GPU_RE.finditer(s.text))
    group: list[re.Match[str]] = []
    joins: list[str] = []
    # the sentence's own tests, asked once rather than once per GPU name (linear reading, issue 12)
    ends_asking = s.text.rstrip().endswith("?")
    asks_comparison: bool | None = None
    for g in [*names, None]:
        if g is not None and group and _JOIN.fullmatch(s.text[group[-1].end() : g.start()]):
            joins.append(s.text[group[-1].end() : g.start()])
            group.append(g)
            continue
        # "H100 or B200?", "H100s or B200s for this?" (expert review 8, R09)
        asked = bool(  # a choice asked: "H100 or B200?", "H200 or H100 for serving 70B to 100 users?"
            any(_CHOICE_JOIN.search(j) for j in joins)
            and (_ENDS_ASKING.match(s.text, group[-1].end() if group else 0) or ends_asking)
        )
        asked = asked or any(_VS.search(j) for j in joins)
        if not asked and len(group) >= 2:  # the whole sentence's cue matters only to a group of two
            if asks_comparison is None:
                asks_comparison = bool(_ASKS_COMPARISON.search(s.text))
            asked = asks_comparison
        # the choice set out, then asked in the next sentence: "... 64x H100 on CoreWeave, or 32x B200.
        # Which is cheaper?" (expert review 13, R20)
        asked = asked or (any(_CHOICE_JOIN.search(j) for j in joins) and _next_asks_which(ctx, s))
        if len(group) >= 2 and asked:
            ids = [i for m in group if _in_catalog(i := _gpu_id(m.group("gpu")))]
            if len(set(ids)) >= 2:
                counts = [
                    _count_before(s.text, m.start()) for m in group if _in_catalog(_gpu_id(m.group("gpu")))
                ]
                first = counts[0][1] if counts[0][0] is not None else group[0].start()
                said = s.text[first : group[-1].end()]
                ctx.add(s, "gpus_compared", list(dict.fromkeys(ids)), said, "stated", first)
                numbers = [n for n, _ in counts]
                # each set-up's own count ("1x H100 or 2x L40S"), when every GPU has one and none repeats
                if all(n is not None for n in numbers) and len(set(ids)) == len(ids):
                    ctx.add(s, "gpu_counts_compared", numbers, said, "stated", first)
                # a GPU named as one side of the choice is not a GPU asked for: "64x H100 on CoreWeave, or
                # 32x B200" read H100 as wanted and ruled the B200 out (expert review 13, R20)
                lo, hi = s.start + first, s.start + group[-1].end()
                ctx.findings[:] = [
                    f for f in ctx.findings if not (f.field == "gpus_wanted" and lo <= f.position < hi)
                ]
                return
        group, joins = ([g] if g is not None else []), []


_WHICH_FIRST = re.compile(
    r"\s*(?:so\s+|and\s+)?which\b(?:\s+(?:one|of\s+the\s+two|of\s+them))?"
    r"\s+(?:is|would|will|gets?|comes?)\b",
    I,
)


def _next_asks_which(ctx: Ctx, s: Sentence) -> bool:
    """The sentence right after `s` opens by asking which of them ("Which is cheaper ...?")."""
    later = [t for t in ctx.sentences if t.start > s.start]
    return bool(later) and bool(_WHICH_FIRST.match(later[0].text)) and later[0].text.rstrip().endswith("?")


# the count said right before a compared GPU: "1x H100", "2 x L40S", "2 L40S", "a single H100"
_COUNT_BEFORE = re.compile(r"(?:\b(?P<n>\d{1,3})\s*[x×]?|\b(?P<one>a\s+single|one|a))\s*$", I)
_COUNT_WORDS = {"two": 2, "three": 3, "four": 4, "eight": 8}
_COUNT_WORD_BEFORE = re.compile(r"\b(?P<w>two|three|four|eight)\s*$", I)


def _count_before(text: str, gpu_start: int) -> tuple[int | None, int]:
    """The GPU count said right before the GPU name at `gpu_start` and where it starts ((None, start)
    when none is said)."""
    # both patterns end at the name and span at most two words ("a single", "8 x"): searched from there
    # in the whole text (not a slice, so '\b' sees the character before), not over the whole head
    head = words_back(text, gpu_start, 2)
    m = _COUNT_BEFORE.search(text, head, gpu_start)
    if m is not None and m.group("n"):
        return int(m.group("n")), m.start()
    if m is not None:
        return 1, m.start()
    w = _COUNT_WORD_BEFORE.search(text, head, gpu_start)
    if w is not None:
        return _COUNT_WORDS[w.group("w").lower()], w.start()
    return None, gpu_start


_CLAIM_FIELDS = ("claimed_gpu", "claimed_gpu_count", "claimed_hours")


def _choice_not_claim(ctx: Ctx, s: Sentence) -> None:
    """A choice asked between two set-ups ("what's cheaper per month: 1x H100 or 2x L40S?", expert review
    11, R13) is a comparison, not a claim on the first one: the claim read from the sentence is withdrawn."""
    if ctx.has("gpus_compared"):
        return
    _compared(ctx, s)
    if not ctx.has("gpus_compared"):
        return
    end = s.start + len(s.text)
    ctx.findings[:] = [
        f for f in ctx.findings if not (f.field in _CLAIM_FIELDS and s.start <= f.position < end)
    ]


def rule_gpu_lists(ctx: Ctx) -> None:
    """gpus_wanted and gpus_excluded from verdicts and labelled lists, gpus_compared from GPUs set side
    by side (claims set none)."""
    for s in ctx.sentences:
        if s.start in ctx.claim_sentences:
            _choice_not_claim(ctx, s)
            continue
        _verdicts(ctx, s)
        _labelled(ctx, s)
        if not ctx.has("gpus_compared"):
            _compared(ctx, s)
