"""A form's count row, "Documents: 400,000" or "| Number of prompts | 2M |", written the way prose says it
("400,000 Documents"), so the rules that read a batch of items ("2M prompts, ~300 output tokens each") read
the form too (evals v14, an Excel paste: the documents' count was lost and with it the volume; issue 12).

Only a whole line whose key is a plural noun of counted things (optionally "number of", "#", "total") and
whose value is a bare number with an optional multiplier; a key with a unit ("Avg. output tokens: 1,200"),
a sentence ("We have documents: 400,000 of them"), or a non-count key ("Staff on project: 3") is left alone.
"""

from __future__ import annotations

import re

_COUNT_KEY = re.compile(
    r"^(?P<lead>[ \t]*(?:\|[ \t]*)?(?:[-*•][ \t]+)?)(?:(?:number|no\.?|#|count|total)[ \t]+(?:of[ \t]+)?)?"
    r"(?P<noun>documents|docs|items|records|rows|prompts|samples|examples|pages|tickets|e-?mails|articles"
    r"|products|skus|reviews|transcripts|conversations|convos|dialogues|messages|queries|questions|files"
    r"|contracts|invoices|abstracts|papers|reports|listings|titles|images)"
    r"[ \t]*(?:\((?:#|count|n|total)\))?[ \t]*[:=][ \t]*"
    r"(?P<num>~?[ \t]*\d[\d,.]*(?:[ \t]*(?:k|m|bn|thousand|million|billion))?)[ \t]*$",
    re.I | re.M,
)


def count_keys(text: str) -> str:
    """`text` with each 'Items: N' line written as 'N items'."""
    if ":" not in text and "=" not in text:
        return text
    return _COUNT_KEY.sub(lambda m: f"{m.group('lead')}{m.group('num')} {m.group('noun')}", text)
