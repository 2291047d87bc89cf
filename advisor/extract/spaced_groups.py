"""Thousands grouped with a space before a count's noun, as French, Scandinavian, Polish and Russian
writers (and SI style) put them: "prompts of around 2 000 tokens", "12 000 users", "1 200 000 pairs" (SI
Brochure, 9th ed. 2019, section 5.4.4: digits may be grouped in threes separated by a thin space; French
typography puts a no-break space there). Read as commas, the same length, so offsets stay put.

Only before a count's noun: a list of bare numbers ("batch sizes 32 64 128 256"), a model name ("Llama 3
405B") or a date ("4 2026") stays as written."""

from __future__ import annotations

import re

# the nouns a count of a workload is said in (tokens, requests, people, records) and money after the figure
_COUNT_NOUN = (
    r"(?:tokens?|toks?|tkns?|words|characters|chars|users|people|customers|employees|requests|reqs|queries"
    r"|calls|conversations|chats|sessions|documents|docs|pages|files|rows|records|samples|examples|pairs"
    r"|items|images|prompts|messages|tickets|emails|questions|answers|products|articles|steps"
    r"|€|eur|euros?|\$|usd|chf|gbp|£|kr|sek|nok|dkk|pln|zł|zl)"
)
_SPACED = re.compile(
    r"(?<![\w.,'\u2019])(?<!\d\s)(?<!\d\u00a0)(?<!\d\u202f)\d{1,3}(?:[ \u00a0\u202f]\d{3})+"
    rf"(?![\d\w.,-])(?=[ \u00a0\u202f]?(?:[a-z-]+\s+)?{_COUNT_NOUN}(?!\w))",
    re.I,
)
_SPACE = re.compile(r"[ \u00a0\u202f]")


def comma_groups(text: str) -> str:
    """'2 000 tokens' -> '2,000 tokens' (same length); other spaced digits stay."""
    return _SPACED.sub(lambda m: _SPACE.sub(",", m.group(0)), text)
