"""Finer signals for the input's accounting (advisor/extract/accounting.py, issue 12: "a clause naming a
provider, a GPU, a number with a unit, a policy word or a question is never silently dropped"), for the
parts of a clause that gave the profile another fact and whose own constraint nobody read.

Why each exists (from the 61 silent drops of evals/cases, cases_v9 and v12-v17 on 2026-11-28, classified
by cause in branch drops0; the drops not listed here were not the accounting's: a constraint read right that
the pick breaks, a fact read into the other workload, a value read as another quantity):
- `EXTRA_FIGURES`: figures whose unit the plain number-with-unit pattern missed, so a partly read clause hid
  them: a currency written before the amount or as a code after it ("KSh 150,000", "2 000 $ CAD",
  "budget gbp: int = 1200", "Budget ฿50,000"), a date ("due Dec 10", "deadline = 2026-12-11"),
  milliseconds ("two hundred milliseconds") and cents per kWh ("38c a kWh").
- `policy_spans`: a policy word (must, only, never, at most, forbids, caps ...) that governs nothing a
  fact was read from ("no more than two hundred milliseconds", "finance caps us at two cards"); beside read
  words it is the read phrase's modifier ("must stay in the EU" read as eu_only) and is not listed.
- `asks_about_hardware`: a question clause that gave other facts (a deadline, a model) but asks whether
  named hardware will do ("Could our four NVLs get through it in 36 hours?", "on a single T4?"): unless a
  claim was read from it, the question was answered by nothing.
- `csv_row`: a row of a pasted CSV export ends its paragraph, so the question on the line after the table
  is a clause of its own ("Question from our CTO: can the two in-service boxes serve ...").
- `QUERY_SEPARATOR`: "&" between key=value pairs of a form or URL ("...&gpus_max=1&budget_usd=30"): each pair
  is a clause, so one read pair does not hide the others.
Currency codes: a subset of the ISO 4217 three-letter codes (the standard's list, not fetched here) and the
symbols and local names the dev eval sets use (evals/cases_v15, v17: "kr", "KSh", "฿", "c a kWh").
"""

from __future__ import annotations

import re

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_models import GPU_RE
from advisor.extract.rules_text import NUM

I = re.I  # noqa: E741

_CODES = (
    r"usd|eur|gbp|cad|aud|nzd|chf|sek|nok|dkk|pln|czk|huf|jpy|cny|rmb|inr|krw|sgd|hkd|twd|thb|myr|vnd|"
    r"brl|mxn|clp|zar|ngn|kes|ksh|egp|aed|"
    # more of the standard's codes for the writers the sets meet (evals v18: "GHS 12,000", "9 ISK per kWh")
    r"ghs|isk|ils|idr|php|pkr|bdt|lkr|try|uah|ron|bgn|czk|cop|pen|ars|qar|sar|kwd|omr|mad|ugx|tzs|xof|xaf"
)
_SYMBOLS = r"[฿₹¥₩₦₱₺₪]"
_MONTHS = r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|jun(?:e)?|jul(?:y)?|aug(?:ust)?|"
_MONTHS += r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
# "may" only after its day ("5 May"): before a number it is as often the verb ("we may 2x it")
EXTRA_FIGURES = (
    rf"(?:{_SYMBOLS}|\b(?:{_CODES})\b[^\d\n]{{0,12}}?)\s*{NUM}"  # "KSh 150,000", "budget gbp: int = 1200"
    rf"|{NUM}\s*(?:{_SYMBOLS}|\$?\s*\b(?:{_CODES}|kr|kroner|krona|baht|shillings?|rupees?|yen|yuan|francs?)\b)"
    # an ISO date, not a chat log's timestamp ("[2026-11-17 16:02]")
    rf"|\b\d{{4}}-\d{{2}}-\d{{2}}\b(?![ T]\d{{1,2}}:\d{{2}})|\b(?:{_MONTHS})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?\b"
    rf"|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{_MONTHS}|may)\b"
    r"|\b\d+(?:\.\d+)?\s*(?:c|ct|cents?)\s+(?:a|an|per|/)\s*kwh\b"
)
# a currency code on its own: beside an amount read in another currency ("2 000 $ CAD" read as $2,000) it
# is the part nobody read; beside an amount read in it, the evidence covers it
CURRENCY_CODE = re.compile(
    rf"(?<![\w$])(?:{_CODES}|kr|kroner|krona|baht|shillings?|rupees?|yen|yuan)(?!\w)", I
)
# units after a figure the plain pattern lacks ("two hundred milliseconds to the first token")
EXTRA_UNITS = r"milliseconds?|microseconds?|msecs?"
# the policy words that govern a phrase (accounting.py's _POLICY less the topic words constraint_words.py
# lists itself: on-prem, residency, GDPR ...)
_POLICY_MODIFIER = keyed(
    r"(?<![-\w])(?:must|mustn'?t|only|never|cannot|can'?t|won'?t|required|mandatory|forbid(?:s|den)?|"
    r"prohibit(?:s|ed)?|not allowed|at most|at least|no more than|no less than|maximum|max|minimum|min|"
    r"caps?|capped|hard cap|limit(?:ed|s)?|exclude[sd]?|avoid|not)\b",
    I,
)
# "not sure", "if not", "only just", "for reference only", "not part of": no policy; "decoder-only" is no word
_NOT_POLICY = re.compile(
    r"\b(?:not (?:sure|yet|relevant|needed|part of)|(?:if|or|why) not|only just|not only|"
    r"(?:for )?reference only)\b",
    I,
)
NEAR_WORDS_BEFORE = 4  # a read fact this many words before a policy word is the phrase it modifies
NEAR_WORDS_AFTER = 4  # ... or this many after it ("must [stay in the EU]", "at most [$900]")


def policy_spans(piece: str) -> list[tuple[int, int]]:
    """(start, end) of the policy words in `piece` that can state a constraint on their own."""
    shrugs = [(m.start(), m.end()) for m in _NOT_POLICY.finditer(piece)]
    return [
        (m.start(), m.end())
        for m in _POLICY_MODIFIER.finditer(piece)
        if not any(a <= m.start() < b for a, b in shrugs)
    ]


# a yes/no opener, after a short label ("Question from our CTO: can ..."); "Do NOT pick B200s" is an order
_YES_NO = keyed(
    r"^\W*(?:[^:?]{0,40}:\s*)?(?:so\s+|and\s+|but\s+)?(?:can|could|will|would|is|are|does|do|should|am)\b"
    r"(?!\s+not\b|n'?t\b)",
    I,
)
_OWN_HARDWARE = keyed(
    r"\b(?:our|these|those|single|one|two|three|four|five|six|eight|sixteen|\d+\s*x?)\s+"
    r"(?:[\w-]+\s+)?(?:gpus?|cards?|box(?:es)?|nodes?|servers?|machines?|nvls?|rigs?)\b|\b\d+\s+of\s+(?:those|them|these)\b",
    I,
)


def asks_about_hardware(clause: str) -> list[tuple[int, int]]:
    """Where `clause` names or counts the hardware it asks about, if it asks whether that hardware will do
    (a claim to check): a yes/no question (or one ending in "?") naming a GPU or counting cards or nodes.
    Offsets are in `clause`; empty when it asks nothing of the kind. A mention the rules read (a what-if's
    "B200s instead", "one of the two nodes") is answered by the pick on it: the caller drops those."""
    if not (clause.rstrip().endswith("?") or _YES_NO.match(clause)):
        return []
    return [m.span() for r in (GPU_RE, _OWN_HARDWARE) for m in r.finditer(clause)]


CSV_MIN_BARE_COMMAS = 3  # a line with this many commas not followed by a space is a CSV row


def csv_row(line: str) -> bool:
    """Whether `line` is a row of comma-separated values ("SYD-GPU-01,Supermicro,4,L40S 48GB,in service"):
    its own paragraph, so a question on the next line is not joined to the table (v14-owned-cmdb-export)."""
    return line.count(",") - len(re.findall(r",\s", line)) >= CSV_MIN_BARE_COMMAS


# "a=1&b=2": the "&" of a form body or query string
QUERY_SEPARATOR = r"(?<=\w)&(?=[\w ]+=)"  # the reader has turned "_" into " " ("budget usd=30")


# the source of a rule said in a clause of its own before the rule: "Per our cloud policy, all ML workloads
# must run on AWS ...", "According to our security team, no spot" (expert review 20, R19: listed as a
# constraint not understood beside the required providers read from the next clause). It states no fact of
# its own: the clause after it, read, holds the rule (accounting.account_input).
SOURCE_LEAD = re.compile(
    r"\W*(?:(?:as\s+)?per|according\s+to|under|following|in\s+line\s+with|in\s+accordance\s+with"
    r"|as\s+(?:required|mandated|set\s+out)\s+(?:by|in)|due\s+to|because\s+of|by)\s+"
    r"(?:(?:our|the|company|corporate|internal|their|its|my|group)\s+)*(?:[\w-]+\s+){0,3}?"
    r"(?:polic(?:y|ies)|rules?|guidelines?|standards?|compliance|requirements?|regulations?|contracts?"
    r"|mandate|team|department|security|legal|procurement|infosec|auditors?|cto|ciso)\W*",
    I,
)
