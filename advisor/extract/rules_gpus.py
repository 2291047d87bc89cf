"""GPU rules: hardware the team owns, GPU types wanted or ruled out, and a limit on the GPU count.

- owned_gpu / owned_gpu_count: "we already own 8 A100 80GB", "we have 2 H100", "our own 4090", "our
  cluster of 16 A100s" (a fleet of unknown size gives the type only), ownership after the card ("on the
  single 4090 I already have at home", "the two A100s we bought"; "the A100s we had" is not). Hardware the
  team rents is not owned ("we have 8 H100s reserved at CoreWeave"). Ownership is kept apart from a claim:
  only a question about the job on that hardware ("can we QLoRA 70B on our two H100s?") also becomes
  claimed_gpu(_count), which the recommender checks. Other hardware questions ("can a 4090 handle ...",
  "on one L40S") stay claims as before.
- gpus_wanted: "serve it on H100s", "H100 only", "we need A100 80GB", "our reservation covers L40S and
  nothing else", "nothing but H100s", "limited to A100 80GB" (every catalog variant of a family
  written without form factor: "H100" -> SXM, PCIe and NVL). Not in claims, comparisons ("our box vs
  renting H100s") or the owned hardware itself.
- gpus_excluded: "no A100s", "avoid T4", "no consumer cards", "no AMD", "anything other than A100".
- max_gpus: "one GPU if possible", "on a single GPU", "at most 4 GPUs", "no more than 8 GPUs", "a
  quota of 4 GPUs" (not "8 GPUs per node").
"""

from __future__ import annotations

import functools
import re

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_allocation import find_share
from advisor.extract.rules_ctx import CORRECTION, PROTOTYPE, Ctx, Gated, I, negated, q
from advisor.extract.rules_fleet import LEASED_FOR_YEARS, Fleet, find_fleet
from advisor.extract.rules_gpu_caps import MAX_GPU_GROUPS
from advisor.extract.rules_gpu_caps import MAX_GPUS as _MAX_GPUS
from advisor.extract.rules_models import GPU_RE, _catalog, resolve_gpu
from advisor.extract.rules_text import NUMBER, Sentence, parse_number

_BARE_CONSUMER = keyed(r"(?P<gpu>3090|4090|5090)s?\b")
_OWNER = Gated(
    re.compile(
        r"\b(?:(?:we|i)\s+(?:already\s+|currently\s+|still\s+|also\s+)?(?:have|hold)\s+an?\s+"
        r"(?:\d+|one|two|three|six)[\s-](?:year|month|week)\s+(?:reservation|commitment"
        # capacity held for a term: "we have a 1-year (a 2-week) reservation for 16 H100s"
        r"|lease)\s+(?:for|of|on)"
        r"|(?:our|my)\s+(?:(?:\d+|one|two|three)[\s-](?:year|month)\s+)?(?:reservation|lease|commitment)\s+"
        r"(?:for|of|on)(?:\s+the)?"  # "our lease on the 16 A100s runs out in 10 weeks"
        r"|(?:we|i)(?:'ve|\s+have)?\s+(?:already\s+|currently\s+|also\s+|do\s+|still\s+|actually\s+|really\s+|only\s+)?"
        rf"(?:have|own|got|bought|purchased|operate|run|{LEASED_FOR_YEARS})(?:\s+got)?"
        r"|(?:my|our)(?:\s+(?:own|existing|current|in-house|on-prem|local))?"
        # the machine just named: "my workstation? It has 4x RTX 4090", "our box has two A100s"
        r"|(?:it|(?:the|that|this|my|our)\s+(?:workstation|box|server|machine|rig|desktop|node))\s+(?:has|holds"
        r"|contains|comes\s+with)|(?:so\s+|now\s+)?it(?:'s|\s+is)(?=\s+(?:\d+|one|two|three|four|six|eight)\s*(?:x|×)?\s*"
        # "we have only 1 RTX 4090" (expert review 11, R06)
        r"(?:nvidia\s+|geforce\s+)?(?:rtx\s*)?[a-z]?\d))\s+(?:(?:only|just)\s+)?"
        rf"(?:(?P<num>{NUMBER})\s*(?:x\s*|×\s*)?)?(?:own\s+|(?:nvidia|geforce)\s+)?",
        I,
    ),
    "we ", "i ", "our", "my ", "we'", "i'", "it has", "has", "holds", "contains", "comes with",
)  # fmt: skip
_FLEET_OF = Gated(
    re.compile(
        rf"\bour\s+(?:own\s+|on-prem\s+|in-house\s+)?(?:cluster|fleet|rack|servers?|nodes?|farm|box(?:es)?)\s+"
        rf"(?:of|with)\s+(?P<num>{NUMBER})\s*(?:x\s*|×\s*)?",
        I,
    ),
    "our",
)
_FLEET_AFTER = keyed(r"\s*(?:cluster|nodes?|servers?|fleet|farm|pods?|box(?:es)?)\b", I)
_RENTED_AFTER = keyed(
    # not across an alternative: "We have only one RTX 4090 in office, is it possible or we must rent?"
    # (expert review 18, R07) owns the card and asks whether renting is needed
    r"^(?:(?!\bor\b)[^.;?]){0,40}?\b(?:reserved|rent\w*|leas\w*|quota|credits|access|booked|on[\s-]demand|spot|on\s+order|ordered"
    r"|pre-?ordered|back-?ordered|arriving|being\s+delivered)\b",
    I,
)
# capacity reserved (or booked) for a period is in hand: paid for whether used or not, so it is costed as
# the team's own ("16x H100 reserved until end of Q3"); renting on demand, quota or credits are not
_HELD_UNTIL = keyed(
    r"^[^.;]{0,40}?\b(?:reserved|booked|committed)\b[^.;]{0,25}?\b(?:until|till|through|thru|for the next"
    r"|to the end of|for another"
    r"|for (?:a|one|two|three|six|\d+)\s+(?:more\s+)?(?:years?|months?|quarters?|weeks?|days?))\b",
    I,
)
# ownership said after the card, in a relative clause: "the single 4090 I already have at home", "the two
# A100s we own", "4 L40S that we bought last year" (not "the H100s we have reserved", "the A100s we had")
_OWNED_AFTER = keyed(
    r"(?:\s+(?:cards?|gpus?|boxes))?\s+(?:that\s+|which\s+)?(?:we|i"
    # the organisation as the owner (evals v18): "16x A100 80GB SXM that the university owns outright"
    r"|(?:the|our)\s+(?:university|company|lab|institute|department|team|group|school|hospital|firm"
    r"|organi[sz]ation|faculty|college))(?:'ve|\s+have)?\s+"
    r"(?:already\s+|currently\s+|still\s+|also\s+|actually\s+|just\s+)?(?:have|has|own|owns|got|bought"
    r"|purchased)\b"
    r"(?!\s+(?:to\b|reserved|rented|leased|booked|access|on\s+order|in\s+the\s+cloud))",
    I,
)
_COUNT_BEFORE = keyed(
    rf"(?:\b(?:the|my|our|this|that)\s+)?(?:(?P<num>{NUMBER})\s*(?:x\s*|×\s*)?)?(?:nvidia\s+|geforce\s+)?$",
    I,
)
_QUESTION = re.compile(
    r"\?|^\s*(?:can|could|would|will|is|are|does|do|should|how (?:long|fast|much))\b"
    r"|\b(?:enough|fit|handle)\b",
    I,
)
# Non-ownership hardware questions kept as claims: "can a 4090 ...", "on one L40S", "on a single A100";
# a purchase weighed: "keep renting H100s or buy 8x H100?" (the option the user asked about, costed)
_CLAIM_HW = keyed(
    rf"\b(?:(?:can|could|will|would)\s+(?:a|an|one|a\s+single)|on\s+(?:a\s+single|one|a)"
    rf"|(?:buy|buying|purchase|purchasing)(?:\s+(?:a|an|our\s+own|our|us))?)\s+"
    rf"(?:(?P<num>{NUMBER})\s*(?:x\s*|×\s*)?)?",
    I,
)


def _gpu_at(t: str, pos: int) -> re.Match[str] | None:
    return GPU_RE.match(t, pos) or _BARE_CONSUMER.match(t, pos)


def _gpu_id(name: str) -> str:
    return resolve_gpu(f"rtx {name}" if name.isdigit() else name)


def _asks_about(t: str, pos: int) -> bool:
    """Whether the statement around `pos` (from the previous '.', '!' or '?' to the next) is a question
    ("we own 8 A100s. how long ...?" states; "could our two H100s do it?" asks)."""
    start = max(t.rfind(".", 0, pos), t.rfind("!", 0, pos), t.rfind("?", 0, pos)) + 1
    ends = [i for i in (t.find(c, pos) for c in ".!?") if i >= 0]
    end = min(ends) + 1 if ends else len(t)
    return _QUESTION.search(t[start:end]) is not None


_SUPPOSED_BUY = re.compile(
    r"\b(?:what\s+if|suppose|supposing|imagine|if)\s+(?:we|i)\s+(?:just\s+|instead\s+)?(?:buy|bought|purchas\w*"
    r"|order\w*)\b",
    re.I,
)


def rule_owned_gpus(ctx: Ctx) -> None:
    """owned_gpu(_count) from ownership phrases; claimed_gpu(_count) from hardware questions."""
    _claims_and_owned(ctx)
    if not ctx.has("owned_gpu"):
        _share_of_estate(ctx)
    # then rules_owned_forms.rule_owned_forms (the next rule in RULES): labels, marks, machines, listings


def _share_of_estate(ctx: Ctx) -> None:
    """Cards the team may use out of a shared or bigger estate, read over the whole text
    (advisor/extract/rules_allocation.py)."""
    spans: list[tuple[int, Sentence]] = []
    parts: list[str] = []
    at = 0
    for s in ctx.sentences:
        spans.append((at, s))
        parts.append(s.text)
        at += len(s.text) + 1
    share = find_share("\n".join(parts))
    if share is None:
        return
    offset, s = max(((o, x) for o, x in spans if o <= share.position), key=lambda p: p[0])
    gid = _gpu_id(share.gpu)
    ctx.add(s, "owned_gpu", gid, share.evidence, "stated", share.position - offset)
    ctx.add(s, "owned_gpu_count", share.count, share.evidence, "inferred", share.position - offset)


def _claims_and_owned(ctx: Ctx) -> None:
    owned_done = False
    claimed_done = bool(ctx.claim_sentences)  # a claim read by rule_claims is the claim
    for s in ctx.sentences:
        t = s.text
        if PROTOTYPE.search(t):
            continue  # "I prototyped this on my own 3090 at home": not the hardware for this job
        # "what if we bought (our own) 16 H100s?": a purchase supposed, not cards had (rules_purchase_price)
        if not owned_done and _SUPPOSED_BUY.search(t) is None:
            owners = list(_OWNER.finditer(t))
            if CORRECTION.search(t):  # "It has 4x RTX 4090... correction, so it's 2x RTX 4090 now"
                owners.reverse()
            for own in owners:
                num = own.group("num")
                gpu = _gpu_at(t, own.end()) or _BARE_CONSUMER.match(t, own.end())  # "my 2x3090 box"
                if not gpu and num:  # "we have 4090s": the number was the card
                    gpu, num = _BARE_CONSUMER.match(t, own.start("num")), None
                if not gpu:
                    continue
                after = t[gpu.end() : gpu.end() + 60]
                if _RENTED_AFTER.match(after) and not _HELD_UNTIL.match(after):
                    continue
                gid = _gpu_id(gpu.group("gpu"))
                # "our H100 cluster": size unknown; "my 2x3090 box": the box holds the count said
                fleet = _FLEET_AFTER.match(t, gpu.end()) is not None and not num
                ctx.add(s, "owned_gpu", gid, t[own.start() : gpu.end()].strip(), "stated", gpu.start())
                if not fleet:
                    count = int(parse_number(num)) if num else 1
                    ev = t[own.start() : gpu.end()].strip()
                    ctx.add(s, "owned_gpu_count", count, ev, "stated" if num else "inferred", gpu.start())
                    if _asks_about(t, gpu.start()) and not claimed_done:
                        ctx.add(s, "claimed_gpu", gid, q(gpu), "stated", gpu.start())
                        ctx.add(s, "claimed_gpu_count", count, ev, "stated" if num else "inferred",
                                gpu.start())  # fmt: skip
                        claimed_done = True
                owned_done = True
                break
            if not owned_done:
                for fl in _FLEET_OF.finditer(t):
                    gpu = _gpu_at(t, fl.end())
                    if gpu:
                        ev = t[fl.start() : gpu.end()].strip()
                        ctx.add(s, "owned_gpu", _gpu_id(gpu.group("gpu")), ev, "stated", gpu.start())
                        ctx.add(s, "owned_gpu_count", int(parse_number(fl.group("num"))), ev, "stated",
                                gpu.start())  # fmt: skip
                        owned_done = True
                        break
            if not owned_done:
                owned_done = _owned_after(ctx, s, claimed_done)
                claimed_done = claimed_done or (owned_done and ctx.has("claimed_gpu"))
            if not owned_done and (fleet_said := find_fleet(t)) is not None:
                owned_done = _own_fleet(ctx, s, fleet_said, claimed_done)
                claimed_done = claimed_done or (owned_done and _asks_about(t, fleet_said.start))
        if claimed_done or s.start in ctx.claim_sentences:
            continue
        for hw in _CLAIM_HW.finditer(t):
            num = hw.group("num")
            gpu = _gpu_at(t, hw.end())
            if not gpu and num:  # "can a 4090 ...": the count was the card itself
                gpu, num = _BARE_CONSUMER.match(t, hw.start("num")), None
            if not gpu or _FLEET_AFTER.match(t, gpu.end()):
                continue
            ctx.add(s, "claimed_gpu", _gpu_id(gpu.group("gpu")), q(gpu), "stated", gpu.start())
            count = int(parse_number(num)) if num else 1
            ctx.add(s, "claimed_gpu_count", count, t[hw.start() : gpu.end()].strip(),
                    "stated" if num else "inferred", gpu.start())  # fmt: skip
            claimed_done = True
            break


def _owned_after(ctx: Ctx, s: Sentence, claimed_done: bool) -> bool:
    """Owned hardware named before the words that own it ("on the single 4090 I already have at home");
    a plural with no count gives the type only ("the A100s we own")."""
    t = s.text
    found = [*GPU_RE.finditer(t), *_BARE_CONSUMER.finditer(t)]
    for g in sorted(found, key=lambda m: m.start()):
        own = _OWNED_AFTER.match(t, g.end())
        if own is None or _RENTED_AFTER.match(t[own.end() : own.end() + 60]):
            continue
        before = _COUNT_BEFORE.search(t[max(0, g.start() - 30) : g.start()])
        num = before.group("num") if before else None
        name = g.group("gpu").lower()  # GPU_RE reads "A100s" as the name: its last letter says plural
        plural = t[g.end("gpu") : g.end()].lower() == "s" or name.endswith("s") and not name.endswith("l40s")
        gid = _gpu_id(g.group("gpu"))
        start = g.start() - (len(before.group(0)) if before else 0)
        ev = t[start : own.end()].strip()
        ctx.add(s, "owned_gpu", gid, ev, "stated", g.start())
        if num or not plural:
            count = int(parse_number(num)) if num else 1
            ctx.add(s, "owned_gpu_count", count, ev, "stated" if num else "inferred", g.start())
            if _asks_about(t, g.start()) and not claimed_done:
                ctx.add(s, "claimed_gpu", gid, q(g), "stated", g.start())
                ctx.add(s, "claimed_gpu_count", count, ev, "stated" if num else "inferred", g.start())
        return True
    return False


def _own_fleet(ctx: Ctx, s: Sentence, fleet: Fleet, claimed_done: bool) -> bool:
    """Record owned hardware read as machines ("two DGX A100s" = 16); False when it is rented."""
    t = s.text
    after = t[fleet.end : fleet.end + 60]
    if _RENTED_AFTER.match(after) and not _HELD_UNTIL.match(after):
        return False
    gid, count, ev = _gpu_id(fleet.gpu), fleet.count, fleet.evidence
    if (spelled := _SPELLED_OUT.match(t, fleet.end)) is not None and (g := GPU_RE.match(t, spelled.end())):
        # the machine spelled out in brackets: "a DGX A100 (8x A100 40GB)" is the 40 GB card (review 6, R16)
        gid, ev = _gpu_id(g.group("gpu")), f"{fleet.evidence} {t[spelled.start() : g.end()].strip()})"
        count = int(parse_number(spelled.group("num"))) if spelled.group("num") else count
    ctx.add(s, "owned_gpu", gid, ev, "stated", fleet.start)
    ctx.add(s, "owned_gpu_count", count, ev, "inferred", fleet.start)
    if _asks_about(t, fleet.start) and not claimed_done:
        ctx.add(s, "claimed_gpu", gid, ev, "stated", fleet.start)
        ctx.add(s, "claimed_gpu_count", count, ev, "inferred", fleet.start)
    return True


_SPELLED_OUT = re.compile(rf"\s*\(\s*(?:(?P<num>{NUMBER})\s*(?:x|×)?\s*)?(?:nvidia\s+)?", re.I)


# =========================================================================== GPUs wanted / excluded
_WANT_CUE = keyed(
    # "we have only 1 RTX 4090" is what the team owns, not a wish (expert review 11, R06)
    r"(?:\bon|\busing|\buse|\bwith|(?<!have )(?<!got )(?<!own )\bonly|\bneeds?|\bwants?"
    r"|(?:'d|\bwould)\s+like|\bprefer(?:ably)?|\brequires?"
    r"|\brequired|\bstick\s+to"
    r"|\bstandardi[sz]ed\s+on|\bmust\s+be|\bhas\s+to\s+be|\bdeploy\s+to|\brun\s+it\s+on"
    r"|\bnothing\s+(?:but|other\s+than|except)|\b(?:limited|restricted|confined)\s+to|\bcovers\s+only"
    r"|\bonly\s+(?:covers|includes|gives\s+us|has|get|have\s+access\s+to)"
    # capacity the team can rent: "we can get up to 64 H100s", "CoreWeave can give us 32 H200s"
    r"|\b(?:we|i)\s+(?:can|could)\s+get|\b(?:can|could)\s+(?:give|offer|lend)\s+us|\bhave\s+access\s+to"
    # what the money was approved for: "budget got approved for H100s on Lambda", "signed off on 8 H200s"
    r"|\b(?:approved|signed\s+off|cleared|green[\s-]?lit)\s+(?:for|on)"
    # a wish or a lean (rd15): "ideally B200s", "we lean towards H200s", "keen on", "we'd go with", "our
    # preference is", a key and its value ("GPU: H100", "Target hardware: MI300X")
    r"|\bideally|\blean(?:ing)?\s+(?:towards?|to)|\bkeen\s+on|\binterested\s+in|\bgo(?:ing)?\s+with"
    r"|\bpreference\s+(?:is|would\s+be)(?:\s+for)?|\bfavou?r(?:ing)?|\bthinking\s+(?:of|about)"
    r"|(?:^|[(,;]\s*)(?:(?:target|preferred|desired)\s+)?(?:gpus?|hardware|accelerators?|gpu\s+type)\s*[:=])"
    r"(?:\s+(?:the|some|rented|cloud|nvidia|up\s+to|\d+\s*[x×]?|[x×]\s*\d+|a\s+few|multiple|several|an?|or|and"
    # a list's earlier GPU (rd15): "we can only use L4s or L40S", "on H100, H200 or B200"
    r"|,|(?:[ahlb]\d{1,3}|l40|mi\d{3}|rtx\s?\d{4})\w*?s?,?))*\s*$",
    I,
)
# "L40S only", "L40S and nothing else", "L40S, nothing more", "L40S is all we can get"
_ONLY_AFTER = keyed(
    r"(?:-only\b|\s+only\b|\s+exclusively\b|,?\s+(?:and|but)\s+nothing\s+(?:else|more)\b|,\s+nothing\s+(?:else|more)\b"
    r"|(?:\s+cards?|\s+gpus?)?\s+(?:is|are)\s+(?:all|the\s+only\s+(?:thing|hardware|cards?|gpus?))\s+(?:we|i)\s*"
    r"(?:'re\s+|\s+are\s+|'m\s+)?(?:can\s+|(?:allowed|permitted|cleared)\s+to\s+)?(?:get|have|use|access)\b)",
    I,
)
# "than" compares, "other than" restricts ("nothing other than L40S")
_COMPARE = keyed(  # "instead" compares before "of" or in a question; "... on Lambda instead" replaces
    # a cap is no comparison: "no more than 16 GPUs", "less than 8" (evals v16)
    r"\b(?:vs\.?|versus|compared?|comparison|(?<!other )(?<!no more )(?<!not more )(?<!less )than"
    r"|instead(?=\s+of\b|\s*\?)|whether"
    r"|or\s+rent\w*)\b",
    I,
)
_EXCLUDE_CUE = keyed(
    r"(?:\bno|\bnot|\bavoid|\bexcept|\bexcluding|\bwithout|\bnever|\bnothing\s+older\s+than"
    r"|\banything\s+(?:but|other\s+than)"
    # "we cannot use H100s", "we must not use A100s" (expert review 9, R14: read as wanting H100s)
    r"|n't\s+(?:use|want)|\bcannot\s+(?:use|have|get)|\bcan\s+not\s+use|\b(?:must|may|shall)\s+not\s+use)"
    r"(?:\s+(?:the|any|on|use|using|older|nvidia|amd|\w+\s+or))*\s*$",
    I,
)
_CONSUMER_OUT = Gated(
    re.compile(
        r"\b(?:no|not|avoid|without|never|can't use|cannot use|won't use|don't want"
        r"|(?:not|aren't|are\s+not|we're\s+not|i'm\s+not)\s+(?:looking\s+at|considering|interested\s+in|into)"
        r"|(?:rule|ruling)\s+out|stay(?:ing)?\s+away\s+from)\s+(?:any\s+)?"
        r"(?:consumer|gaming|geforce|desktop)(?:[\s-]grade)?\s*(?:cards?|gpus?|hardware)?\b"
        r"|\b(?:consumer|gaming|geforce)(?:[\s-]grade)?\s+(?:cards?|gpus?)\s+(?:are|is)\s+(?:out|not\s+"
        r"(?:an\s+option|allowed|supported|ok))\b"
        r"|\bdata[\s-]?cent(?:er|re)(?:[\s-]grade)?\s+(?:gpus?|cards?)\s+only\b"
        # "consumer cards are fine for tests only", "gaming GPUs only in dev", "4090s not in prod": the
        # production workload sized here rules them out
        r"|\b(?:consumer|gaming|geforce|desktop)(?:[\s-]grade)?\s+(?:cards?|gpus?)\s+(?:are\s+|is\s+)?"
        r"(?:(?:only\s+)?(?:fine|ok|okay|good|allowed|acceptable)\s+)?(?:only\s+)?(?:for|in)\s+(?:local\s+)?"
        r"(?:tests?|testing|dev\w*|experiments?|prototyp\w*|staging|poc|debugging)(?:\s+only)?\b"
        r"|\b(?:consumer|gaming|geforce)(?:[\s-]grade)?\s+(?:cards?|gpus?)\s+(?:are\s+)?(?:not|never)\s+"
        r"(?:for|in)\s+prod\w*"
        r"|\bonly\s+data[\s-]?cent(?:er|re)(?:[\s-]grade)?\s+(?:gpus?|cards?)\b",
        I,
    ),
    "consumer", "gaming", "geforce", "desktop", "data",
)  # fmt: skip
_VENDOR_OUT = Gated(
    # "no AMD or Intel cards", "nothing AMD/Intel pls", "CUDA-only stack"
    re.compile(r"\b(?:no|not|avoid|without|nothing|none\s+of)\s+(?P<vendor>(?:amd|intel|gaudi|rocm)(?:\s*(?:/|,|or"
               r"|and|nor|&)\s*(?:amd|intel|gaudi|rocm))*)\b|\bnvidia[\s-]only\b|\bonly\s+nvidia\b"
               r"|\bcuda[\s-]only\b", I),
    "amd", "intel", "gaudi", "rocm", "nvidia", "cuda",
)  # fmt: skip


@functools.lru_cache(maxsize=256)
def family_ids(name: str) -> tuple[str, ...]:
    """Catalog ids a GPU name stands for: 'H100' -> every H100 variant, 'A100 80GB' -> the 80 GB ones,
    'H100 PCIe' -> that one. A name the catalog lacks gives its cleaned name."""
    gid = _gpu_id(name)
    cat = _catalog()
    low = re.sub(r"[\s-]+", " ", name.lower().strip())
    low = re.sub(r"(?:'s|s)$", "", low) if not low.endswith("l40s") else low
    if cat is None or re.search(r"sxm|pcie|nvl", low):
        return (gid,)
    parts = low.replace("nvidia ", "").replace("geforce ", "").split()
    if not parts:
        return (gid,)
    # "RTX 4090": the number names the card ('rtx' alone would be every RTX card; expert review 11, R06)
    base = parts[1] if parts[0] == "rtx" and len(parts) > 1 else parts[0]
    mem = next((p for p in parts[1:] if p.endswith("gb")), None)
    family = re.compile(rf"(?:rtx-)?{re.escape(base)}(?:-|$)")
    ids = [str(g.id) for g in cat.gpus if family.match(str(g.id)) and (mem is None or f"-{mem}" in str(g.id))]
    return tuple(ids) if ids else (gid,)


def _consumer_ids() -> list[str]:
    cat = _catalog()
    return [str(g.id) for g in cat.gpus if g.consumer] if cat is not None else []


def _vendor_ids(vendor: str, keep: bool) -> list[str]:
    """GPU ids of `vendor` (keep=False: of every other vendor)."""
    cat = _catalog()
    if cat is None:
        return []
    return [str(g.id) for g in cat.gpus if (str(g.vendor).lower() == vendor) == keep]


# one GPU asked for as a wish, the count after it ("one GPU if possible", "a single card ideally") or the
# wish before it ("ideally on one GPU", "preferably a single GPU") (rd15)
_ONE_GPU_WISH = Gated(
    re.compile(
        r"\b(?:one|a\s+single|single|1)[\s-]+(?:gpu|card)\s*,?\s*(?:if\s+(?:at\s+all\s+)?possible|ideally"
        r"|preferably|if\s+we\s+can|would\s+be\s+(?:ideal|best|great|perfect|preferred))\b"
        r"|\b(?:ideally|preferably|if\s+possible)\s*,?\s+(?:on\s+|with\s+|using\s+)?(?:one|a\s+single|1)[\s-]+"
        r"(?:gpu|card)\b",
        I,
    ),
    "gpu", "card",
)  # fmt: skip
# a count of GPUs as a clause of its own in a terse request (evals v16, an SMS: "need to QLoRA qwen3 8b this
# weekend, 1 gpu, under 50 bucks total"); not in a sentence about the team's hardware ("we have a rig, 1 gpu")
_BARE_COUNT = re.compile(
    r"(?:^|[,;(]\s*)(?:on\s+|with\s+|using\s+)?(?:just\s+|only\s+|max\s+)?(?P<n>[1-9]|one|a\s+single)\s*x?\s*"
    r"(?:gpus?|cards?)\s*(?=[,;.)!]|$)",
    I,
)
_HAS_WORDS = re.compile(r"\b(?:own|owns|have|has|had|our|my|got)\b", I)
# one node as the limit: "single node only", "must fit on one node", "no multi-node" (rd15): the GPUs of
# one standard 8-GPU server (NVIDIA DGX/HGX H100 and H200 systems hold 8 GPUs, NVIDIA DGX H100 datasheet)
_ONE_NODE = Gated(
    re.compile(
        r"\b(?:a\s+)?(?:single|one|1)[\s-]+(?:node|server|box)\s+(?:only|max(?:imum)?|at\s+most|tops)\b"
        r"|\b(?:only|must|has\s+to|have\s+to|needs?\s+to|should|limited\s+to|restricted\s+to)\s+(?:\w+\s+)?"
        r"(?:(?:fit|stay|run|be)\s+(?:on|in|within)\s+)?(?:a\s+single|one|1|single)[\s-]+(?:node|server)\b"
        r"|\bno\s+multi[\s-]?node\b"
        # a few nodes as the cap: "no more than two nodes", "up to 2 nodes of H100" (NODE_GPUS each)
        rf"|\b(?:at\s+most|no\s+more\s+than|up\s+to|max(?:imum)?(?:\s+of)?|limited\s+to)\s+(?P<nodes>{NUMBER})"
        r"\s+nodes\b(?!\s*(?:per|each|a\b))",
        I,
    ),
    "node", "server", "box",
)  # fmt: skip
_GPU_JOB_WORDS = re.compile(r"\b(?:gpus?|[ahbl]\d{2,3}s?|mi\d{3}x?|train\w*|fine[\s-]?tun\w*|job|run)\b", I)
NODE_GPUS = 8
"""GPUs in one standard training server (NVIDIA DGX H100 / HGX H100 and H200: 8 GPUs, NVIDIA DGX H100
datasheet); "single node only" caps the count at one such server."""
# a team that runs one vendor's hardware: "we're an AMD shop", "we are an NVIDIA-only house" (rd15)
_VENDOR_SHOP = Gated(
    re.compile(
        r"\b(?:we(?:'re|\s+are)|(?:our\s+)?(?:team|company|org\w*|lab)\s+is)\s+(?:an?\s+)?(?:all[\s-]+)?"
        r"(?P<vendor>amd|nvidia)(?:[\s-]+only)?[\s-]+(?:shop|house)\b",
        I,
    ),
    "shop", "house",
)
_PER_NODE = keyed(r"^\s*(?:per|each|a|in\s+(?:a|one|each))\s+(?:node|server|box|machine)\b", I)


def rule_gpu_choice(ctx: Ctx) -> None:
    """gpus_wanted, gpus_excluded and max_gpus (claims and comparisons set none of them)."""
    owned = next((f.value for f in ctx.findings if f.field == "owned_gpu"), None)
    for s in ctx.sentences:
        if s.start in ctx.claim_sentences:
            continue
        t = s.text
        _gpu_types(ctx, s, owned)
        if m := _CONSUMER_OUT.search(t):
            ctx.add(s, "gpus_excluded", _consumer_ids(), q(m), "stated", m.start())
        for m in _VENDOR_OUT.finditer(t):  # each one, so each clause that says it counts as read
            vendors = re.findall(r"amd|intel|gaudi|rocm", (m.group("vendor") or "").lower())
            if vendors:
                named = {{"gaudi": "intel", "rocm": "amd"}.get(v, v) for v in vendors}
                ids = [g for v in sorted(named) for g in _vendor_ids(v, keep=True)]
            else:
                ids = _vendor_ids("nvidia", keep=False)
            if ids:
                ctx.add(s, "gpus_excluded", ids, q(m), "stated", m.start())
        shop = _VENDOR_SHOP.search(t)
        if shop is not None and (shop_ids := _vendor_ids(shop.group("vendor").lower(), True)):
            ctx.add(s, "gpus_wanted", shop_ids, q(shop), "stated", shop.start())
        for m in _MAX_GPUS.finditer(t):
            after = t[m.end() : m.end() + 40]
            if m.group("num5"):  # the GPU's name follows the count: "up to 8 H100 per node"
                after = re.sub(r"^\S+", "", after, count=1)
            if _PER_NODE.match(after):
                continue
            num = next((m.group(g) for g in MAX_GPU_GROUPS if m.group(g)), None)
            n = int(parse_number(num)) if num else 1
            if n >= 1:
                ctx.add(s, "max_gpus", n, q(m), "stated", m.start())
        if (m := _ONE_GPU_WISH.search(t)) is not None:
            ctx.add(s, "max_gpus", 1, q(m), "stated", m.start())
        if (m := _BARE_COUNT.search(t)) is not None and not _HAS_WORDS.search(t):
            n = int(parse_number(m.group("n").split()[-1].replace("single", "1")))
            ctx.add(s, "max_gpus", n, q(m).lstrip(",;( "), "stated", m.start("n"))
        if (m := _ONE_NODE.search(t)) is not None and not negated(t, m.start()):
            nodes = int(parse_number(m.group("nodes"))) if m.group("nodes") else 1
            if nodes > 1 and not _GPU_JOB_WORDS.search(t):
                continue  # "our k8s cluster autoscales up to 40 nodes for the web tier": not GPU nodes
            ev = f'"{q(m)}": {nodes} node(s) of {NODE_GPUS} GPUs (a DGX/HGX server)'
            ctx.add(s, "max_gpus", nodes * NODE_GPUS, ev, "inferred", m.start())


def _gpu_types(ctx: Ctx, s: Sentence, owned: str | None) -> None:
    t = s.text
    comparing = None
    seen: set[str] = set()  # one decision per GPU name and its words before: a repeat costs one lookup
    for g in GPU_RE.finditer(t):
        before = t[max(0, g.start() - 40) : g.start()]  # "gpu: l40s # L40S is all we're allowed": both
        if (key := f"{before}|{g.group(0)}".lower()) in seen:
            continue
        seen.add(key)
        if re.search(r"\b(?:our|my)\s+(?:\w+\s+)?$", before, I):
            continue  # owned hardware, read by rule_owned_gpus
        name = g.group("gpu")
        if _EXCLUDE_CUE.search(before) or negated(t, g.start()) or _UNAVAILABLE.match(t, g.end()):
            ctx.add(s, "gpus_excluded", list(family_ids(name)), q(g), "stated", g.start())
            continue
        wm = _WHAT_IF.search(before)
        what_if = wm is not None
        if not (what_if or _WANT_CUE.search(before) or _only_after_list(t, g.end())):
            continue
        if _ASKS_TO_USE.search(before) and t.rstrip().endswith("?") and not what_if:
            continue  # "could we just use a T4?": a question the answer weighs, not a requirement
        if comparing is None:
            comparing = _COMPARE.search(t) is not None and not what_if
        ids = [i for i in family_ids(name) if _in_catalog(i)]
        if not ids or comparing or (owned is not None and owned in ids):
            continue  # a GPU the catalog lacks (T4, V100) is listed as not used, not a filter of nothing
        # a what-if's evidence keeps its words: the merge replaces the earlier turns' GPUs with it
        said = f"{before[wm.start() :]}{g.group(0)}".strip() if wm is not None else q(g)
        ctx.add(s, "gpus_wanted", ids, said, "stated", g.start())


# wanted but not to be had: "H100s would be nice but we literally can't get any allocation this quarter"
_UNAVAILABLE = re.compile(
    r"[^.;]{0,30}?\bbut\b[^.;]{0,40}?\b(?:(?:can'?t|cannot|couldn'?t|unable\s+to)\s+(?:\w+\s+)?(?:get|find|obtain"
    r"|secure|source)|no\s+(?:allocation|availability|capacity|quota)|(?:unavailable|not\s+available|sold\s+out))\b",
    I,
)
# a what-if on a GPU: "What if we went with B200s instead of whatever you picked?", "what about H100s
# instead?", "how about using A100s?" (expert review 5, R19): the answer is the pick on that GPU
_WHAT_IF = keyed(
    r"\b(?:what\s+if\s+(?:we|i)\s+(?:went|go|used?|switch(?:ed)?|moved?|picked?|chose|choose|opted)"
    r"(?:\s+(?:with|to|for))?|what\s+about|how\s+about)(?:\s+(?:using|going\s+with|switching\s+to))?"
    r"(?:\s+(?:the|a|an|some|\d+\s*(?:x|×)?))?\s+$",
    I,
)
_ASKS_TO_USE = re.compile(
    r"\b(?:could|can|should|would|might)\s+(?:we|i|you)\s+(?:just\s+|simply\s+|also\s+|still\s+)?"
    r"(?:use|go\s+with|get\s+away\s+with|try|stick\s+with|run\s+(?:it|this)\s+on)\b[^?]*$",
    I,
)


_LIST_JOIN = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+|\s*/\s*", I)


def _only_after_list(t: str, end: int) -> bool:
    """Whether "only" (or "and nothing else") closes a list that the GPU ending at `end` opens: "L4 and
    L40S only" wants both (evals v10: only the L40S was read)."""
    pos = end
    while (join := _LIST_JOIN.match(t, pos)) is not None and (nxt := GPU_RE.match(t, join.end())) is not None:
        pos = nxt.end()
    return _ONLY_AFTER.match(t, pos) is not None


def _in_catalog(gpu_id: str) -> bool:
    cat = _catalog()
    return cat is None or cat.has_gpu(gpu_id)
