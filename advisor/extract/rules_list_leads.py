"""Lists of providers written with a lead item (expert review 20, problem 6).

- A class of providers after a named one in an exclusion: "Also not Vast or any marketplace" ruled out
  vast-ai only, and spheron (a marketplace) was then shown as the cheapest alternative; "No marketplace
  providers" excluded the catalog's whole community / marketplace tier. The class words after a lead item
  ("not Vast or any marketplace", "no Vast.ai or other marketplaces", "avoid Vast and similar marketplace
  hosts", "no spot or community hosts") now exclude that tier as "no marketplace" does (COMMUNITY_OUT,
  used by rules_provider_cues.rule_providers). A plural is the class too ("no marketplaces").
  Near misses: the class allowed ("not Vast, but any marketplace is fine", "not AWS, and community hosts
  are OK"), a class not after an exclusion ("Vast or any marketplace would do").
- A list of required providers with a label after it: "must run on AWS, GCP or Azure (approved vendors)"
  required AWS only, since the clause "GCP or Azure (approved vendors)" was not names alone; a
  parenthetical with no exclusion cue and no provider name (a label of the list) no longer breaks the
  list, so GCP and Azure share AWS's requirement (names_only). "(not Oracle)" still does.
"""

from __future__ import annotations

import re

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import I
from advisor.extract.rules_models import _catalog

_CLASS = (
    r"(?:community|marketplace|peer[\s-]to[\s-]peer|p2p|decentrali[sz]ed|crowd[\s-]?sourced)s?"
    r"(?:\s+(?:clouds?|gpus?|providers?|hosts?|capacity|offers?|rentals?|platforms?|sites?))?\b"
)
_ALLOWED_AFTER = (
    r"(?!\s+(?:is|are|would\s+be|will\s+be|seems?)\s+(?:also\s+)?(?:fine|ok|okay|acceptable|allowed|welcome"
    r"|good|great)\b)"
)
# shared or resold capacity ruled out: "no community clouds", "no marketplace GPUs", "nothing peer-to-peer";
# ... after a lead item: "not Vast or any marketplace", "avoid Vast and similar marketplaces"
COMMUNITY_OUT = keyed(
    r"\b(?:no|not|avoid|without|never|nothing|can't\s+use|cannot\s+use|won't\s+use|exclud(?:e|ing))\s+"
    r"(?:on\s+)?(?:"
    r"(?:[^.;:!?()]|\.(?=\w)){1,40}?(?:\s*,\s*(?:or|nor|and)?|\s+(?:or|nor|and))\s+(?:on\s+)?"
    r"(?:any|other|no|similar|such)\s+(?:other\s+|similar\s+)?"
    r"|(?:[^.;:!?(),]|\.(?=\w)){1,40}?\s+(?:or|nor)\s+(?:on\s+)?"  # "no spot or community hosts": neither
    r"|(?:any\s+)?)" + _CLASS + _ALLOWED_AFTER,
    I,
)

_PAREN = re.compile(r"\(([^()]*)\)")
# cues that make a parenthetical more than a label: an exclusion or a contrast
_NOT_A_LABEL = re.compile(
    r"\b(?:not|no|except|excluding|but|never|avoid|without|nor|prefer\w*|ideally|optional|maybe|backup"
    r"|fallback|if\s+needed)\b|n't|\w*\d",
    I,
)
# what is left of a clause that only continues a list of names: "Azure or Google Cloud."
_NAMES_ONLY = re.compile(r"[\s,;.!:/&()-]*(?:(?:and|or|nor|plus|the)\b[\s,;.!:/&()-]*)*", I)


def _label_dropped(m: re.Match[str]) -> str:
    inner = m.group(1)
    return m.group(0) if _NOT_A_LABEL.search(inner) else " " * len(m.group(0))


def names_only(blanked: str) -> bool:
    """Whether a clause whose provider names are blanked out (scan.Spans.blanked) holds only joiners, and
    at most a parenthetical label of the list ("GCP or Azure (approved vendors)")."""
    if _NAMES_ONLY.fullmatch(blanked) is not None:
        return True
    if "(" not in blanked:
        return False
    return _NAMES_ONLY.fullmatch(_PAREN.sub(_label_dropped, blanked)) is not None


_COMMUNITY_TIERS = ("community", "marketplace")  # the price catalog's tiers of shared or resold capacity


def community_providers() -> list[str]:
    """Provider ids of the price catalog's community and marketplace tiers (what COMMUNITY_OUT excludes)."""
    cat = _catalog()
    if cat is None:
        return []
    return sorted({str(r.provider) for r in cat.prices if str(r.tier).lower() in _COMMUNITY_TIERS})
