"""Asides that name providers with a cue of their own (issue 12; a gap noticed after expert review 20).

"It must run on AWS, GCP or Azure (not Oracle)" required AWS and excluded GCP and Azure: the cue looked for
after a name ran on into the parenthesis, so its "not" (meant for Oracle) was read as GCP's and Azure's. The
same happened the other way round: "Not on AWS, GCP or Azure (Lambda is fine)" excluded Lambda, and with a
dash: "Must be on AWS, GCP or Azure - not Oracle". An aside (a parenthesis, or the words after a spaced dash)
that names a provider and holds a cue of its own (an exclusion, a preference, a requirement, an "is fine")
is its own statement: its cue is for the names inside it, and the sentence around it is read as if the aside
were not there. A name inside the aside is read on the aside's words alone ("No Oracle (use AWS, GCP or
Azure)" does not exclude the three; "No AWS (Lambda is fine)" does not exclude Lambda); one those give no
cue is read with the words before it too (a list of names opened outside, "approved vendors (AWS, Azure;
not Oracle)", keeps its requirement), never with those after the aside.
Not an aside of its own: a label of a list ("AWS, GCP or Azure (approved vendors)", no provider inside, read
by rules_list_leads.names_only), examples without a cue ("only EU providers (e.g. Scaleway, OVHcloud)"), a
reason with no provider ("Nebius (we have an MSA)").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from advisor.extract.rules_ctx import I

Span = tuple[int, int]
# a parenthesis, or a spaced dash's words up to the next spaced dash or the end of the sentence
_PAREN = re.compile(r"\([^()]*\)")
_DASH = re.compile(r"(?<=\s)(?:--|[-–—])\s(?:(?!\s(?:--|[-–—])\s)[^.;!?])*")
# an allowance is a cue of its own: "(Lambda is fine)", "(CoreWeave would be OK)"
_ALLOWED = re.compile(
    r"\b(?:is|are|would\s+be|will\s+be|seems?)\s+(?:also\s+)?(?:fine|ok|okay|acceptable|allowed|welcome)\b",
    I,
)
# ... and so is an aside that opens with a choice: "No Oracle (use AWS, GCP or Azure)", "(go with Lambda)"
CHOICE_OPEN = re.compile(
    r"^\W*(?:use|try|go\s+with|pick|choose|stick\s+(?:to|with)|instead|rather|prefer(?:ably)?)\b", I
)


def own_cue_asides(
    text: str, named: list[tuple[str, int, int]], has_cue: Callable[[str], bool], skip: int | None = None
) -> list[Span]:
    """The (start, end) of each outermost aside of `text` that holds one of the `named` providers and a cue
    of its own (`has_cue` of the aside's words, or an allowance); `skip`: the start of the aside `text`
    shows (its asides are those inside it)."""
    out: list[Span] = []
    if "(" not in text and " -" not in text and "– " not in text and "— " not in text:
        return out  # most sentences hold no aside
    for m in (*_PAREN.finditer(text), *_DASH.finditer(text)):  # a parenthesis may lie in a dash's aside
        a, b = m.span()
        if a == skip:
            continue
        if any(a <= at < b for _, at, _ in named) and (
            has_cue(m.group(0)) or _ALLOWED.search(m.group(0)) or CHOICE_OPEN.match(m.group(0))
        ):
            out.append((a, b))
    # the outermost only: a parenthesis inside a dash's aside is read with it (rules_provider_cues._read_view)
    return [x for x in out if not any(y != x and y[0] <= x[0] and x[1] <= y[1] for y in out)]


def without(text: str, asides: list[Span]) -> str:
    """`text` with the asides made spaces (positions kept): the sentence read as if they were not there."""
    chars = list(text)
    for a, b in asides:
        chars[a:b] = " " * (b - a)
    return "".join(chars)


def up_to(text: str, end: int) -> str:
    """`text` with everything from `end` on made spaces: an aside's names read with the words before them."""
    return text[:end] + " " * (len(text) - end)


def only(text: str, start: int, end: int) -> str:
    """`text` with everything outside [start, end) made spaces: an aside read on its own."""
    return " " * start + text[start:end] + " " * (len(text) - end)
