"""The prompt length of a batch job said as the size of each record it reads: "Each e-mail is roughly 400
tokens", "85k product descriptions, ~180 tokens each", "our tickets average 350 tokens" (evals v10, v13:
the record's size was read as nothing, so the job's prompt length was lost).

Read only for a workload not training (inference, or not yet named) whose prompt length nothing else
read, and only for a record the job reads (an e-mail, a ticket, a document, a passage); the size of what it
writes ("summaries of ~600 tokens each", "a ~10-token label") is the output length
(advisor/extract/rules_lengths.py), and a training set's records ("2M documents, ~500 tokens each" to
fine-tune on) are data, not prompts."""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, I
from advisor.extract.rules_text import APPROX, NUMBER, parse_number

# what a batch job reads, one record at a time
_RECORD = (
    r"(?:e-?mails?|tickets?|documents?|docs?|passages?|articles?|reviews?|records?|pages?|messages?|transcripts?"
    r"|calls?|descriptions?|posts?|comments?|chunks?|contracts?|reports?|papers?|abstracts?|rows?|items?"
    r"|products?|listings?|invoices?|claims?|notes?|conversations?|chats?|queries|questions?|inputs?)"
)
_K = r"(?P<k>k)?"
_EACH_IS = re.compile(
    # "Each e-mail is roughly 400 tokens", "every ticket averages ~350 tokens", "a doc is about 2k tokens"
    rf"\b(?:each|every|one|an?|the\s+average|the\s+typical)\s+(?:\w+\s+)?{_RECORD}\s+(?:is|are|has|averages?"
    rf"|runs?|comes?\s+to|is\s+on\s+average)\s+{APPROX}(?P<num>{NUMBER}){_K}\s*(?:-\s*)?(?:tokens?|toks?)\b"
    # "85k product descriptions, ~180 tokens each", "400,000 tickets of about 350 tokens"
    rf"|\b{_RECORD}\s*(?:,|\(|-|–|at|of|with)?\s*{APPROX}(?P<num2>{NUMBER})(?P<k2>k)?\s*(?:-\s*)?(?:tokens?|toks?)"
    r"\s*(?:each|apiece|per\s+(?:item|record|\w+)|on\s+average|avg)\b"
    # "our tickets average 350 tokens", "the e-mails are ~400 tokens on average"
    rf"|\b(?:our|the|these|those)\s+(?:\w+\s+)?{_RECORD}\s+(?:average|are\s+on\s+average|are|run)\s+{APPROX}"
    rf"(?P<num3>{NUMBER})(?P<k3>k)?\s*(?:-\s*)?(?:tokens?|toks?)\b",
    I,
)
# the record is what the job writes: "each summary is 600 tokens", "descriptions of ~180 tokens to write"
_WRITTEN = re.compile(
    r"\b(?:summar\w+|answers?|responses?|labels?|translations?|outputs?|completions?|generat\w+|writes?"
    r"|written|produce\w*|creat\w+)\b",
    I,
)


def rule_item_prompt(ctx: Ctx) -> None:
    """prompt_tokens from the size of each record an inference job reads (above)."""
    workload = next((f.value for f in ctx.findings if f.field == "workload"), None)
    if workload not in (None, "inference") or ctx.has("prompt_tokens") or ctx.has("dataset_tokens"):
        return  # a training set's records are its data
    for s in ctx.sentences:
        if s.start in ctx.claim_sentences:
            continue
        for m in _EACH_IS.finditer(s.text):
            clause = s.text[max(0, m.start() - 40) : m.end() + 15]
            if _WRITTEN.search(clause):
                continue  # the size of what the job writes
            num = m.group("num") or m.group("num2") or m.group("num3")
            k = m.group("k") or m.group("k2") or m.group("k3")
            n = int(parse_number(num) * (1000 if k else 1))
            ctx.add(s, "prompt_tokens", n, m.group(0).strip(), "stated", m.start())
            return
