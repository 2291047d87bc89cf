"""Corrections of what was said before, in a later turn or later in the same text (issue 12: a revision
the user makes must not vanish because it leans on the earlier words).

- A figure replaced: "scratch the 70M: after filtering it's 45M", "45M, not 70M", "the 20k was wrong, it's
  15k". The figure named as replaced is matched to the field that holds that value (from an earlier turn,
  or earlier in the text); the new figure takes that field, and a bare number takes the replaced figure's
  unit ("70M ... it's 45" is 45M). Only where one field holds that value, and the new figure carries no
  unit of another field ("scratch the 8: 4 GPUs" does not change 8 epochs).
- Owned cards recounted: "sorry, miscounted: it's 8 of them", "two boxes of four" (8), "16 in total"
  once the owned GPU is known; in a sentence that corrects ("sorry", "actually", "miscounted": the
  cues of advisor/extract/rules_ctx.py CORRECTION).
- A deadline moved: "the deadline got pulled in to this Friday", "due date pushed back to Dec 4", "the
  deadline is now Thursday": the new date read as "by <date>" (advisor/extract/rules_money_time.py).
"""

from __future__ import annotations

import re
from typing import Any

from advisor.extract import units_text as U
from advisor.extract.base import Finding, select_findings
from advisor.extract.regex_keys import keyed
from advisor.extract.rules_calendar import rule_calendar_deadlines
from advisor.extract.rules_ctx import QUOTED_PENALTY, Ctx, I, negated, q
from advisor.extract.rules_dates import rule_deadline_phrases
from advisor.extract.rules_deadline_forms import rule_deadline_forms
from advisor.extract.rules_models import GPU_RE, _catalog, find_providers, resolve_gpu
from advisor.extract.rules_money_time import rule_deadline
from advisor.extract.rules_text import MULTIPLIERS, NUM, NUMBER, Sentence, parse_number
from tools.units import HOURS_PER_DAY, HOURS_PER_MONTH

# fields a figure can stand for, with the unit words that name each (a new figure followed by another
# field's unit word is that field's, not the replaced one's)
_UNITS: dict[str, tuple[str, ...]] = {
    "dataset_tokens": ("tokens", "token", "toks", "tok", "words"),
    "generation_tokens": ("tokens", "token", "toks", "tok"),
    "epochs": ("epochs", "epoch", "passes", "pass"),
    "budget_usd": ("usd", "dollars", "bucks", "eur", "euros", "gbp"),
    "concurrency": ("users", "concurrent", "sessions", "requests", "streams", "people"),
    "context_len": ("context", "ctx", "tokens"),
    "prompt_tokens": ("tokens", "token", "input"),
    "output_tokens": ("tokens", "token", "output"),
    "seq_len": ("tokens", "seq", "sequence"),
    "lora_rank": ("rank", "r"),
    "batch_size": ("batch", "sequences"),
    "owned_gpu_count": ("gpus", "gpu", "cards", "card", "of"),
    "max_gpus": ("gpus", "gpu", "cards", "card"),
    "horizon_months": ("months", "month", "mo"),
    "runs_per_month": ("runs", "times", "jobs"),
}
_INTEGER = {"concurrency", "context_len", "prompt_tokens", "output_tokens", "seq_len", "lora_rank",
            "batch_size", "owned_gpu_count", "max_gpus"}  # fmt: skip
_ALL_UNITS = frozenset(w for words in _UNITS.values() for w in words) | {
    "hours", "hour", "h", "days", "day", "weeks", "week", "gb", "tb", "ms", "%", "percent", "b",
    "billion", "params", "parameters", "nodes", "servers", "boxes", "machines",
}  # fmt: skip
_FIGURE = re.compile(
    rf"(?:(?P<cur>[$€£])\s*)?(?P<num>{NUM})\s*(?P<mult>thousand|million|billion|mm|mn|bn|k|m|b)?\b(?!\.\d)", I
)
# what marks a figure as the one replaced: "scratch the 70M", "not 70M", "instead of 3", "from 4 to 8",
# "the 70M was wrong", "70M -> 45M"
_OLD_BEFORE = re.compile(
    r"(?:\bscratch|\bforget|\bignore|\bdisregard|\bnot|n't|\binstead\s+of|\brather\s+than|\breplace"
    r"|(?P<weak>\bfrom|\bdrop|\bswap|\bchange|\bcorrect|\bthan))\s+(?:the\s+|that\s+|my\s+|those\s+|our\s+"
    r"|about\s+|~\s*)?$",
    I,
)
_OLD_AFTER = re.compile(
    # a corrigendum's wording (evals v18): '"32 GPUs" is replaced by "16 GPUs"', "8 weeks is amended to 6"
    r"^\s*(?:[a-z]+\s*)?[\"'”’]?\s*(?:->|→|=>|is\s+now|are\s+now|should\s+(?:be|read|have\s+been)|becomes?|became"
    r"|(?:is|are|shall\s+be)\s+(?:replaced\s+(?:by|with)|amended\s+to|changed\s+to)"
    r"|(?:is|was|were)\s+(?:wrong|a\s+typo|off|outdated|out\s+of\s+date|too\s+(?:high|low|much|many))|(?P<weak>to\s+\d))",
    I,
)
# any of the words above: a sentence without one (and no correction cue) replaces nothing
_OLD_CUE = keyed(
    r"\b(?:scratch|forget|ignore|disregard|not|instead|rather|replace|replaced|amended|now|should|becomes?|became|wrong|typo|off"
    r"|outdated|too)\b|n't|->|→|=>",
    I,
)
_REJECTING = re.compile(
    r"(?:\bnot|n't|\binstead\s+of|\brather\s+than|\bthan)\s+(?:the\s+|about\s+|~\s*)?$", I
)
_TOLERANCE = 1e-6

# ------------------------------------------------------------------------------------------ recount
_MACHINE = r"(?:nodes?|servers?|boxes|box|machines?|hosts?|workstations?|chassis)"
_OF_THEM = keyed(
    rf"\b(?P<num>{NUMBER})\s+(?:of\s+(?:them|those|these|the\s+cards|the\s+gpus)|(?:cards?|gpus?\s+)?in\s+total"
    rf"|total\b)",
    I,
)
# "it's 8 cards", "there are actually 8 GPUs" in a sentence that corrects
_CARDS = keyed(
    rf"\b(?:it'?s|they'?re|there\s+are|we\s+have|we've\s+got)\s+(?:actually\s+|really\s+|only\s+)?"
    rf"(?P<num>{NUMBER})"
    # "Correction: it's 6 now, two of them died last week" (evals v14): the count left, not the two lost
    rf"\s+(?:cards|gpus|left)\b|\b(?:it'?s|we\s+have)\s+(?P<num3>{NUMBER})\s+now(?=\s*(?:[,.;:!)]|$))"
    # the share left to this job: "2 of the 4 are tied up elsewhere, so we'd only get 2"
    rf"|\b(?:we'?d|we\s+would|we(?:'ll|\s+will|\s+can)?)\s+only\s+(?:get|have|use)\s+(?P<num2>{NUMBER})\b",
    I,
)
_COUNT_BEFORE = re.compile(rf"(?<![\w.$€£])(?P<num>{NUMBER})\s*[x×]?\s*(?=[a-z])", I)
# the owned card's variant corrected: "they're the 80GB PCIe version", "it's the SXM 80 GB model"
_VARIANT = keyed(
    r"\b(?:they'?re|they\s+are|it'?s|it\s+is|those\s+are|these\s+are)\s+(?:actually\s+)?(?:the\s+|all\s+)?"
    r"(?P<words>(?:(?:\d{2,3}\s?gb|pcie|sxm\d?|nvl)[\s,-]*){1,3})(?:version|variant|model|cards?|ones|edition)?\b",
    I,
)
_BOXES = keyed(
    rf"\b(?P<num>{NUMBER})\s+{_MACHINE}\s+(?:of|with)\s+(?P<per>{NUMBER})(?:\s+(?:cards?|gpus?))?(?:\s+(?:in\s+)?each)?\b",
    I,
)

# ------------------------------------------------------------------------------------------ withdrawn
# "forget what I said about spot", "scratch the bit about GCP", "ignore the $10k", "forget the 4th"
_WITHDRAW = keyed(
    r"\b(?:forget|scratch|ignore|disregard|drop|strike)\s+(?:about\s+)?(?:what\s+(?:i|we)\s+(?:said|wrote|told\s+you)"
    r"\s+(?:about|on|re|regarding)\s+|(?:the\s+)?(?:bit|part|thing)\s+about\s+|my\s+|that\s+|the\s+)?"
    r"(?P<topic>[^,.;:!?]{1,40})",
    I,
)
# a pricing option allowed after all: "spot is fine", "spot is 100% fine", "preemptible VMs are OK"
_ALLOWED = keyed(
    r"\b(?P<topic>spot|pre-?emptible|interruptible|reserved)(?:\s+(?:instances|capacity|vms?|nodes))?\s+"
    r"(?:is|are|'s)\s+(?:\d+\s*%\s+|totally\s+|perfectly\s+|completely\s+|actually\s+|now\s+)?"
    r"(?:fine|ok|okay|allowed|acceptable)\b",
    I,
)
_ALL_BUT = re.compile(r"\b(?:anything|everything|all)\s+(?:but|except|other\s+than|besides)\s*$", I)
_TOPIC_PRICING = {"spot": r"\bspot\b|preempt|interrupt", "reserved": r"\breserved\b|commitment"}
_TOPIC_DEADLINE = re.compile(
    r"\b(?:deadline|date|due|\d{1,2}(?:st|nd|rd|th)|monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|jan\w*|feb\w*|mar(?:ch)?|apr\w*|may|june?|july?|aug\w*|sep\w*|oct\w*|nov\w*|dec\w*)\b",
    I,
)
_TOPIC_BUDGET = re.compile(r"[$€£]|\b(?:budget|cap|money|spend\w*|usd|eur|gbp|\d+\s*k)\b", I)
_LIST_FIELDS = ("providers_required", "providers_preferred", "providers_excluded")


def _withdrawn(ctx: Ctx, s: Sentence) -> None:
    """A statement withdrawn: its field back to unknown (a deadline, a budget) or its value off a list (a
    provider required or excluded, spot ruled out). The EU rule lifted is read in rules_constraints."""
    m = _WITHDRAW.search(s.text) or _ALLOWED.search(s.text)
    if m is None or negated(s.text, m.start()) or _ALL_BUT.search(s.text, 0, m.start()):
        return  # "anything but spot is fine": spot is the one thing not fine
    topic, at = m.group("topic"), m.start()
    if (
        about := re.match(r"\s*(?:and\s+)?(?:re|about|as\s+for|regarding)\s+([^,.;:]{1,30})[:,]", s.text)
    ) is not None:
        topic = f"{about.group(1)} {topic}"  # "re spot: forget what I said"
    said = q(m)

    def drop(field: str, value: object) -> None:
        ev = f'"{said}": withdrawn'
        ctx.findings.append(Finding(field=field, value=value, status="stated", evidence=ev,
                                    position=s.start + at, correction=True, retract=True))  # fmt: skip

    providers = [p for p, _, _ in find_providers(topic)]
    for value, rx in _TOPIC_PRICING.items():
        if re.search(rx, topic, I):
            drop("pricing_excluded", [value])
    if providers:
        for field in _LIST_FIELDS:
            drop(field, providers)
    elif _TOPIC_BUDGET.search(topic):
        drop("budget_usd", None)
    elif _TOPIC_DEADLINE.search(topic):
        drop("deadline_hours", None)


# ------------------------------------------------------------------------------------------ deadline moved
_MOVED = keyed(
    r"\b(?:deadline|due\s+date|delivery|launch|demo|cut-?off|it)\b[^.;!?]{0,40}?\b(?:moved|pulled|brought"
    r"|pushed|shifted|changed|slipped|bumped|got\s+moved|was\s+moved)\s+(?:in\s+|up\s+|forward\s+|back\s+|out\s+"
    r"|ahead\s+)?(?:to|till|until)\s+"
    r"|\b(?:deadline|due\s+date)\s*(?:is\s+|'s\s+)?now\s+(?:on\s+)?",  # "Deadline's now the 15th"
    I,
)


def rule_corrections(ctx: Ctx) -> None:
    """Figures replaced, owned cards recounted, deadlines moved and statements withdrawn (see the module
    docstring)."""
    for s in ctx.sentences:
        if s.start in ctx.claim_sentences:
            continue
        if not _shifted_deadline(ctx, s):
            _moved_deadline(ctx, s)
        _withdrawn(ctx, s)
        _recounted_items(ctx, s)
        correcting = ctx.is_correction(s)
        if not (correcting or _OLD_CUE.search(s.text)):
            continue
        known = _known(ctx, s)
        if not known:
            continue
        recounted = correcting and _recount(ctx, s, known)
        if _FIGURE.search(s.text):
            _replaced_figure(ctx, s, known, correcting, skip={"owned_gpu_count"} if recounted else set())


# a batch's item count revised in a later turn (rd15): "Also the doc count went up to 1.1M", "it's now 2M
# documents", "make it 1.5M prompts": the volume again from the output each, and the rate by the deadline
_ITEMS_NOW = re.compile(
    r"\b(?:doc(?:ument)?|item|prompt|review|article|ticket|record|row|page|e-?mail|message|question|sample|file"
    r"|request|input)s?\s+(?:count|number|volume|total)\s+(?:went|goes|has\s+gone|is\s+going|grew|jumped|rose"
    r"|dropped|fell|is\s+now|changed|is\s+up|is\s+down)\s+(?:up\s+|down\s+)?(?:to\s+)?(?:about\s+|~\s*)?"
    rf"(?P<num>{NUMBER})\s*(?P<mult>k|m|million|thousand)?\b"
    rf"|\b(?:(?:it'?s|we\s+have|there\s+are)\s+now|make\s+it)\s+(?:about\s+|~\s*)?(?P<num2>{NUMBER})\s*"
    r"(?P<mult2>k|m|million|thousand)?\s+(?:\w+\s+)?(?:docs|documents|items|prompts|reviews|articles|tickets"
    r"|records|rows|pages|e-?mails|messages|questions|samples|files|requests|inputs)\b",
    I,
)


def _recounted_items(ctx: Ctx, s: Sentence) -> None:
    """generation_tokens and target_tokens_per_s again when a later turn revises a batch's item count."""
    prior = ctx.prior
    if prior is None or prior.generation_tokens is None or (m := _ITEMS_NOW.search(s.text)) is None:
        return
    said_out = [f.value for f in ctx.findings if f.field == "output_tokens"]
    out = said_out[-1] if said_out else prior.output_tokens
    if not out:
        return
    mult = (m.group("mult") or m.group("mult2") or "").lower()
    count = parse_number(m.group("num") or m.group("num2")) * MULTIPLIERS.get(mult, 1.0)
    gen = count * float(out)
    ev = f'"{q(m)}" x {out} output tokens each = {gen:,.0f} tokens'
    ctx.add(s, "generation_tokens", gen, ev, "inferred", _end(s))
    said_hours = [f.value for f in ctx.findings if f.field == "deadline_hours"]
    hours = said_hours[-1] if said_hours else prior.deadline_hours
    if hours:
        conv = U.rate_from_volume(gen, float(hours))
        ctx.add(s, "target_tokens_per_s", conv.value, f'"{q(m)}": {conv.how}', "inferred", _end(s))


def _known(ctx: Ctx, s: Sentence) -> dict[str, Any]:
    """The values held before sentence `s`: the earlier turns' profile, then what this text said before."""
    known: dict[str, Any] = {}
    if ctx.prior is not None:
        known = {name: getattr(ctx.prior, name) for name in (*_UNITS, "owned_gpu")}
    # each field's finding latest in position before `s` (the later one in the list on a tie), in one pass:
    # sorting every finding for each correcting sentence grew with the square of a long brief (speed9)
    # (a field new to `known` goes in where its earliest such finding stands: `_replaced_figure` reads them
    # in order)
    first: dict[str, tuple[int, int]] = {}
    latest: dict[str, tuple[int, int]] = {}
    for i, f in enumerate(ctx.findings):
        if f.position < s.start and (f.field in _UNITS or f.field == "owned_gpu"):
            if f.field not in latest:
                first[f.field] = latest[f.field] = (f.position, i)
            elif (f.position, i) > latest[f.field]:
                latest[f.field] = (f.position, i)
            elif (f.position, i) < first[f.field]:
                first[f.field] = (f.position, i)
    for name in sorted(latest, key=first.__getitem__):
        known[name] = ctx.findings[latest[name][1]].value
    return {k: v for k, v in known.items() if v is not None}


def _end(s: Sentence) -> int:
    """An offset at the end of `s`: a correction wins over the figures its own sentence repeats."""
    return len(s.text)


def _recount(ctx: Ctx, s: Sentence, known: dict[str, Any]) -> bool:
    """owned_gpu_count from "8 of them" / "two boxes of four" once the owned GPU is known."""
    if "owned_gpu" not in known or _read_in(ctx, s, "owned_gpu_count"):
        return False  # the rules read a count in this sentence themselves
    t = s.text
    _variant(ctx, s, str(known["owned_gpu"]))
    if (m := _CARDS.search(t)) is not None:
        n = int(parse_number(m.group("num") or m.group("num2") or m.group("num3")))
        said = f'"{q(m)}" (the {known["owned_gpu"]} said before)'
        ctx.add(s, "owned_gpu_count", n, said, "stated", _end(s))
        return True
    for m in _COUNT_BEFORE.finditer(t):
        # the owned card named again with its count: "Sorry, 8 L40S, two more arrived last week" (evals v17)
        g = GPU_RE.match(t, m.end())
        if g is not None and resolve_gpu(g.group("gpu")) == known["owned_gpu"]:
            n = int(parse_number(m.group("num")))
            said = f'"{t[m.start() : g.end()]}" (said again, corrected)'
            ctx.add(s, "owned_gpu_count", n, said, "stated", _end(s))
            return True
    if (m := _OF_THEM.search(t)) is not None:
        n = int(parse_number(m.group("num")))
        said = f'"{q(m)}"'
        if (
            boxes := _BOXES.search(t)
        ) is not None:  # "8 of them, two boxes of four": the same count, explained
            said += f', "{q(boxes)}"'
        ctx.add(s, "owned_gpu_count", n, f"{said} (the {known['owned_gpu']} said before)", "stated", _end(s))
        return True
    if (m := _BOXES.search(t)) is not None:
        n = int(parse_number(m.group("num")) * parse_number(m.group("per")))
        ctx.add(s, "owned_gpu_count", n, f'"{q(m)}" = {n} x {known["owned_gpu"]}', "inferred", _end(s))
        return True
    return False


def _variant(ctx: Ctx, s: Sentence, owned: str) -> None:
    """owned_gpu's memory or form factor corrected ("they're the 80GB PCIe version"): the same card family
    in the variant named, when the catalog knows it."""
    m = _VARIANT.search(s.text)
    if m is None or _read_in(ctx, s, "owned_gpu"):
        return
    family = owned.split("-")[0]
    gid = resolve_gpu(f"{family} {' '.join(m.group('words').replace(',', ' ').split())}")
    if gid != owned and _catalog_gpu(gid):
        ctx.add(s, "owned_gpu", gid, f'"{q(m)}" (the {owned} said before)', "stated", _end(s))


def _catalog_gpu(gid: str) -> bool:
    cat = _catalog()
    return cat is not None and cat.has_gpu(gid)


def _read_in(ctx: Ctx, s: Sentence, name: str) -> bool:
    """Whether the rules read `name` from sentence `s` itself."""
    return any(f.field == name and s.start <= f.position <= s.start + len(s.text) for f in ctx.findings)


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= _TOLERANCE * max(1.0, abs(b))


def _value(m: re.Match[str], mult: str | None) -> float:
    return parse_number(m.group("num")) * (MULTIPLIERS[mult.lower()] if mult else 1.0)


def _unit_after(t: str, end: int) -> str:
    m = re.match(r"\s*([a-z%]+)", t[end : end + 20], I)
    return m.group(1).lower() if m else ""


def _replaced_figure(ctx: Ctx, s: Sentence, known: dict[str, Any], correcting: bool, skip: set[str]) -> None:
    """The field whose value a figure named as replaced holds, set to the sentence's new figure. "from",
    "change", "than" mark the replaced figure only in a sentence that corrects ("actually, from 4 to 8";
    not "grow from 4 to 8 GPUs next year")."""
    t = s.text
    figures = list(_FIGURE.finditer(t))
    if len(figures) < 2:  # noqa: PLR2004 - an old and a new figure
        return
    for old in figures:
        before = t[max(0, old.start() - 25) : old.start()]
        cue = _OLD_BEFORE.search(before)
        if cue is not None and cue.group("weak") and not correcting:
            cue = None
        if cue is None:
            after = _OLD_AFTER.match(t[old.end() : old.end() + 30])
            if after is None or (after.group("weak") and not correcting):
                continue
        value = _value(old, old.group("mult"))
        held = {
            f: float(v)
            for f, v in known.items()
            if f in _UNITS and f not in skip and isinstance(v, int | float)
        }
        said_unit = _unit_after(t, old.end())  # "not 3 days" is no figure of 3 epochs
        fields = [
            f
            for f, v in held.items()
            if _same(v, value) and (said_unit not in _ALL_UNITS or said_unit in _UNITS[f])
        ]
        if len(fields) != 1:
            continue
        field = fields[0]
        rejecting = _REJECTING.search(before) is not None  # "45M, not 70M": the new figure came first
        unit = old.group("mult")
        others = [m for m in figures if m is not old and not _same(_value(m, m.group("mult") or unit), value)]
        ahead = [m for m in others if (m.start() < old.start()) == rejecting]
        pick = (ahead[-1] if rejecting else ahead[0]) if ahead else (others[0] if others else None)
        if pick is None:
            continue
        word = _unit_after(t, pick.end())
        if word in _ALL_UNITS and word not in _UNITS[field]:
            continue  # "4 GPUs" is not the epochs it sits beside
        new = _value(pick, pick.group("mult") or unit)
        if field in _INTEGER:
            if new != int(new):
                continue
            new = int(new)
        said = f'"{q(pick)}" replaces "{q(old)}"'
        if old.group("mult") and not pick.group("mult"):
            said += f" (a bare number in the unit of {q(old)})"
        ctx.add(s, field, new, said, "stated", _end(s))
        return


# a deadline shifted by a span from the earlier turns' one: "the deadline got pushed back by two weeks",
# "moved out a week", "pulled in by 3 days", "the deadline is now a week later" (issue 12, gap 6: the span was
# read as a new deadline counted from now, which moved a 20 December deadline earlier, to 12 December)
_SHIFTED = keyed(
    rf"\b(?:deadline|due\s+date|delivery|launch|cut-?off|it)\b[^.;!?]{{0,40}}?\b(?:(?P<earlier>(?:pulled|brought"
    r"|moved)\s+(?:in|forward|up))|(?P<later>pushed|moved|shifted|slipped|extended|bumped|delayed)(?:\s+(?:back"
    rf"|out))?)\s+(?:by\s+)?(?:an?\s+|(?P<num>{NUMBER})\s+)(?P<unit>days?|weeks?|months?)\b"
    rf"|\b(?:deadline|due\s+date)\b[^.;!?]{{0,30}}?\b(?:an?\s+|(?P<num2>{NUMBER})\s+)(?P<unit2>days?|weeks?"
    r"|months?)\s+(?P<dir>later|earlier|sooner)\b",
    I,
)
_SPAN_HOURS = {"day": HOURS_PER_DAY, "week": U.HOURS_PER_WEEK, "month": HOURS_PER_MONTH}  # tools.units


def _shifted_deadline(ctx: Ctx, s: Sentence) -> bool:
    """deadline_hours from the earlier turns' deadline shifted by the span said; True when read."""
    before = ctx.prior.deadline_hours if ctx.prior is not None else None
    if before is None or (m := _SHIFTED.search(s.text)) is None:
        return False
    num = m.group("num") or m.group("num2")
    unit = (m.group("unit") or m.group("unit2")).lower().rstrip("s")
    span = (parse_number(num) if num else 1.0) * _SPAN_HOURS[unit]
    sign = -1.0 if m.group("earlier") or (m.group("dir") or "").lower() in ("earlier", "sooner") else 1.0
    hours = before + sign * span
    if hours <= 0:
        return False
    ev = f'"{q(m)}": the earlier deadline ({before:,.0f} h then) {"+" if sign > 0 else "-"} {span:,.0f} h'
    ctx.add(s, "deadline_hours", hours, ev, "stated", len(s.text))  # after the span's own reading: it wins
    return True


def _moved_deadline(ctx: Ctx, s: Sentence) -> None:
    """deadline_hours from "the deadline got pulled in to this Friday": the new date read as 'by ...'."""
    t = s.text
    m = _MOVED.search(t)
    if m is None or _read_in(ctx, s, "deadline_hours"):
        return
    rest = re.split(r"[,;:]|\s+(?:and|but|so)\s+", t[m.end() :], maxsplit=1)[0]
    moved = Sentence(text=f"by {rest}", start=s.start, block=s.block, quoted=s.quoted, section=s.section)
    sub = Ctx(sentences=(moved,), reference_time=ctx.reference_time)
    # every way a date is read: "by end of January" is rule_deadline_phrases', "by EOM" rule_deadline_forms'
    for rule in (rule_deadline, rule_deadline_forms, rule_deadline_phrases, rule_calendar_deadlines):
        rule(sub)
    if (f := select_findings(sub.findings).get("deadline_hours")) is not None:
        # the user's words quoted (the accounting finds them), the reading of "by ..." unquoted
        said = f'"{t[m.start() : m.end()]}{rest}" -> {f.evidence.replace(chr(34), "")}'
        ctx.add(s, "deadline_hours", f.value, said, f.status, m.end())


# the writer sets the quoted thread aside (rd15): "ignore the numbers in the thread below, they're from the
# Q2 plan we killed", "disregard the older e-mail": nothing read from the quoted message stands (its scalar
# figures already rank below the writer's own; its lists, such as the GPUs it named, would otherwise stay)
_IGNORE_QUOTED = re.compile(
    r"\b(?:ignore|disregard|forget(?:\s+about)?|don'?t\s+(?:go\s+by|use|look\s+at))\s+[^.;]{0,40}?\b(?:below"
    r"|(?:the\s+)?(?:old(?:er)?|previous|original|earlier|forwarded)\s+(?:e-?mails?|mails?|messages?|thread|plan)"
    r"|(?:the|this)\s+thread)\b",
    I,
)


def rule_ignored_quotes(ctx: Ctx) -> None:
    """Findings of quoted (older) messages dropped when the writer's own text says to ignore them."""
    if not any(s.quoted for s in ctx.sentences):
        return
    if any(not s.quoted and _IGNORE_QUOTED.search(s.text) for s in ctx.sentences):
        ctx.findings[:] = [f for f in ctx.findings if f.position > -QUOTED_PENALTY // 2]
