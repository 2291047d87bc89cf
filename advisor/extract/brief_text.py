"""Brief text as PDF and DOCX extraction leaves it, made readable for the rules, and the brief's sections.

`normalise` (run by rules_text.clean before sentences are split):
- a word hyphenated at a line end is joined ("se-\\nquence length" -> "sequence length"); a real
  compound keeps its hyphen ("fine-\\ntuned" -> "fine-tuned");
- lines holding only a bullet or a page number ("•", "Page 1 of 2") are dropped, and so, in a paged
  document, are short lines repeated on every page (running headers and footers).

`heading_kind` says whether a line is a section heading ("2. Training", "## Serving", "Usage") and
which workload the section is about, so numbers belong to the section they are under: a serving
section's context window is not the training sequence length. `key_kind` does the same for a "Key:
value" line whose key names a section ("Serving: 300 users, 32k context").

All linear: one regex pass and one line count over the text.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Literal

SectionKind = Literal["training", "serving", "other"]

# Prefixes that form real hyphenated compounds: their line-end hyphen is kept.
_COMPOUND_PREFIXES = frozenset(
    {"fine", "pre", "re", "co", "non", "multi", "self", "full", "half", "cross", "well", "low", "high",
     "long", "short", "open", "state", "end", "real", "two", "three", "four", "first", "second", "in",
     "on", "off", "up", "sub", "semi", "mid", "post", "anti", "inter", "over", "under", "out", "all",
     "per", "ex", "top", "day", "time", "year", "month", "week", "mixed", "data", "human", "domain",
     "instruction", "parameter", "cost", "user", "production", "large", "small", "third", "one", "zero",
     "few", "task"}
)  # fmt: skip
_HYPHEN_BREAK = re.compile(r"(?<![A-Za-z])([A-Za-z]{1,40})-[ \t]*\n[ \t]*(?=[a-z])")  # bounded: linear
_BULLET_OR_PAGE = re.compile(
    r"^[ \t]*(?:[•·▪◦●■‣∙\-–*]+|(?:page|p\.|seite)\s*\d+(?:\s*(?:of|/|von)\s*\d+)?"
    r"|\d+\s*(?:of|/)\s*\d+)[ \t]*$\n?",  # the line and its break: no blank line left behind
    re.I | re.M,
)
_PAGE_MARK = re.compile(r"^[ \t]*(?:page|p\.|seite)\s*\d+", re.I | re.M)
_REPEAT_MAX_CHARS = 80


def _join_hyphen(m: re.Match[str]) -> str:
    word = m.group(1)
    return f"{word}-" if word.lower() in _COMPOUND_PREFIXES else word


def normalise(text: str) -> str:
    """Hyphenation at line ends joined; bullet-only and page-number lines dropped; in a paged text,
    short lines repeated on several pages (headers, footers) dropped."""
    text = _HYPHEN_BREAK.sub(_join_hyphen, text)
    paged = len(_PAGE_MARK.findall(text)) >= 2
    text = _BULLET_OR_PAGE.sub("", text)
    if not paged:
        return text
    lines = text.split("\n")
    counts = Counter(line.strip() for line in lines if 0 < len(line.strip()) <= _REPEAT_MAX_CHARS)
    repeated = {line for line, n in counts.items() if n >= 2 and not re.search(r"[.!?:]$", line)}
    return "\n".join("" if line.strip() in repeated else line for line in lines)


# --------------------------------------------------------------------------- sections
_TRAINING_WORDS = re.compile(
    r"\b(?:train\w*|fine[\s-]?tun\w*|finetun\w*|adapt\w*|pre-?train\w*|customi[sz]\w*|model development"
    r"|dataset|training data|method)\b",
    re.I,
)
_SERVING_WORDS = re.compile(
    r"\b(?:serv\w*|inference|deploy\w*|hosting|production|usage|users|traffic|latency|rollout|operations"
    r"|api)\b",
    re.I,
)
_NUMBERED = re.compile(r"^\s*(?:#{1,6}\s+|(?:\d+(?:\.\d+)*|[A-Z]|[IVX]+)[.)]\s+|\d+(?:\.\d+)+\s+)")
# a part's name alone on its line, closed by a colon: "Training:", "Inference side:", "**Serving**:"
# (a colon line naming neither part, "Notes:", is no heading: the section above goes on)
_PART_HEADING = re.compile(
    r"^(?:[-*+•]\s+)?(?:\d+[.)]\s+|[A-Za-z][.)]\s+|\(\w\)\s+)?(?:\*\*|__)?"
    r"(?P<words>[A-Za-z][\w /&()-]{1,40}?)"
    r"(?:\*\*|__)?\s*:\s*(?:\*\*|__)?$"
)
# a quantity with its unit or magnitude ("60M tokens", "300 users", "2 weeks"): a heading names a topic
_QUANTITY = re.compile(
    r"\d[\d.,]*\s*(?:[kmbt]|gb|tb|gib|tokens?|users?|hours?|h|days?|weeks?|months?|epochs?|%)(?![\w.])", re.I
)
# a form's question as the key: "Spot / preemptible acceptable?: No" (Google Forms export, evals v16)
_KEY = re.compile(r"^\s*(?:[-*+•]\s+)?(?P<key>[A-Z][\w /&()-]{1,40}?)\s*\??\s*:\s+\S")


_EMPHASIS = re.compile(r"(?P<mark>\*\*|__|\*|_)(?P<inner>[^*_]+)(?P=mark)")


def heading_kind(line: str) -> SectionKind | None:
    """For a section heading, the workload its section is about ("other" for Background, Compliance);
    None when the line is not a heading (a sentence, a 'Key: value' line, a list item)."""
    s = line.strip()
    if (bold := _EMPHASIS.fullmatch(s)) is not None:
        s = bold.group("inner").strip()  # "**Serving**", "__Fine-tuning__" alone on a line: its words
    keyed = _PART_HEADING.match(s)
    if keyed is not None:
        # "Training:", "**Inference side:**" alone on a line, its bullets below: the part it names
        kind = _kind(keyed.group("words"))
        return kind if kind != "other" else None
    if not s or len(s) > 70 or re.search(r"[.!?;:,]$", s) or ":" in s:
        return None
    numbered = _NUMBERED.match(s) is not None
    body = _NUMBERED.sub("", s) if numbered else s
    words = body.split()
    if not words or len(words) > (8 if numbered else 4) or not body[0].isupper():
        return None
    if not numbered and re.search(r"\d", body):
        return None  # "Llama 3.1 70B" on its own line is a value, not a heading
    if _QUANTITY.search(body):
        return None  # "1) LoRA fine-tune Llama 3.1 8B on 60M tokens": a numbered step that states, no heading
    return _kind(body)


def key_kind(line: str) -> SectionKind | None:
    """For a 'Serving: ...' or 'Training setup: ...' line, the workload its key names (else None)."""
    m = _KEY.match(line)
    if m is None:
        return None
    kind = _kind(m.group("key"))
    return None if kind == "other" else kind


def is_key_line(line: str) -> bool:
    """Whether a line opens with 'Key: value' (a field of a brief, which starts its own statement)."""
    return _KEY.match(line) is not None


def _kind(words: str) -> SectionKind:
    training = _TRAINING_WORDS.search(words) is not None
    serving = _SERVING_WORDS.search(words) is not None
    if training and not serving:
        return "training"
    if serving and not training:
        return "serving"
    return "other"
