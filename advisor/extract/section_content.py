"""A brief's sections that name no part: the workload each is about, from what it states (issue 12, A).

brief_text.heading_kind gives a section its part from the heading's words ("## Serving", "Training:").
Many briefs head their parts with words that name neither ("## How we built it" / "## Demo" in a
hackathon draft, "Q: How many clinicians use it at once?" in a PR/FAQ): the serving part's figures were
read into the training profile, or lost. Here the text is cut into sections at its headings and at its
questions ("Q: ..."), and each section gets a part:
- from its own heading or question's words where they name one part ("Q: Where is it served?");
- otherwise from the facts its own sentences state: training facts only (method, tokens of data, epochs:
  workloads.TRAINING_FIELDS) make a training section, serving facts only (users at once, prompt and
  output lengths: workloads.SERVING_FIELDS) a serving one; a section with both, or neither, belongs to both
  parts (the text before the first heading, "## Constraints").
The cut is used only when it finds both a training and a serving section; the sentences then go through
the same splitter as a brief whose headings name their parts (workloads.split_parts).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from advisor.extract.base import Finding
from advisor.extract.brief_text import heading_kind
from advisor.extract.rules_text import Sentence
from advisor.extract.second_workload import batch_split, share_constraints
from advisor.extract.workloads import SERVING_FIELDS, TRAINING_FIELDS, Part, Split

Read = Callable[[tuple[Sentence, ...]], list[Finding]]

# a question that opens an item of a FAQ or an interview: "Q: Where does the training run?", "Q1. How ..."
_QUESTION = re.compile(r"^\s*(?:Q\d*\s*[:.)]|Question\s*\d*\s*:)\s*", re.I)
_TRAINING_NAMES = re.compile(r"\b(?:q?lora|cpt|sft|dpo|epochs?)\b", re.I)
_PART_WORDS = {
    "training": re.compile(r"\b(?:train\w*|fine[\s-]?tun\w*|finetun\w*|pre-?train\w*)\b", re.I),
    "serving": re.compile(r"\b(?:serv\w*|inference|deploy\w*|host\w*|production|endpoint)\b", re.I),
}


# a heading of words alone ("Demo", "How we built it"): not a diagram's node ("B --> C{Quality filter}")
_WORDS_ONLY = re.compile(r"^(?:#{1,6}\s*)?[A-Za-z][A-Za-z '&/-]{0,60}$")


def _opens_section(s: Sentence) -> bool:
    """Whether `s` is a heading line of words ("## Demo", "FAQ") or a question that opens an item
    ("Q: ...")."""
    text = s.text.strip()
    if _QUESTION.match(text) is not None:
        return True
    heading = text.startswith("#") or heading_kind(text) is not None
    return heading and _WORDS_ONLY.match(text) is not None


def _named(head: str) -> Part | None:
    """The one part a heading's or a question's own words name, else None."""
    named = [part for part, words in _PART_WORDS.items() if words.search(head)]
    return named[0] if len(named) == 1 else None  # type: ignore[return-value]


_TRAINING_JOBS = frozenset({"fine_tuning", "pretraining", "continual_pretraining"})


def _by_content(found: Sequence[Finding]) -> Part | None:
    """The part a section's own facts make it: a training job with training facts only, or serving facts
    only ("~720M tokens survive" beside a generation step trains nothing)."""
    fields = {f.field for f in found}
    trains = "method" in fields or any(f.field == "workload" and f.value in _TRAINING_JOBS for f in found)
    train, serve = trains and bool(fields & TRAINING_FIELDS), bool(fields & SERVING_FIELDS)
    if train == serve:
        return None
    return "training" if train else "serving"


def content_sections(sentences: Sequence[Sentence], read: Read) -> tuple[Sentence, ...] | None:
    """`sentences` with each section's part set (its heading's or question's words, else its own facts),
    when the text has sections and its headings name no part; None unless one section reads as training
    and another as serving."""
    if any(s.section is not None for s in sentences):
        return None  # headings that name a part: advisor/extract/workloads.py split_parts
    if not any(_PART_WORDS["training"].search(s.text) or _TRAINING_NAMES.search(s.text) for s in sentences):
        return None  # nothing trains: not read section by section
    groups: list[list[Sentence]] = [[]]
    for s in sentences:
        if _opens_section(s) and groups[-1]:
            groups.append([])
        groups[-1].append(s)
    if len(groups) < 2:  # noqa: PLR2004 - sections of their own
        return None
    parts: list[Part | None] = []
    for group in groups:
        head = _opens_section(group[0])  # the text before the first heading belongs to both parts
        body = tuple(group[1:]) if head else ()
        named = _named(group[0].text) if head else None
        if named is None and body:
            named = _by_content(read(body))
        parts.append(named)
    if not {"training", "serving"} <= set(parts):
        return None
    return tuple(
        Sentence(s.text, s.start, s.block, s.quoted, part)
        for group, part in zip(groups, parts, strict=True)
        for s in group
    )


# --------------------------------------------------------------------------- a service and a batch job
# a heading in capitals ("SCOPE OF THE BATCH JOB", "CONSTRAINTS FOR THE WHOLE CHANGE (service and batch
# job)"): longer than heading_kind's four words, which a change request or an RFP often writes
_CAPS_HEADING = re.compile(r"^[A-Z][A-Z &/'-]{2,60}(?:\s*\([^()]{1,60}\))?$")
_BATCH_HEAD = re.compile(r"\b(?:batch|backfill|archive|one[\s-]?off|offline)\b", re.I)
_WHOLE_HEAD = re.compile(r"\b(?:whole|both|all|overall|general)\b", re.I)
_JOB_FIELDS = frozenset({"generation_tokens", "deadline_hours"})


def _batch_heading(s: Sentence) -> bool:
    return _opens_section(s) or _CAPS_HEADING.match(s.text.strip()) is not None


def _service_or_job(head: str | None, body: Sequence[Sentence], read: Read) -> Part | None:
    """ "serving" for the service's section, "training" (the other part's slot) for the batch job's, None
    for a section of both or neither: its heading's words first ("SCOPE OF THE BATCH JOB"), then its facts."""
    if head is not None:
        if _WHOLE_HEAD.search(head) or (_BATCH_HEAD.search(head) and _PART_WORDS["serving"].search(head)):
            return None
        if _BATCH_HEAD.search(head):
            return "training"
        if _PART_WORDS["serving"].search(head):
            return "serving"
    fields = {f.field for f in read(tuple(body))} if body else set()
    if "concurrency" in fields and not fields & _JOB_FIELDS:
        return "serving"
    if "generation_tokens" in fields and "concurrency" not in fields:
        return "training"
    return None


def batch_sections(sentences: Sequence[Sentence], read: Read) -> Split | None:
    """A brief with a section for a service (users at once) and one for a batch job (a volume, a deadline):
    the service as the profile and the job as the other workload (second_workload.batch_split); None
    unless it has one of each and nothing trains."""
    if any(s.section == "training" for s in sentences):
        return None  # a brief's training section: advisor/extract/workloads.py split_parts
    if not any(_BATCH_HEAD.search(s.text) for s in sentences):
        return None  # no batch job named anywhere: not read section by section
    groups: list[list[Sentence]] = [[]]
    for s in sentences:
        if _batch_heading(s) and groups[-1]:
            groups.append([])
        groups[-1].append(s)
    parts: list[Part | None] = []
    for group in groups:
        head = group[0].text if _batch_heading(group[0]) else None
        parts.append(_service_or_job(head, group[1:] if head is not None else group, read))
    if not {"training", "serving"} <= set(parts) or any(
        _by_content(read(tuple(g))) == "training" for g, p in zip(groups, parts, strict=True) if p is None
    ):
        return None
    marked = [Sentence(s.text, s.start, s.block, s.quoted, part)
              for group, part in zip(groups, parts, strict=True) for s in group]  # fmt: skip
    return batch_split(share_constraints(marked, read), read)
