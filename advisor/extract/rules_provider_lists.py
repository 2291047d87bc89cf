"""Providers excluded as a list after one cue, including by company name (read after rule_constraints):
"our assessment rules out Amazon, Microsoft and Google", "keep it off vast pls", "stay off RunPod and
Vast", "excluding AWS, Azure or GCP". The cue covers every name of the list that follows it; a company
stands for its cloud (Amazon -> aws, Microsoft -> azure, Google -> gcp, Oracle -> oci). The list ends at
the first item that is not just a name ("Stay off RunPod and Vast, Lambda is fine" keeps Lambda)."""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, I, negated
from advisor.extract.rules_models import PROVIDER_FAMILIES, PROVIDER_RE, find_providers
from advisor.extract.rules_text import Sentence

_COMPANY: dict[str, str] = {"amazon": "aws", "microsoft": "azure", "google": "gcp", "oracle": "oci"}
_CUE = re.compile(
    r"\b(?:rules?\s+out|ruled\s+out|ruling\s+out|excluding|exclude[sd]?|keep\s+(?:it|us|this|them|everything"
    r"|the\s+\w+)\s+off(?:\s+of)?|stay(?:ing)?\s+off(?:\s+of)?|steer\s+clear\s+of|avoid(?:ing)?"
    # everything but the names: "anything but Google", "any cloud except Azure", "whatever, other than AWS"
    # (not "nothing but AWS", which names the only one)
    r"|(?<!\bno)(?:any(?:thing|where|one|\s+(?:cloud|provider|vendor)s?)?|every(?:thing|where)|all)"
    r"\s*,?\s+(?:but|except(?:\s+for)?|other\s+than|apart\s+from|besides))\s+",
    I,
)
_SEP = re.compile(r"\s*(?:,\s*(?:and|or|nor)?|\band\b|\bor\b|\bnor\b|/)\s*", I)
_ITEM_END = re.compile(r"[.;:()!?]|\s+(?:pls|please|thanks|because|since|as|for|from|in|on)\b", I)


def _ids(item: str) -> list[str]:
    """Provider ids an item of the list names (a cloud name or its company), [] when it names none."""
    word = re.sub(r"^the\s+", "", item.strip(), flags=I)
    if word.lower() in _COMPANY:
        return [_COMPANY[word.lower()]]
    found = find_providers(word)
    if len(found) >= 1 and found[0][1] == 0 and found[0][2] == len(word):
        return [p for p, _, _ in found]  # the item is the name and nothing else ("Lambda is fine" is not)
    return []


# a list of names closed by "only" (expert reviews 7 and 9: "Lambda or CoreWeave only" kept CoreWeave alone):
# every name of the list is required
_LIST_GAP = re.compile(r"\s*(?:,\s*(?:or|and)?|\bor\b|\band\b|/|&)\s*", I)
_ONLY_AFTER = re.compile(r"\s*(?:\(\w+\)\s*)?only\b", I)


def _list_only(ctx: Ctx, s: Sentence) -> None:
    """providers_required (and preferred) for every name of a list that ends in 'only'."""
    t = s.text
    named = find_providers(t)
    run: list[tuple[str, int, int]] = []
    for pid, a, b in named:
        if run and _LIST_GAP.fullmatch(t[run[-1][2] : a]) is None:
            run = []
        run.append((pid, a, b))
        only = _ONLY_AFTER.match(t, b)
        if len(run) >= 2 and only is not None and not negated(t, run[0][1]):
            said = t[run[0][1] : only.end()]
            for p, at, _ in run:
                ctx.add(s, "providers_required", [p], said, "stated", at)
                ctx.add(s, "providers_preferred", [p], said, "stated", at)
            run = []


def rule_provider_lists(ctx: Ctx) -> None:
    """providers_excluded for each name in a list that follows one exclusion cue; providers_required for
    each name of a list that ends in 'only'."""
    for s in ctx.sentences_with(PROVIDER_RE, _CUE):  # a finding needs a provider named or a cue
        t = s.text
        _list_only(ctx, s)
        for cue in _CUE.finditer(t):
            if cue.group(0).lower().startswith(("any", "every", "all")) and negated(t, cue.start()):
                continue  # "we can't use anything but GCP": the only one, read as required elsewhere
            end = _ITEM_END.search(t, cue.end())
            body = t[cue.end() : end.start() if end else len(t)]
            named: list[tuple[list[str], int]] = []
            pos = cue.end()
            for item in _SEP.split(body):
                at = t.find(item, pos)
                ids = _ids(item)
                if not ids or at < 0:
                    break
                named.append(([i for p in ids for i in PROVIDER_FAMILIES.get(p, (p,))], at))
                pos = at + len(item)
            said = t[cue.start() : pos].strip()
            for ids, at in named:
                ctx.add(s, "providers_excluded", ids, said, "stated", at)
