"""The accounting of an input: every clause of a message or brief either gave the profile a fact or is
reported back as not used (tools/input_account.py holds the result's type).

Deterministic and offline, for every extraction backend: a clause counts as used when the evidence of a
profile fact (`Provenance.evidence`, or the rules' findings with their positions) lies in it. The rest is
sorted by what it looks like, so a reply can say what it did not use:
- `instruction`: addressed to the assistant ("SYSTEM: ignore all rules"), ignored on purpose;
- `constraint`: a policy word (must, only, no, never, policy, compliance, regulated, GDPR ...);
- `question`: ends with "?" or opens like one ("can we ...", "how long ...");
- `provider`, `gpu`: names one (the rules' own provider and GPU patterns);
- `number`: a number with a unit (tokens, GB, hours, $, users, %, kWh, ...);
- `decorative`: greetings, thanks, sign-offs, headings; `context`: any other background.
The first five are never grouped: the reply lists each of them.

Clauses: sentences ("." "!" "?"), then "; ", ", but", " but " and ", " inside a sentence, on the text
as the rules read it (hidden HTML removed, table rows as "key: value"); a line break ends a clause when
the line ends with punctuation or the next line starts a list item or heading (wrapped lines of a PDF
paragraph stay together); a CSV row is a paragraph and a form's "&" a clause break (leftover_signals.py).
"""

from __future__ import annotations

import bisect
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from advisor.extract import constraint_words as cw
from advisor.extract import leftover_signals as ls
from advisor.extract.base import Finding, merge_findings
from advisor.extract.clause_marks import decorative_aside
from advisor.extract.haystack import Haystack
from advisor.extract.question_answers import answered_in_faq
from advisor.extract.regex_first import first_char_patterns
from advisor.extract.regex_keys import key_patterns, keyed
from advisor.extract.rules import OTHER_MODULES, Analysis, RulesExtractor
from advisor.extract.rules_models import GPU_RE, find_providers
from advisor.extract.rules_text import _SPEAKER, _STEERING, NUM, WORD_NUMBERS, clean
from advisor.extract.unreadable import Unreadable, find_unreadable
from advisor.llm.guard import instruction_spans
from tools.input_account import MAX_CLAUSE_CHARS, MAX_CLAUSES, ClauseKind, InputAccount, UnusedClause
from tools.profile import WorkloadProfile

I = re.I  # noqa: E741

_POLICY = keyed(
    r"\b(?:must|mustn'?t|only|no|not|never|policy|policies|complian(?:ce|t)|regulated|regulation|required?|"
    r"requirements?|mandatory|forbidden|prohibited|not allowed|cannot|can'?t|won'?t|don'?t|gdpr|hipaa|"
    r"soc ?2|iso ?27001|residen(?:cy|t)|sovereign(?:ty)?|on[- ]?prem(?:ises)?|at most|at least|no more than|"
    r"maximum|minimum|limit(?:ed)?|exclude[sd]?|avoid|allowed|forbid(?:s|den)?|prohibit(?:s|ed)?|caps?|capped)\b",
    I,
)
# an on-prem leftover is honoured once the profile is on-prem (account_for); the words a read clause still
# states on their own are advisor/extract/constraint_words.py's
_LEFTOVER_POLICY = keyed(r"\bon[- ]?prem(?:ise|ises)?\b", I)
MAX_LEFTOVERS_PER_CLAUSE = 3
LEFTOVER_SCAN_CHARS = 2000
_DIGIT = re.compile(r"\d")
LEFTOVER_WORDS_BEFORE = 1
LEFTOVER_WORDS_AFTER = 2
_QUESTION_OPEN = keyed(
    r"^(?:so\s+|and\s+|also\s+|but\s+)?(?:can|could|should|would|will|is|are|do|does|did|how|what|which|"
    r"when|where|why|who|any idea|is it true|am i)\b"
    r"(?!\s+(?:rather|prefer|prefers|preferably)\b)",  # "but would rather use less": a preference
    I,
)
_UNIT = (
    rf"(?:{ls.EXTRA_UNITS}|tokens?|tokns?|toks?|[kmbt]\b|k?b\b|mb|gb|tb|pb|gib|tib|bytes?|params?|parameters|"
    r"hours?|hrs?|h\b|"
    r"days?|weeks?|months?|years?|mins?|minutes?|seconds?|secs?|ms\b|s\b|users?|requests?|req/?s|rps|qps|"
    r"queries|sessions|docs?|documents?|tickets?|samples?|examples?|rows?|records?|pages?|files?|epochs?|"
    r"steps?|gpus?|nodes?|servers?|boxes|cards?|x\b|%|percent|kwh|kw|w\b|watts?|usd|eur|gbp|dollars?|"
    r"euros?|bucks|ctx|context|seq|sequence|dim|layers?|per\b|/)"
)
# a figure: digits, or a number word other than "a"/"an" ("a small team" holds no figure)
_FIGURE = NUM + r"|\b(?:" + "|".join(w for w in WORD_NUMBERS if w.isalpha() and len(w) > 2) + r")\b"
_NUMBER_UNIT = re.compile(
    rf"[$€£]\s*{NUM}|(?:{_FIGURE})\s*(?:thousand|million|billion|trillion|mm|mn|bn|tn|[kmbt])?\s*(?:{_UNIT})"
    rf"|{NUM}\s+(?!(?:and|or|to|of|the|in|on|at|for|with|from|by|we|it|is|are|was)\b)[a-z]{{3,}}"
    # a setting with its value, as configs and command lines write it ("lora_r: 64", "--max-num-seqs 64")
    r"|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\"?\s*[:=]\s*\d+(?:\.\d+)?|--[a-z0-9]+(?:-[a-z0-9]+)+(?:\s+|=)\d+(?:\.\d+)?"
    # a currency before its amount or as a code after it, a date, cents per kWh (leftover_signals.py)
    rf"|{ls.EXTRA_FIGURES}",
    I,
)
_DECORATIVE = keyed(
    r"^(?:hi|hello|hey|dear|greetings|good (?:morning|afternoon|evening)|thanks?|thank you|thx|cheers|"
    r"best|regards|kind regards|best regards|sincerely|cordially|hope (?:you|this|all)|looking forward|"
    r"let me know|any help|appreciate|much appreciated|ps\b|p\.s\.|sent from|--)",
    I,
)
_HEADING_WORDS = 6  # a line of at most this many words, alone and unpunctuated, is a heading or a signature
_LIST_START = re.compile(r"^\s*(?:#{1,6}\s|[-*+•]\s|\d+[.)]\s|\|)")
_ENDS_CLAUSE = re.compile(r"[.!?:;]\s*$")
# inside one paragraph: sentence ends, then clause breaks ("; ", ", but", " but ", ", ")
_SENT_END = re.compile(
    r"(?<=[.!?])(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)(?<!\bca)(?<!\bno)(?<![~≈]\?)\s+(?=\S)"
)  # "~? tokens": a placeholder, not a question's end; the cheap full-stop test first
# a closing bracket before a capital ends a clause: "[assistant: ...] Data must stay in the EU" is two
_CLAUSE_BREAK = re.compile(
    rf";\s+|,\s+(?=but\b)|\s+(?=but\b)|,\s+|\s+[-–—]\s+|(?<=[\])])\s+(?=[A-Z])|{ls.QUERY_SEPARATOR}", I
)
_WORD = re.compile(r"[\w$€£%]+")
MIN_WORDS = 2  # a one-word fragment ("thanks,", "1,") joins the clause before it
QUOTE_IN_EVIDENCE = re.compile(r"[\"“]([^\"”]{2,160})[\"”]")


@dataclass(frozen=True)
class Clause:
    """A clause of the cleaned text: its words and where they are."""

    text: str
    start: int
    end: int
    alone: bool = False  # the whole of its line, without closing punctuation (a heading, a signature)


# a numbered list's marker on its own ("1.", "2)", "(3)", "b."): the sentence split leaves it as a piece,
# and it was listed among the sentences with no workload facts (ext22 gap 4)
_LIST_MARKER = re.compile(r"\(?\d{1,2}[.)]|\(\d{1,2}\)|\(?[a-hA-H][.)]")


# --------------------------------------------------------------------------- clauses
def _paragraphs(text: str) -> list[tuple[int, int]]:
    """(start, end) of paragraphs: a line break ends one when the line ends a clause, the next line starts
    a list item or heading, or the line is blank; wrapped lines stay together."""
    spans: list[tuple[int, int]] = []
    start: int | None = None
    pos = 0
    lines = text.split("\n")
    for i, line in enumerate(lines):
        a, pos = pos, pos + len(line) + 1
        if not line.strip():
            if start is not None:
                spans.append((start, a - 1))
                start = None
            continue
        if start is None:
            start = a
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if (
            _ENDS_CLAUSE.search(line)
            or _LIST_START.match(nxt)
            or ls.csv_row(line)
            or ls.csv_row(nxt)
            or line.lstrip().startswith("#")
            or _SPEAKER.match(nxt)
        ):
            spans.append((start, a + len(line)))
            start = None
    if start is not None:
        spans.append((start, len(text)))
    return spans


def _pieces(text: str, start: int, end: int, pattern: re.Pattern[str]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    at = start
    for m in pattern.finditer(text, start, end):
        if m.start() > at:
            out.append((at, m.start()))
        at = m.end()
    if at < end:
        out.append((at, end))
    return out


def split_clauses(text: str) -> list[Clause]:
    """Clauses of `text` (already cleaned) with their offsets; short fragments join their neighbour."""
    clauses: list[Clause] = []
    for pa, pb in _paragraphs(text):
        # once per paragraph (per sentence, a paragraph of many short sentences was quadratic)
        single_line = "\n" not in text[pa:pb].strip() and not _ENDS_CLAUSE.search(text[pa:pb])
        for sa, sb in _pieces(text, pa, pb, _SENT_END):
            merged: list[tuple[int, int]] = []
            for ca, cb in _pieces(text, sa, sb, _CLAUSE_BREAK):
                if merged and len(_WORD.findall(text[ca:cb])) < MIN_WORDS:
                    merged[-1] = (merged[-1][0], cb)
                else:
                    merged.append((ca, cb))
            if len(merged) > 1 and len(_WORD.findall(text[merged[0][0] : merged[0][1]])) < MIN_WORDS:
                merged[:2] = [(merged[0][0], merged[1][1])]
            for ca, cb in merged:
                raw = text[ca:cb]
                lead = len(raw) - len(raw.lstrip(" \t\n-*+•>|#"))
                body = " ".join(raw.split()).lstrip("-*+•>|# ").rstrip(" .,;").strip()
                if _WORD.search(body) and not _LIST_MARKER.fullmatch(raw.strip()):  # "1." is no sentence
                    clauses.append(
                        Clause(text=body, start=ca + lead, end=cb, alone=single_line and len(merged) == 1)
                    )
    return clauses


# --------------------------------------------------------------------------- evidence
def evidence_quotes(evidence: str) -> list[str]:
    """The user's words inside an evidence string: its quoted parts ('"2 GB": 2 GB x ...' -> '2 GB'),
    else its '; '-separated parts (a list field's quotes), else the whole."""
    quoted = QUOTE_IN_EVIDENCE.findall(evidence)
    if quoted:
        return quoted
    parts = [p.strip() for p in evidence.split("; ") if p.strip()]
    return [*parts, evidence] if len(parts) > 1 else [evidence.strip()]


def _nearest(spans: list[tuple[int, int]], starts: list[int], position: int | None) -> list[tuple[int, int]]:
    """The span (of `spans`, sorted by their `starts`) starting nearest `position`, the earlier on a tie;
    every span when there is no position. Bisection: a quote repeated thousands of times ("$5 " * 7000)
    costs log(occurrences) per finding, not occurrences (that was quadratic)."""
    if position is None or len(spans) < 2:
        return spans
    i = bisect.bisect_left(starts, position)
    if i == 0:
        return [spans[0]]
    if i == len(spans) or position - starts[i - 1] <= starts[i] - position:
        return [spans[i - 1]]
    return [spans[i]]


# --------------------------------------------------------------------------- kinds
def clause_kind(text: str, alone: bool = False) -> ClauseKind:
    """What an unused clause looks like (see the module docstring); the first match wins. `alone`: the
    clause is a whole unpunctuated line (a short one is a heading or a signature). A clause is judged on
    its first LEFTOVER_SCAN_CHARS (and its last character): 20,000 characters of "1 1 1" without a stop
    took 50 ms to classify, and only its first MAX_CLAUSE_CHARS are quoted."""
    asks = text.rstrip().endswith("?")
    text = text[:LEFTOVER_SCAN_CHARS]
    if _STEERING.search(text) or _SPEAKER.match(text):
        return "instruction"
    if decorative_aside(text):
        return "decorative"
    if asks or _QUESTION_OPEN.match(text):
        return "question"
    if _POLICY.search(text) and not re.fullmatch(
        r"(?:no (?:rush|hurry|pressure|worries)|(?:if|or|why) not|not (?:sure|yet))\W*", text, I
    ):
        return "constraint"
    if find_providers(text):
        return "provider"
    if GPU_RE.search(text):
        return "gpu"
    if _NUMBER_UNIT.search(text):
        return "number"
    # "nothing reserved", "Spot OK", "data stays in Germany", "by Friday" (extract/constraint_words.py)
    if cw.states_constraint(text, heading=alone and len(text.split()) <= _HEADING_WORDS):
        return "constraint"
    if _DECORATIVE.match(text) or (alone and len(text.split()) <= _HEADING_WORDS):
        return "decorative"
    return "context"


def _joined(text: str, c: Clause, after: Clause) -> bool:
    """Whether clause `c` leads into `after` within one sentence (a comma, colon or dash between)."""
    return text[c.end : after.start].strip() in (",", ":", "-", "–", "—")


def _trim(text: str) -> str:
    return text if len(text) <= MAX_CLAUSE_CHARS else text[: MAX_CLAUSE_CHARS - 1].rstrip() + "…"


# --------------------------------------------------------------------------- the account
def account_input(
    text: str,
    evidence: Iterable[tuple[str, int | None]],
    ignored: Sequence[str] = (),
    unreadable: Sequence[Unreadable] = (),
    claims: Iterable[tuple[str, int | None]] = (),
) -> InputAccount:
    """The account of `text` given the evidence of the facts read from it: (quote, position or None).
    A position (the rules' offset of the finding) picks the nearest occurrence of a short quote; without
    one every occurrence counts. `ignored`: text the reader dropped before the clauses (hidden HTML
    comments addressed to a machine), listed as instructions. `unreadable`: quantities given in words that
    could not be read (advisor/extract/unreadable.py, offsets in the cleaned text): an unused clause holding
    one is listed as such; one inside a clause that gave other facts is listed on its own. `claims`: the
    evidence of the claims read (claimed GPU, count, hours): a question about named hardware in a clause
    that gave other facts and no claim is listed as a question answered by nothing."""
    cleaned = clean(text)
    clauses = split_clauses(cleaned)
    hay = Haystack(cleaned)
    # a quote repeated by many findings is searched once; its spans come sorted by start
    found: dict[str, tuple[list[tuple[int, int]], list[int]]] = {}
    spans: list[tuple[int, int]] = []
    unlocated: set[str] = set()
    for quote_text, position in evidence:
        for quote in evidence_quotes(quote_text):
            if quote not in found:
                occurrences = hay.spans(quote)
                found[quote] = (occurrences, [s[0] for s in occurrences])
                if not occurrences:
                    unlocated |= _figure_of(quote)
                else:  # a size restated ("8B chatbot" beside "Llama 3.1 8B"): read once, not lost
                    unlocated |= {f for f in _figure_of(quote) if f[-1].isalpha()}
            spans.extend(_nearest(*found[quote], position))
    starts = [c.start for c in clauses]
    injected = _covered(starts, clauses, instruction_spans(cleaned))
    evidenced = _covered(starts, clauses, spans)
    claimed = _covered(starts, clauses, [s for q, p in claims for s in _nearest(*_located(hay, q), p)])
    used: list[str] = []
    unused: list[UnusedClause] = []
    # a clause repeated word for word is read once (the rules read a sentence at most twice): its
    # repeats count as used when it gave a fact
    said = {" ".join(clauses[i].text.lower().split()) for i in evidenced}
    # the leftovers of the clauses read, not of their repeats (a repeat's words are all uncovered)
    leftovers = _leftovers(cleaned, clauses, evidenced - injected, sorted(spans), frozenset(unlocated))
    evidenced |= {i for i, c in enumerate(clauses) if " ".join(c.text.lower().split()) in said}
    coverage = _Coverage(sorted(spans))
    for i, c in enumerate(clauses):
        if i in injected or _STEERING.search(c.text):
            unused.append(UnusedClause(text=_trim(c.text), kind="instruction"))
        elif i in evidenced:
            used.append(_trim(c.text))
            unused.extend(leftovers.get(i, ()))
            # "Could our four NVLs do it?"; a what-if the rules read ("B200s instead?") is answered by a pick
            asked = [(c.start + a, c.start + b) for a, b in ls.asks_about_hardware(c.text)]
            if i not in claimed and any(not coverage.overlaps(*span) for span in asked):
                unused.append(UnusedClause(text=_trim(c.text), kind="question"))
        elif i + 1 in evidenced and _joined(cleaned, c, clauses[i + 1]) and ls.SOURCE_LEAD.fullmatch(c.text):
            used.append(_trim(c.text))  # "Per our cloud policy, [all ML workloads must run on AWS ...]"
        else:
            unused.append(UnusedClause(text=_trim(c.text), kind=clause_kind(c.text, c.alone)))
    unused = _with_unreadable(unused, unreadable)
    for hidden in ignored:
        if hidden.startswith("<!--"):
            unused.append(UnusedClause(text=_trim(hidden), kind="instruction"))
    return InputAccount(
        used=tuple(used[:MAX_CLAUSES]),
        unused=tuple(unused[:MAX_CLAUSES]),
        more_unused=max(0, len(unused) - MAX_CLAUSES),
    )


_Signal = ClauseKind | Literal["policy"]


def _located(hay: Haystack, quote: str) -> tuple[list[tuple[int, int]], list[int]]:
    """The spans of `quote` in the text and their starts (for _nearest)."""
    spans = [s for q in evidence_quotes(quote) for s in hay.spans(q)]
    spans.sort()
    return spans, [a for a, _ in spans]


def _signals(text: str, lo: int, hi: int) -> list[tuple[int, int, _Signal]]:
    """Everything in text[lo:hi] that states something on its own, sorted, as offsets in `text`: on-prem
    words, providers, GPUs, numbers with a unit and policy words ("policy": listed only when no read fact
    is near, leftover_signals.py)."""
    piece = text[lo:hi]
    found: list[tuple[int, int, _Signal]] = []
    found += [(a, b, "constraint") for a, b in cw.topic_spans(piece)]  # on-prem, EU, spot, by Friday ...
    found += [(a, b, "provider") for _, a, b in find_providers(piece)]
    if _DIGIT.search(piece):  # every GPU name holds a digit; word numbers ("two hundred users") do not
        found += [(m.start(), m.end(), "gpu") for m in GPU_RE.finditer(piece)]
    found += [(m.start(), m.end(), "number") for m in _NUMBER_UNIT.finditer(piece)]
    found += [(m.start(), m.end(), "number") for m in ls.CURRENCY_CODE.finditer(piece)]
    found += [(a, b, "policy") for a, b in ls.policy_spans(piece)]
    return [(lo + a, lo + b, kind) for a, b, kind in sorted(found)]


def _leftovers(
    text: str,
    clauses: list[Clause],
    evidenced: set[int],
    spans: list[tuple[int, int]],
    unlocated: frozenset[str] = frozenset(),
) -> dict[int, list[UnusedClause]]:
    """What each clause that gave other facts still states and no fact's evidence covers: a number with a
    unit, a provider, a GPU or an on-prem word ("On-prem DeepSeek-V3 for 100 users": the model was read,
    the deployment and the users were not), by clause index. Each is listed with a word before and two
    after, so a partly read clause cannot hide a fact (issue 12: nothing a user states may vanish).
    `spans`: evidence spans sorted by start; `unlocated`: the figures of evidence quotes not found verbatim
    in the text (typos the rules fixed) and the sizes with a magnitude ("8B", "30M") of those found. A
    clause is scanned up to LEFTOVER_SCAN_CHARS (prose has no longer clauses; a 20,000-character run of
    "1 1 1" would cost tens of milliseconds)."""
    covered = _Coverage(spans)
    starts = [c.start for c in clauses]
    read_classes: dict[int, set[str]] = {}
    listed_topics: set[tuple[int, str | None]] = set()
    out: dict[int, list[UnusedClause]] = {}
    listed = 0
    last_end = -1
    for a, b, kind in _scan(text, [clauses[i] for i in sorted(evidenced)]):
        i = bisect.bisect_right(starts, a) - 1
        c = clauses[i]
        mine = out.setdefault(i, [])
        if b > c.end or a < last_end or len(mine) >= MAX_LEFTOVERS_PER_CLAUSE or covered.overlaps(a, b):
            continue
        if kind == "number" and _figure_of(text[a:b]) & unlocated:
            continue  # its figure is in evidence quoted with a typo fixed ("50 concurent users")
        if kind == "policy":  # a modifier of a read fact ("must [stay in the EU]"), or one per clause
            near = _word_window(text, a, b, c.start, c.end, ls.NEAR_WORDS_AFTER, ls.NEAR_WORDS_BEFORE)
            if covered.overlaps(*near) or (i, kind) in listed_topics:
                continue
            listed_topics.add((i, kind))
        elif kind == "constraint":
            topic = cw.topic_class(text[a:b])
            if topic in _read_classes(text, c, covered, read_classes) or (i, topic) in listed_topics:
                continue  # a synonym of a fact read or listed from this clause ("EU only, Germany preferred")
            listed_topics.add((i, topic))
        after = LEFTOVER_WORDS_AFTER + (kind == "policy")  # "no more than [two hundred milliseconds]"
        x, last_end = _word_window(text, a, b, c.start, c.end, after)
        said = _trim(" ".join(text[x:last_end].split()).strip(" ,;."))
        if kind == "policy" and " " not in said:
            continue  # a policy word alone at a clause's edge ("max") says nothing a reader could act on
        mine.append(UnusedClause(text=said, kind="constraint" if kind == "policy" else kind))
        listed += 1
        if listed >= MAX_CLAUSES:
            break
    return {i: m for i, m in out.items() if m}


def _scan(text: str, clauses: list[Clause]) -> list[tuple[int, int, _Signal]]:
    """The signals of `clauses` (sorted by start), each clause up to LEFTOVER_SCAN_CHARS; neighbouring
    clauses are scanned as one range (a brief of many short sentences costs one pass per pattern)."""
    ranges: list[tuple[int, int]] = []
    for c in clauses:
        end = min(c.end, c.start + LEFTOVER_SCAN_CHARS)
        if ranges and c.start - ranges[-1][1] <= 2 and end - ranges[-1][0] <= 8 * LEFTOVER_SCAN_CHARS:
            ranges[-1] = (ranges[-1][0], end)
        else:
            ranges.append((c.start, end))
    return [s for lo, hi in ranges for s in _signals(text, lo, hi)]


class _Coverage:
    """Evidence spans (sorted by start) with the running maximum of their ends: whether [a, b) overlaps
    one of them is one bisection."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        self.spans = spans
        self.starts = [x for x, _ in spans]
        self.max_end: list[int] = []
        top = -1
        for _, y in spans:
            top = max(top, y)
            self.max_end.append(top)

    def overlaps(self, a: int, b: int) -> bool:
        i = bisect.bisect_left(self.starts, b)  # spans starting before b
        return i > 0 and self.max_end[i - 1] > a


MAX_SPANS_PER_CLAUSE = 200  # evidence spans looked at for one clause's read classes (a bound)


def _read_classes(text: str, c: Clause, covered: _Coverage, cache: dict[int, set[str]]) -> set[str]:
    """The constraint classes named in what evidence covers of clause `c`'s sentence: "serve DeepSeek V3 in
    the EU, GDPR applies" read eu_only from "GDPR"; "the EU" is that fact."""
    if c.start in cache:
        return cache[c.start]
    lo, hi = cw.sentence_bounds(text, c.start, c.end)
    parts: list[str] = []
    i = bisect.bisect_left(covered.starts, lo)
    if i > 0 and covered.max_end[i - 1] > lo:
        parts.append(text[lo : min(hi, covered.max_end[i - 1])])
    for x, y in covered.spans[i : i + MAX_SPANS_PER_CLAUSE]:
        if x >= hi:
            break
        parts.append(text[x : min(y, hi)])
    cache[c.start] = cw.classes_in(" | ".join(parts))
    return cache[c.start]


_FIGURE_TOKEN = re.compile(r"\d[\d,.]*\s*(?:k|m|b|bn|mm)?\b", I)


def _figure_of(text: str) -> set[str]:
    """The figures written in `text`, normalised ("30M tokns" -> {"30m"}, "1,500" -> {"1500"})."""
    return {re.sub(r"[\s,]", "", f).lower() for f in _FIGURE_TOKEN.findall(text)}


def _word_window(
    text: str,
    a: int,
    b: int,
    lo: int,
    hi: int,
    after: int = LEFTOVER_WORDS_AFTER,
    before: int = LEFTOVER_WORDS_BEFORE,
) -> tuple[int, int]:
    """[a, b) widened by `before` words before and `after` words after, in [lo, hi)."""
    x = a
    for _ in range(before):
        w = max(lo, x - 40)
        m = re.search(r"\S+\s+$", text[w:x])
        if not m:
            break
        x = w + m.start()
    y = b
    for _ in range(after):
        m = re.match(r"\s+(?:\d+(?:\.\d+)+[^\s,;.]*|[^\s,;.]+)", text[y : min(hi, y + 40)])  # "0.92" whole
        if not m:
            break
        y += m.end()
    return x, y


def _with_unreadable(unused: list[UnusedClause], unreadable: Sequence[Unreadable]) -> list[UnusedClause]:
    """`unused` with each unreadable value named: its unused clause re-kinded, or the value itself added
    when its clause was used for other facts ("LoRA Llama 3 8B on ~? tokens")."""
    out = list(unused)
    for u in unreadable:
        said = u.text.lower()
        at = next((i for i, c in enumerate(out) if c.kind != "instruction" and said in c.text.lower()), None)
        if at is not None:
            out[at] = UnusedClause(text=out[at].text, kind="unreadable")
        else:
            out.append(UnusedClause(text=_trim(u.text), kind="unreadable"))
    return out


def _covered(starts: list[int], clauses: list[Clause], spans: Iterable[tuple[int, int]]) -> set[int]:
    """Indexes of the clauses (sorted by start) that overlap any of `spans`: each span is placed by
    bisection, so a long brief costs O((clauses + spans) log clauses)."""
    out: set[int] = set()
    for a, b in spans:
        i = max(0, bisect.bisect_right(starts, a) - 1)
        while i < len(clauses) and clauses[i].start < b:
            if a < clauses[i].end:
                out.add(i)
            i += 1
    return out


def profile_evidence(
    profile: WorkloadProfile, prior: WorkloadProfile | None = None
) -> list[tuple[str, int | None]]:
    """Evidence quotes of the facts `profile` holds that `prior` did not hold with the same evidence
    (stated or inferred; an assumed default has no words)."""
    before = prior.provenance if prior is not None else {}
    out: list[tuple[str, int | None]] = []
    for name, p in profile.provenance.items():
        if p.status == "assumed" or not p.evidence or before.get(name) == p:
            continue
        out.append((p.evidence, None))
    return out


def findings_evidence(findings: Iterable[Finding]) -> list[tuple[str, int | None]]:
    """Evidence of the rules' findings with their positions (a finding overridden by a later correction
    was still read: its clause is used)."""
    return [(f.evidence, f.position if f.position >= 0 else None) for f in findings]


def account_for(
    text: str,
    profile: WorkloadProfile,
    prior: WorkloadProfile | None = None,
    analysis: Analysis | None = None,
) -> InputAccount:
    """The account of one input read into `profile` (from `prior`) by any backend: the rules' findings
    locate what they read; facts only the model found (openai backend) add their evidence quotes. A brief
    with a training and a serving section: the serving part's clauses count as read, and the part itself
    is the account's `other_workload`. `analysis`: the rules' reading of `text` when the caller already
    has it (the rules backend's own), so the text is not read twice; None: the rules read it here."""
    if analysis is None:
        analysis = RulesExtractor().analyse(text)
    evidence = findings_evidence((*analysis.findings, *analysis.other))  # the other workload's words are read
    seen = {quote for quote, _ in evidence}
    evidence += [e for e in profile_evidence(profile, prior) if e[0] not in seen]
    if profile.model_id is not None or profile.params_b is not None:
        # spoken words read in digits (rules_spoken.py) that a finding quotes; an unread "two thousand" is not
        quoted = " ".join(quote for quote, _ in evidence).lower()
        evidence += [(said, None) for said, read in analysis.corrected if read.lower() in quoted]
    unread = [u for u in find_unreadable(clean(text)) if all(getattr(profile, f) is None for f in u.fields)]
    claims = [(f.evidence, f.position if f.position >= 0 else None) for f in analysis.findings
              if f.field.startswith(("claimed_", "gpus_compared", "gpu_counts_compared"))]  # fmt: skip
    account = account_input(text, evidence, analysis.ignored, unread, claims)
    if profile.deployment_preference == "on_prem" or profile.owned_gpu is not None:
        # "everything on-prem" beside the sentence the on-prem preference was read from: already honoured
        kept = tuple(
            c for c in account.unused if not (c.kind == "constraint" and _LEFTOVER_POLICY.search(c.text))
        )
        account = account.model_copy(update={"unused": kept})
    if analysis.other:
        account = account.model_copy(update={"other_workload": merge_findings(None, analysis.other)})
    return answered_in_faq(account, text)  # a PR-FAQ's "Q:" line whose "A:" line gave the facts


# this module's patterns and those of the modules it reads with: keyed, or testing their first character
_MODULES = [m for name, m in list(sys.modules.items()) if name.startswith(OTHER_MODULES)]
KEYED_PATTERNS = key_patterns(_MODULES)
FIRST_CHAR_PATTERNS = first_char_patterns(_MODULES)
