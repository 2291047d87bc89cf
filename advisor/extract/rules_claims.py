"""Claim rules: claims and questions about a job's speed on named hardware ("we were told 8x H100 do it in
6 hours", "Can we do ... in 24 hours on 8x H100?", "is 8x A100 enough to finish in 2 days?", "my boss
thinks one 4090 will do it in a week", "can a single H100 handle 70B QLoRA overnight?"). Owned hardware is
advisor/extract/rules_gpus.py.

"overnight" and "over the weekend" are durations people use for a run: OVERNIGHT_HOURS and WEEKEND_HOURS
(inferred, the evidence names the assumption)."""

from __future__ import annotations

import functools
import re

from advisor.extract import units_text as U
from advisor.extract.base import Finding
from advisor.extract.regex_keys import alternatives, keyed
from advisor.extract.rules_claim_bounds import count_bound
from advisor.extract.rules_count_question import asks_count
from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_dates import _DATE, date_of
from advisor.extract.rules_fleet import machine_gpus
from advisor.extract.rules_models import GPU_RE, find_providers, resolve_gpu
from advisor.extract.rules_owned_refs import (
    INDIRECT_QUESTION,
    OWN_MACHINE_AHEAD,
    RESERVATION_REF,
    owned_name_ref,
)
from advisor.extract.rules_text import (
    APPROX,
    NUMBER,
    Sentence,
    parse_number,
)

# =========================================================================== claims
_CLAIM_CUE = alternatives(
    r"\b(?:claim\w*|told|tells|said|says|promis\w*|quoted|advertis\w*|vendor|blog|someone|supposedly"
    r"|reportedly|"
    r"according to|we could do|could do|can do|benchmark\w*|marketing|their sales|will do it|would do it"
    r"|should do it|(?:is|are|be) (?:enough|sufficient)|suffices?|convinced)\b"
    # someone's belief: "my boss thinks ...", "I reckon ...", "the CTO insists ..."
    r"|\b(?:boss|manager|cto|ceo|lead|colleague|pm|vp|director|teammate|friend|advisor|consultant)\s+"
    r"(?:thinks?|reckons?|believes?|insists?|bets?|swears?|figures?|guess(?:es)?|assumes?"
    r"|is (?:sure|confident))"
    r"|\b(?:i|we)\s+(?:reckon|bet|guess|figure|am sure|are sure|am confident|are confident"
    r"|think|believe)\b(?!\s+(?:we|i)\s+need)"
    # a question about feasibility: "Can we do ... in 24 hours on 8x H100?", "is it realistic ..."
    r"|\?|^\s*(?:can|could|would|will|is|are|does|do)\s+(?:we|i|it|you|this|that|a|an|one)\b"
    r"|\bis (?:it|that|this) (?:realistic|possible|feasible|true|doable)\b"
    # a question written without its question mark (chat, voice-to-text): "is 8xH100 enough to do it in
    # 24h", "How many hours on 4xH100", "would 2x 4090 be enough"; an indirect one: "wondering if 8x H100
    # could get it done within a day", "not sure whether ..."
    # (a lower-case start after a full stop stays in the sentence before: "... tokens. is 8xH100 enough")
    # the verb must be followed by its subject: "would like it done in a week" is a wish, not a question
    r"|(?:^|[.;!]\s+)\W*(?:so\s+|and\s+|ok\s+|also\s+|but\s+|just\s+)?(?:(?:can|could|would|will|is|are|does|do"
    r"|should)\s+(?:we|i|it|you|they|this|that|these|those|an?|one|the|our|my|single|\d\w*|two|three|four|five|six"
    r"|eight|ten|twelve|sixteen|[ahlbv]\d{2,3}|rtx|dgx)|how\s+(?:long|many|fast|quickly))\b"
    r"|\b(?:wonder\w*|curious|not\s+sure|unsure|asking)\s+(?:if|whether)\b"
    r"|\b(?:do|would)\s+you\s+(?:think|reckon|expect)\b"
    # an estimate somebody made: "our ML lead estimates 8 H100s for two days", "the vendor expects ..."
    r"|\b(?:estimat\w*|predicts?)\b(?=[^.?!]{0,60}\b(?:hours?|hrs?|days?|weeks?)\b)",
    I,
    min_chars=1,  # "?" alone is a cue
)
# what a duration asked about is called: "would 3 days be enough", "Would 3 days be realistic on those 6?"
_ASKED_OK = r"(?:enough|realistic|doable|feasible|achievable|possible|reasonable)\b"
_CLAIM_HOURS = keyed(
    rf"(?:\b(?:in|into|inside|takes?|took|within|under|about|quoted|promised|estimated|like|say"
    rf"|(?:is|are|would|will)(?=\s+{APPROX}"
    rf"{NUMBER}\s*\w+\s+(?:be\s+)?{_ASKED_OK}))\s+|\(\s*){APPROX}(?P<num>{NUMBER})\s*(?P<unit>hours?|hrs?|h|days?"
    rf"|weeks?|months?|minutes?|mins?)\b",
    I,
)
# the duration said before the hardware it is on: "Is three days on 8x H100 realistic?", "2 days with 4
# A100s, doable?" (the GPU must follow within a few words); and a duration after "for" in a claim that
# rents nothing: "our ML lead estimates 8 H100s for two days" ("rent 8 H100s for 3 months" is a term)
_HOURS_ON = keyed(
    rf"\b{APPROX}(?P<num>{NUMBER})\s*(?P<unit>hours?|hrs?|h|days?|weeks?)\s+(?:on|with|using|of)\s+(?=[^.?!]{{0,25}}"
    rf"(?:[ahlbv]\d{{2,3}}|rtx|gh200|gb200|mi\d{{3}}|dgx|\d090))",
    I,
)
_HOURS_FOR = keyed(
    rf"(?:\bfor\s+|[,/–—]\s*|\s-\s*){APPROX}(?P<num>{NUMBER})\s*(?P<unit>hours?|hrs?|h|days?|weeks?)\b",
    I,
)
# ... nor a past run's ("last year our v1 run used 64 A100s for six weeks", evals v7): history, not a claim
_RENTS = re.compile(
    r"\b(?:rent\w*|leas\w*|reserv\w*|book\w*|hire|contract\w*|commit\w*|used|trained|ran|took|had|spent"
    r"|last\s+(?:year|time|month)|previous\w*)\b",
    I,
)
_GPU_JUST_BEFORE = re.compile(
    r"(?:[ahlbv]\d{2,3}|rtx\s*a?\d{4}|\d090|gh200|gb200|mi\d{3}x?|l40s|l4)(?:\s*(?:sxm|pcie|nvl)\w*)?(?:\s*\d+\s*gb)?s?"
    r"(?:\s+(?:gpus?|cards?))?\s*$",
    I,
)
# a half in words: "in half a day", "in a day and a half", "in 2 and a half days"
_HALF = re.compile(
    rf"\b(?:in|within|under|about|like|takes?)\s+(?:half\s+an?\s+(?P<u1>hour|day|week)|an?\s+(?P<u2>hour|day|week)\s+"
    rf"and\s+a\s+half|(?P<num>{NUMBER})\s+and\s+a\s+half\s+(?P<u3>hours|days|weeks))\b",
    I,
)
_HALF_UNIT_HOURS = {"hour": 1.0, "day": 24.0, "week": 168.0}  # one day = 24 h of wall clock


def _half_hours(m: re.Match[str]) -> float:
    """The hours of a _HALF match: half a unit, one and a half, or N and a half."""
    if m.group("u1"):
        return _HALF_UNIT_HOURS[m.group("u1").lower()] / 2
    if m.group("u2"):
        return _HALF_UNIT_HOURS[m.group("u2").lower()] * 1.5
    return _HALF_UNIT_HOURS[m.group("u3").lower().rstrip("s")] * (parse_number(m.group("num")) + 0.5)


_CLAIM_SPAN = re.compile(
    r"\b(?P<over>overnight|over\s+(?:the|a|one)\s+(?:long\s+)?weekend|over\s+a\s+night)\b", I
)
# a claim that hardware suffices, with no time: "my boss says one 4090 is enough to serve this", "the CTO
# thinks a single RTX 4090 can serve it", "two A100s will handle it" (the recommender checks it)
_ENOUGH = keyed(
    r"\b(?:is|are|be|(?:will|would|should)\s+be)\s+(?:(?:more\s+than|plenty|good|easily)\s+)?enough\b"
    r"|\bsuffices?\b"
    r"|\b(?:can|could|will|would|should)\s+(?:easily\s+)?(?:serve|handle|host|run|do)\b"
    # "do 2 4090s cut it", "would 4 A100s do the job"
    r"|\b(?:cut\s+it|do\s+the\s+(?:job|trick)|be\s+up\s+to\s+(?:it|the\s+job)|keep\s+up)\b",
    I,
)
# "is a single L40S enough to QLoRA ...?", "would one A100 be sufficient": the word right after the card
# (expert review 5, R03; the sentence is a question or a claim, _CLAIM_CUE)
_BARE_ENOUGH = re.compile(
    r"\s*(?:\([^)]{0,20}\)\s*)?(?:alone\s+|by\s+itself\s+|on\s+its\s+own\s+)?(?:(?:be|is|are)\s+)?"
    r"(?:enough|sufficient|adequate)\b",
    I,
)
# the claim's verb before the hardware: "(someone told me) we can run Llama 3.1 405B on a single 8xH100 node"
# (expert review 9, R05)
_RUN_ON_BEFORE = re.compile(
    # "(a vendor told us) we can do a full fine-tune of a 7B model on a single 24GB RTX 4090" (expert review
    # 15, R04): "do" / "train" as the claim's verb, and the card's memory said before its name
    r"\b(?:can|could|will|would)\s+(?:easily\s+)?(?:serve|host|run|fit|handle|do|train|fine[\s-]?tune|finetune)\b"
    r"[^?!]{0,60}?\b(?:on|onto|across)"
    r"\s+(?:an?\s+|one\s+|a\s+single\s+|single\s+)?(?:\d+\s*[x×]?\s*)?(?:\d+\s*gb\s+)?$"
    # "can we get away with a single A100 80GB?", "could we make do with 2x L40S"
    # "(our ML lead says serving Mixtral 8x7B in fp16) needs only 2x A100 40GB" (expert review 15, R14)
    r"|\b(?:(?:needs?|requires?|takes?)\s+(?:only|just)|only\s+(?:needs?|requires?|takes?))\s+"
    r"(?:an?\s+|one\s+|a\s+single\s+)?(?:\d+\s*[x×]?\s*)?$"
    r"|\b(?:get\s+away|make\s+do|manage|cope)\s+with\s+(?:an?\s+|one\s+|a\s+single\s+|just\s+|only\s+)?"
    r"(?:\w+\s+)?(?:\d+\s*[x×]?\s*)?$",
    I,
)
# a question for the time on named hardware: "How long would ... take on 32 H100s?" (the hardware is the
# asker's premise, checked like a claim)
_HOW_LONG = re.compile(r"\bhow\s+(?:long|many\s+(?:hours|days|weeks))\b", I)
# a comparison asked about a counted configuration: "would renting 8x H100 for it be much faster?" (not
# "H100s are faster than A100s, right?": no configuration to time)
# a feasibility question on a counted configuration: "Can we serve Llama 3.1 405B on a single 8x H100 node?"
_CAN_WE_ON = re.compile(
    r"^\W*(?:so\s+|and\s+|ok\s+)?(?:can|could)\s+(?:we|i|you|one)\b[^?]*\?|\bis\s+it\s+(?:possible|feasible|doable)"
    r"\b[^?]*\?",
    I,
)
_DIGIT_COUNT = re.compile(r"\d\s*(?:x\s*|×\s*)?$")
_COMPARE = re.compile(r"\b(?:faster|quicker|slower|sooner|speed\s*up|cheaper)\b(?=[^.!?]*\?)", I)
# ... unless the hardware is the asker's own ("we own 8 A100 ... how long on our box"): rules_gpus reads it
_OWNED = re.compile(
    r"\b(?:own|owned|we\s+have|we've\s+got|we\s+already\s+have|sitting\s+idle|in[\s-]house"
    r"|our\s+(?:\w+\s+)?(?:box|cluster|servers?|machines?|nodes?|gpus?|rack|workstation))\b",
    I,
)
_BARE_CONSUMER = re.compile(r"\b(?P<gpu>3090|4090|5090)s?\b")
_GPU_COUNT = re.compile(rf"(?P<num>{NUMBER})\s*(?:x\s*|×\s*)?$", I)


# a counted server named for purchase or rent: "please assess buy vs rent for one 8x H200 server", "a quote
# for two 8x H100 nodes" (expert review 5, R10): the configuration asked about is the one checked and costed
_SERVER_BEFORE = re.compile(
    r"\b(?P<boxes>a|an|one|single|two|three|four|\d+)\s+(?P<num>\d+)\s*(?:x|×)\s*$", I
)
_SERVER_AFTER = re.compile(r"\s*(?:sxm\w*\s+|nvl\s+|\d+\s*gb\s+)?(?:server|node|box|system|machine)s?\b", I)
_PROCURE = keyed(
    r"\b(?:buy\w*|purchas\w*|procur\w*|rent\w*|leas(?:e|ing)|quotes?|assess\w*|evaluat\w*|costs?"
    r"|pric\w*)\b",
    I,
)
_BOX_WORDS = {"a": 1, "an": 1, "one": 1, "single": 1, "two": 2, "three": 3, "four": 4}


def _named_server(ctx: Ctx, s: Sentence) -> bool:
    """claimed_gpu and claimed_gpu_count of a server named for purchase or rent; True when read."""
    t = s.text
    if not _PROCURE.search(t):
        return False
    for gpu in GPU_RE.finditer(t):
        before = _SERVER_BEFORE.search(t[max(0, gpu.start() - 20) : gpu.start()])
        after = _SERVER_AFTER.match(t, gpu.end())
        if before is None or after is None:
            continue
        if _OWNED.search(_clause_around(t, gpu.start())) is not None:
            continue  # "we own one 8x H100 server": rules_gpus
        boxes = before.group("boxes").lower()
        n = int(before.group("num")) * (_BOX_WORDS.get(boxes) or int(boxes))
        ctx.add(s, "claimed_gpu", resolve_gpu(gpu.group("gpu")), q(gpu), "stated", gpu.start())
        said = t[max(0, gpu.start() - 20) : after.end()].strip()
        ctx.add(s, "claimed_gpu_count", n, said, "stated", gpu.start())
        return True
    return False


def rule_claims(ctx: Ctx) -> None:
    """claimed_gpu, claimed_gpu_count, claimed_hours from a reported claim; marks claim sentences."""
    for i, s in enumerate(ctx.sentences):
        t = s.text
        verify = _verify_next(ctx, i)  # "a single L4 can serve it at 100 tok/s. Is that realistic?"
        if _named_server(ctx, s) or not (_CLAIM_CUE.search(t) or verify) or asks_count(t):
            continue  # "How many H100s do we need ... within 30 days?": a count asked, not a claim on one
        hours = _CLAIM_HOURS.search(t) or _HOURS_ON.search(t)
        if hours is None and _RENTS.search(t) is None:
            hours = _HOURS_FOR.search(t)  # only right after the hardware: "8 H100s for two days"
            before = t[max(0, hours.start() - 30) : hours.start()] if hours is not None else ""
            if hours is not None and _GPU_JUST_BEFORE.search(before) is None:
                hours = None
        half = _HALF.search(t)
        if half is not None and (hours is None or half.start() <= hours.start()):
            hours = None  # "in a day and a half" is 36 h, not the "a day" inside it
        span = _CLAIM_SPAN.search(t) if hours is None and half is None else None
        gpu = GPU_RE.search(t) or _BARE_CONSUMER.search(t)
        if not gpu:
            if not (hours or span or half):
                _unnamed_bound(ctx, s)  # "we'd need 16 GPUs minimum, right?": checked on the GPU picked
            continue
        if not (hours or span or half):
            if _OWNED.search(_clause_around(t, gpu.start())) is not None:
                continue  # "we've got a DGX H100 sitting idle - could it handle ...": owned, rules_gpus
            counted = _GPU_COUNT.search(t[: gpu.start()]) is not None
            digits = _DIGIT_COUNT.search(t[: gpu.start()]) is not None  # "8x H100", not "a T4"
            how_long = (
                _HOW_LONG.search(t) is not None
                or (counted and _COMPARE.search(t) is not None)
                or _how_long_next(ctx, i)
            )
            asked_on = digits and _CAN_WE_ON.search(t) is not None
            if asked_on and not how_long and not _ENOUGH.search(t, gpu.end()):
                # "can i run llama 3.3 70b on 2x h100s for 50 chats?": the hardware asked about, checked;
                # the sentence's load and lengths are the workload's, and the GPU is still the one wanted
                _claim_hardware(ctx, s, gpu, mark=False)
                continue
            if (bound := count_bound(t, gpu)) is not None:
                # "needs at least 4x A100, true?", "one L40S won't cut it, will it?": checked in its direction
                _claim_hardware(ctx, s, gpu)
                ctx.add(s, "claimed_gpu_bound", bound[0], bound[1], "stated", gpu.start())
                continue
            enough = (_ENOUGH.search(t, gpu.end()) or _BARE_ENOUGH.match(t, gpu.end())
                      or _RUN_ON_BEFORE.search(t[: gpu.start()]))  # fmt: skip
            if enough is None and not how_long:
                continue
            _claim_hardware(ctx, s, gpu)
            continue
        _claim_hardware(ctx, s, gpu)
        if half is not None and hours is None:
            ctx.add(s, "claimed_hours", _half_hours(half), q(half), "inferred", half.start())
            continue
        if hours is None and span is not None:
            h = _span_hours(span)
            ctx.add(s, "claimed_hours", h, f'"{q(span)}" read as {h:g} h', "inferred", span.start())
            continue
        assert hours is not None
        stated = hours.group("unit").lower().startswith("h")
        ctx.add(s, "claimed_hours", _claimed_hours(hours), q(hours), "stated" if stated else "inferred",
                hours.start())  # fmt: skip


_UNNAMED_COUNT = re.compile(rf"(?P<num>{NUMBER})\s*(?:x\s*)?(?:gpus|cards|accelerators)\b", I)


def _unnamed_bound(ctx: Ctx, s: Sentence) -> None:
    """claimed_gpu_count and claimed_gpu_bound of a count claim that names no GPU ("16 GPUs minimum")."""
    for m in _UNNAMED_COUNT.finditer(s.text):
        bound = count_bound(s.text, m)
        if bound is None or _OWNED.search(_clause_around(s.text, m.start())) is not None:
            continue
        ctx.claim_sentences.add(s.start)
        ctx.add(s, "claimed_gpu_count", int(parse_number(m.group("num"))), bound[1], "stated", m.start())
        ctx.add(s, "claimed_gpu_bound", bound[0], bound[1], "stated", m.start())
        return


# a bare check of the sentence before (expert review 7, R15 without "someone says"): "Is that realistic?",
# "True?", "Is this right?", "Really?"
_VERIFY = re.compile(
    r"^\W*(?:(?:is|was)\s+(?:that|this|it)\s+(?:really\s+|even\s+|actually\s+)?(?:realistic|true|right|correct|possible"
    r"|feasible|doable|accurate|plausible)|(?:is\s+(?:that|this)\s+)?(?:true|really|right|correct|realistic))"
    r"\s*\??\s*$",
    I,
)


def _verify_next(ctx: Ctx, i: int) -> bool:
    """Whether the sentence after sentence `i` only asks whether it holds (it is then a claim)."""
    if i + 1 >= len(ctx.sentences) or _VERIFY.match(ctx.sentences[i + 1].text) is None:
        return False
    ctx.claim_sentences.add(ctx.sentences[i + 1].start)  # answered by the claim check
    return True


# a short follow-up asking the time on the hardware just named: "Could we rent a single H100 from runpod for
# this instead? How long?", "... on 2x A100? and how many days would that take"
_HOW_LONG_FOLLOW = re.compile(
    r"^\W*(?:and\s+|so\s+|ok\s+)?(?:how\s+(?:long|many\s+(?:hours|days|weeks))|what(?:'s|\s+is|\s+would\s+be)\s+"
    r"the\s+(?:time|duration|wall[\s-]?clock))\b[^.!?]{0,40}(?:[.!?]|$)",
    I,
)


def _how_long_next(ctx: Ctx, i: int) -> bool:
    """Whether the sentence after sentence `i` only asks how long (it names no hardware of its own)."""
    if i + 1 >= len(ctx.sentences):
        return False
    nxt = ctx.sentences[i + 1].text
    return _HOW_LONG_FOLLOW.match(nxt) is not None and GPU_RE.search(nxt) is None


def _span_hours(span: re.Match[str]) -> float:
    """The hours of "overnight", "over the weekend", "over a long weekend"."""
    said = span.group(0).lower()
    if "night" in said:
        return U.OVERNIGHT_HOURS
    return U.LONG_WEEKEND_HOURS if "long" in said else U.WEEKEND_HOURS


_CLAUSE_BREAK = re.compile(r",\s+(?:and|but|or)\b|;|\s+-\s+|\s+—\s+", I)


def _clause_around(text: str, at: int) -> str:
    """The clause of `text` holding position `at` ("how long on our box, and would renting 8x H100 be
    faster?": the rental's clause, not the owned box's)."""
    start, end = 0, len(text)
    for m in _CLAUSE_BREAK.finditer(text):
        if m.end() <= at:
            start = m.end()
        elif m.start() >= at:
            end = m.start()
            break
    return text[start:end]


def _claim_hardware(ctx: Ctx, s: Sentence, gpu: re.Match[str], mark: bool = True) -> None:
    """claimed_gpu and claimed_gpu_count of a claim sentence ("one 4090", "8x H100", "two DGX A100s");
    `mark`: the sentence is a claim (its other numbers are the claim's, not the workload's)."""
    t = s.text
    cm = _GPU_COUNT.search(t[max(0, gpu.start() - 14) : gpu.start()])
    if cm is None and _plural(gpu.group(0)) and machine_gpus(t, gpu.start()) is None:
        return  # "would renting H100s be worth it instead?" (expert review 18, R03): a kind, not one card
    if mark:
        ctx.claim_sentences.add(s.start)
    name = gpu.group("gpu")
    gid = resolve_gpu(f"rtx {name}" if name.isdigit() else name)
    ctx.add(s, "claimed_gpu", gid, q(gpu), "stated", gpu.start())
    count = int(parse_number(cm.group("num"))) if cm else 1
    boxes = machine_gpus(t, gpu.start())  # "two DGX A100s" = 16 GPUs
    if boxes is not None:
        count, cm = boxes, cm or _GPU_COUNT.search("1")
    ctx.add(s, "claimed_gpu_count", count, t[max(0, gpu.start() - 14) : gpu.end()].strip(),
            "stated" if cm else "inferred", gpu.start())  # fmt: skip
    # the provider the hardware asked about would be rented from: "renting one H100 on runpod", "8x H100
    # at Lambda" (expert review 7, R18 turn 3): the check prices it there
    at = _AT_PROVIDER.match(t, gpu.end())
    if at is not None:
        for pid, a, b in find_providers(t[at.end() : at.end() + 30]):
            if a == 0:
                said = t[gpu.start() : at.end() + b]
                ctx.add(s, "providers_preferred", [pid], f'"{said}": where it would be rented', "stated",
                        gpu.start())  # fmt: skip


def _plural(said: str) -> bool:
    """'H100s', 'RTX 4090s', 'L40Ss': a plural card name (not 'L40S', whose 'S' is its name)."""
    if not said.lower().endswith("s"):
        return False
    try:
        return resolve_gpu(said[:-1]) == resolve_gpu(said)
    except (KeyError, ValueError):
        return False


_AT_PROVIDER = re.compile(r"s?\s*(?:(?:sxm|pcie)\w*\s*)?(?:gpus?\s+)?(?:on|at|from|via|with)\s+", I)


# the owned cards asked about after they are named, by a pronoun or the machine ("We have 4 A6000s. Could
# they finish it within a week?", "I reckon it'd take ~5 days on ours", "How many days on the box? Our
# guess is a week"): the hours are a claim about those cards, not a deadline (evals v10)
# The cards may also be counted out of the whole ("Reckon 4 of 'em will ...", evals v17) or called by a word
# of the owned GPU's name ("Could our four NVLs get through it", evals v16: rules_owned_refs.owned_name_ref).
_PRONOUN_HW = re.compile(
    rf"\b(?:they|those|these|them|ours|(?:the|our|that|this|those|these)\s+(?:(?P<said>{NUMBER})\s+)?(?:cards|gpus"
    r"|box|machines?|servers?|cluster|rig|workstations?|node|colo))\b"
    rf"|(?<!\w)(?:(?P<part>{NUMBER})\s+of\s+)?(?:them|['\u2019]em)\b"
    rf"|\bon\s+(?P<nodes>{NUMBER})\s+(?:of\s+(?:the|our|them)\s+)?(?:nodes|servers|boxes)\b",
    I,
)

# a feasibility question with no hardware of its own ("Can we get that done over a long weekend?") asks
# about the hardware the team owns when no other is named in the conversation
_CAN_WE = re.compile(
    r"^\W*(?:(?:question|q\d*)\s*[:.)-]\s*)?(?:so\s+|and\s+|ok\s+)?(?:can|could|would|will)\s+(?:we|i|it|they"
    r"|that)\b[^?]*\?"
    # a feasibility question (evals v15): "Is it possible to finish in 1 week?", "is that realistic?"
    r"|^\W*(?:so\s+|and\s+|ok\s+)?(?:is|would)\s+(?:it|this|that)\s+(?:be\s+)?(?:possible|feasible|doable"
    r"|realistic|achievable)\b[^?]*\?",
    I,
)
# a time the owned hardware is free, asked about as "in that window" ("free over the holidays, 20 Dec to
# 4 Jan. Can we pretrain ... in that window?")
_THAT_WINDOW = re.compile(
    r"\b(?:in|within|during)\s+(?:that|this|the\s+same|those)\s+(?:window|slot|period|time\s*frame|time|span"
    r"|days|weeks)\b",
    I,
)
# the period that window is: "16 H200s reserved on Nebius for the next 10 days ... Can we get through this in
# that time?" (evals v9), "the box is free for two weeks"
_FOR_PERIOD = re.compile(
    rf"\b(?:for|over)\s+(?:the\s+next\s+|another\s+|a\s+further\s+)?(?P<num>{NUMBER}|an?)\s*(?P<unit>hours?|days?"
    r"|weeks?|months?)\b",
    I,
)


@functools.cache
def _date_span() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Two dates joined by "to" or a dash ("20 Dec to 4 Jan"), and one date (compiled on first use)."""
    plain = re.sub(r"\?P<\w+>", "?:", _DATE)  # the same date without its named groups, usable twice
    span = re.compile(rf"(?P<a>{plain})\s*(?:to|-|–|until|till|through|thru)\s*(?P<b>{plain})", I)
    return span, re.compile(_DATE, I)


# a guessed duration, also with no digits: "our guess is a week", "like 3.5 days", "say two days"
_GUESS_HOURS = re.compile(
    rf"\b(?:guess|estimate|reckon|bet|like|say|maybe|roughly|about|is|be)\s+(?:is\s+|it'?s\s+|would\s+be\s+)?"
    rf"(?:~\s*)?(?:(?P<num>{NUMBER})|(?P<one>an?|one))\s*(?P<unit>hours?|days?|weeks?|months?)\b",
    I,
)
_NODES_OF = re.compile(rf"\b(?P<num>{NUMBER})\s+(?:\w+\s+)?(?:nodes|servers|boxes)\s+(?:with|of)\b", I)
# a duration of one run: "in one 48h job", "in a single 12-hour run"
_ONE_RUN = re.compile(
    rf"\b(?:in|within)\s+(?:one|a|a\s+single)\s+(?P<num>{NUMBER})\s*-?\s*(?P<unit>h|hours?|days?)\b", I
)
_GUESS_CUE = re.compile(
    r"\b(?:our|my|the\s+team'?s)\s+(?:guess|estimate|bet|hunch)\b|\b(?:i|we)\s+(?:reckon|guess)\b"
    # the subject left out, as in chat (evals v17): "Reckon 4 of 'em will knock it over in about 12 hours"
    r"|^\W*(?:reckon|guess|bet|figure)\b(?!\s+(?:out|of)\b)"
    # someone's belief about the owned cards (evals v18): "Our supervisor thinks the 16 cards can do it"
    r"|\b(?:boss|manager|cto|ceo|lead|supervisor|professor|advisor|pi|colleague|director|head)\s+(?:thinks|reckons"
    r"|believes|says|claims|insists|figures|expects)\b",
    I,
)
# a question whether the owned cards are enough, with no time of its own (evals v18: "Kindly confirm whether
# the 8 cards are enough or we need more"): a claim of that configuration without hours
_ENOUGH_ASKED = re.compile(r"\b(?:enough|sufficient|suffice|do\s+the\s+job)\b", I)


def rule_owned_question(ctx: Ctx) -> None:
    """claimed_gpu(_count) and claimed_hours for a question or guess about owned GPUs named earlier (in an
    earlier sentence or turn), referred to by a pronoun or the machine, or asked about with no other
    hardware named."""
    if any(f.field == "claimed_gpu" for f in ctx.findings):
        return
    owned = {f.field: f for f in ctx.findings if f.field in ("owned_gpu", "owned_gpu_count")}
    prior = ctx.prior
    gpu_value = owned["owned_gpu"].value if "owned_gpu" in owned else prior.owned_gpu if prior else None
    if gpu_value is None:
        return
    count_f = owned.get("owned_gpu_count")
    count_value = count_f.value if count_f else prior.owned_gpu_count if prior else None
    after = owned["owned_gpu"].position if "owned_gpu" in owned else -1
    named = (resolve_gpu(g.group("gpu")) for s in ctx.sentences for g in GPU_RE.finditer(s.text))
    other_hw = any(gid != gpu_value for gid in named)
    for i, s in enumerate(ctx.sentences):
        t = s.text
        ahead = OWN_MACHINE_AHEAD.search(t)  # "Can our cluster do this in 2 days?" before it is described
        if (s.start + len(t) <= after and ahead is None) or s.start in ctx.claim_sentences:
            continue
        asks = "?" in t or _GUESS_CUE.search(t) is not None or INDIRECT_QUESTION.search(t) is not None
        pron = _PRONOUN_HW.search(t) or owned_name_ref(t, str(gpu_value))
        ref = pron is not None or _THAT_WINDOW.search(t) is not None or RESERVATION_REF.search(t) is not None
        if not asks or not (ref or (_CAN_WE.search(t) and not other_hw)):
            continue
        said, hours = _owned_claim_hours(ctx, t, i)
        if hours is None and not (pron is not None and _ENOUGH_ASKED.search(t)):
            continue
        part = pron.groupdict().get("said") or pron.groupdict().get("part") if pron is not None else None
        if part:
            count_value = int(parse_number(part))  # "the 8 cards", "4 of 'em": that many of them
        ctx.claim_sentences.add(s.start)
        ev = f"{owned['owned_gpu'].evidence if 'owned_gpu' in owned else gpu_value} (asked about: {said})"
        ctx.add(s, "claimed_gpu", gpu_value, ev, "inferred", 0)
        fleet = _NODES_OF.search(count_f.evidence) if count_f is not None else None
        if pron is not None and pron.groupdict().get("nodes") and fleet is not None and count_f is not None:
            # "on 2 nodes" of an owned "4 nodes with 4x A100": that many nodes' cards
            per_node = int(count_f.value) // int(parse_number(fleet.group("num")))
            count_value = int(parse_number(pron.group("nodes"))) * per_node
            ev = f"{q(pron)} x {per_node} GPUs per node ({count_f.evidence})"
        if count_value is not None:
            ctx.add(s, "claimed_gpu_count", count_value, ev, "inferred", 0)
        if hours is not None:
            ctx.add(s, "claimed_hours", hours, said, "inferred", 0)
        return
    _how_long_on_them(ctx, list(owned.values()))


# "How long on those 16 GPUs?", "how fast would it run on all of them?": the question asks for the time on
# the owned GPUs (all of them when the count is said or "all"), so that configuration is the one answered
_HOW_LONG_ON = re.compile(
    r"\bhow\s+(?:long|fast|many\s+(?:hours|days|weeks))\b[^?]{0,60}?\b(?:on|with|using|across)\s+"
    r"(?:all\s+(?:of\s+)?)?(?:those|these|them|our|the)\b(?:\s+(?P<num>\d+))?",
    I,
)


_VERSUS = re.compile(r"\b(?:vs\.?|versus|compared\s+(?:to|with)|or\s+(?:rent|buy)\w*|instead\s+of)\b", I)


def _how_long_on_them(ctx: Ctx, owned: list[Finding]) -> None:
    """claimed_gpu(_count) without hours for a time question about the owned GPUs in a later sentence."""
    gpu = next((f for f in owned if f.field == "owned_gpu"), None)
    if gpu is None:
        return
    count = next((f for f in owned if f.field == "owned_gpu_count"), None)
    for s in ctx.sentences:
        if s.start <= gpu.position or "?" not in s.text or s.start in ctx.claim_sentences:
            continue
        m = _HOW_LONG_ON.search(s.text)
        if m is None or _VERSUS.search(s.text, m.end()):
            continue  # "on our box vs renting H100s": a comparison (the owned pick and its rent line)
        said = int(m.group("num")) if m.group("num") else None
        if said is not None and count is not None and said != count.value:
            continue  # "how long on those 8?" of 16 owned: a share, read by the claim rules if at all
        ev = f"{gpu.evidence} (asked about: {q(m)})"
        ctx.add(s, "claimed_gpu", gpu.value, ev, "inferred", m.start())
        if count is not None:
            ctx.add(s, "claimed_gpu_count", count.value, count.evidence, "inferred", m.start())
        return


def _owned_claim_hours(ctx: Ctx, t: str, i: int) -> tuple[str, float | None]:
    """The hours a question or guess about owned hardware names: its own duration, a guess in the next
    sentence ("How many days on the box? Our guess is a week."), or the date span of "that window"."""
    if hours := _CLAIM_HOURS.search(t):
        return q(hours), _claimed_hours(hours)
    if g := _GUESS_HOURS.search(t) or _ONE_RUN.search(t):
        return q(g), _guess_hours(g)
    if _HOW_LONG.search(t) and i + 1 < len(ctx.sentences):
        nxt = ctx.sentences[i + 1].text
        if _GUESS_CUE.search(nxt) and (g := _GUESS_HOURS.search(nxt)):
            return q(g), _guess_hours(g)
    if _THAT_WINDOW.search(t):
        ref = ctx.reference_time.date()
        for s in ctx.sentences[: i + 1]:
            span_rx, date_rx = _date_span()
            if (span := span_rx.search(s.text)) is None:
                continue
            ma, mb = date_rx.match(span.group("a")), date_rx.match(span.group("b"))
            a = date_of(ma, ref) if ma else None
            b = date_of(mb, a or ref) if mb else None
            if a is not None and b is not None and b > a:
                return f'"{q(span)}": {(b - a).days} days x 24 h', (b - a).days * 24.0
        for s in reversed(ctx.sentences[: i + 1]):
            if (period := _FOR_PERIOD.search(s.text)) is not None:
                return f'"{q(period)}" (the window asked about)', _period_hours(period)
    if span := _CLAIM_SPAN.search(t):
        h = _span_hours(span)
        return f'"{q(span)}" read as {h:g} h', h
    return "", None


def _period_hours(m: re.Match[str]) -> float:
    """The hours of a _FOR_PERIOD match ("for the next 10 days": 240 h, 24 h a day)."""
    unit = m.group("unit").lower()
    name = "month" if unit.startswith("mo") else {"d": "day", "w": "week"}.get(unit[0], "hour")
    num = m.group("num")
    return U.hours_from(1.0 if num.lower() in ("a", "an") else parse_number(num), name).value


def _guess_hours(g: re.Match[str]) -> float:
    unit = g.group("unit").lower()
    if "one" not in g.re.groupindex:
        return U.hours_from(parse_number(g.group("num")), "day" if unit.startswith("d") else "hour").value
    name = "month" if unit.startswith("mo") else {"d": "day", "w": "week"}.get(unit[0], "hour")
    return U.hours_from(parse_number(g.group("num")) if g.group("num") else 1.0, name).value


def _claimed_hours(hours: re.Match[str]) -> float:
    """The hours of a _CLAIM_HOURS match ("in 24 h", "within 3 days", "under 2 weeks", "in 1 month")."""
    unit = hours.group("unit").lower()
    name = "month" if unit.startswith("mo") else {"d": "day", "w": "week", "m": "minute"}.get(unit[0], "hour")
    return U.hours_from(parse_number(hours.group("num")), name).value
