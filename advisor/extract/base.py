"""The extraction seam: free text -> `WorkloadProfile`, behind one small interface.

Every backend (the offline `rules` extractor, the `openai` one in advisor/llm/) implements
`Extractor.extract(text, prior)`. The result is `prior` with the new facts merged in, and every field it
sets carries a `Provenance`: `stated` (the user gave the value), `inferred` (derived from their words by
a named conversion, recorded in the evidence) or `assumed` (a default; extractors never assume, the
recommender's tools/defaults.py does).

Merge rules (shared by all backends through `merge_findings`):
- a value stated in the new text replaces whatever `prior` held ("actually 8 epochs" replaces 3);
- a value inferred from the new text replaces a prior inferred or assumed value; it replaces a prior
  stated value only when it is a conversion of something the new text states (`converted`: "20k EUR"
  -> USD, "by Friday" -> hours, "Mixtral 8x7B" -> its catalog size), not an estimate from another
  quantity (tokens guessed from GB on disk never override tokens the user gave);
- within one text, a stated value beats an inferred one for the same field; among equals the later
  statement (or one flagged as a correction) wins;
- provider preferences, requirements and exclusions, excluded pricing and GPU types wanted or excluded
  accumulate across turns; naming a provider (a GPU) as excluded removes it from the preferred and
  required (wanted) lists, and the reverse.

Optional conventions a backend may add (callers check with getattr):
- `with_reference_time(when) -> Extractor`: a copy that resolves relative dates ("by Friday") against
  `when` instead of the current time; the eval harness pins one so results reproduce.
- `analyse(text)` (rules backend): the findings before merging and the sentences ignored because they
  address an AI system rather than state a fact.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from pydantic import ValidationError

from tools.profile import PROFILE_FIELDS, Provenance, Status, WorkloadProfile

LIST_FIELDS: tuple[str, ...] = (
    "providers_preferred",
    "providers_excluded",
    "providers_required",
    "pricing_excluded",
    "gpus_wanted",
    "gpus_excluded",
)
# Naming a provider in one list takes it out of the lists it contradicts (required implies preferred).
_CONTRADICTS: dict[str, tuple[str, ...]] = {
    "providers_preferred": ("providers_excluded",),
    "providers_required": ("providers_excluded",),
    "providers_excluded": ("providers_preferred", "providers_required"),
    "pricing_excluded": (),
    "gpus_wanted": ("gpus_excluded",),
    "gpus_excluded": ("gpus_wanted",),
}
EVIDENCE_MAX_CHARS = 160


@runtime_checkable
class Extractor(Protocol):
    """Turns text into a workload profile merged into `prior` (None: start from an empty profile)."""

    name: str

    def extract(self, text: str, prior: WorkloadProfile | None = None) -> WorkloadProfile:
        """`prior` merged with the facts of `text`; every field set carries provenance."""
        ...


@dataclass(frozen=True)
class Finding:
    """One fact read from text: the field, its value, how it was obtained and the words it came from.

    `position` is the character offset of the evidence in the text (later statements win);
    `correction` marks explicit corrections ("actually", "instead"), which win over earlier values.
    `retract` marks a value the user withdrew: a scalar field goes back to unknown (its `value` is None),
    a list loses `value`.
    `converted` marks an inferred value that is the new text's own statement in profile units (see the
    module docstring): it may replace a value stated in an earlier turn.
    """

    field: str
    value: Any
    status: Status
    evidence: str
    position: int = 0
    correction: bool = False
    converted: bool = False
    retract: bool = False  # the user withdrew the value ("forget what I said about spot"): unset or remove it

    def __post_init__(self) -> None:
        if self.field not in PROFILE_FIELDS:
            raise ValueError(f"unknown profile field {self.field!r}")
        if self.status == "assumed":
            raise ValueError("extractors record stated or inferred values, never defaults")


def clip_evidence(text: str, limit: int = EVIDENCE_MAX_CHARS) -> str:
    """Evidence as one line of at most `limit` characters (whitespace collapsed)."""
    # a head's collapse is a prefix of the whole's: when a head already runs past `limit`, the rest is not
    # read (each provider of a 20,000-character clause cited it whole: quadratic)
    if len(text) > 2 * limit and len(head := " ".join(text[: 2 * limit].split())) > limit:
        return head[: limit - 1].rstrip() + "…"
    one = " ".join(text.split())
    return one if len(one) <= limit else one[: limit - 1].rstrip() + "…"


def valid_value(field: str, value: Any) -> bool:
    """Whether `value` is acceptable for profile `field` ("0 epochs" or "$0" are not: they are dropped)."""
    try:
        WorkloadProfile.model_validate({field: value})
    except ValidationError:
        return False
    return True


def _rank(f: Finding) -> tuple[int, int, int]:
    return (1 if f.status == "stated" else 0, 1 if f.correction else 0, f.position)


def select_findings(findings: Iterable[Finding]) -> dict[str, Finding]:
    """The winning valid finding per scalar field: stated over inferred, then corrections, then the latest."""
    best: dict[str, Finding] = {}
    for f in findings:
        if f.field in LIST_FIELDS or not valid_value(f.field, f.value):
            continue
        cur = best.get(f.field)
        if cur is None or _rank(f) >= _rank(cur):
            best[f.field] = f
    return best


# A list given in place of an earlier one ("... on Lambda instead", "switch to AWS"), not added to it.
# "what if we went with H100s", "what about B200s": a what-if on another GPU replaces the earlier one
_REPLACES = re.compile(
    r"\binstead\b(?!\s+of)|\bswitch(?:ing|ed)?\s+to\b|\bchange\s+of\s+plans?\b|\bwhat\s+if\b|\bwhat\s+about\b"
    r"|\bhow\s+about\b",
    re.I,
)


def merge_findings(prior: WorkloadProfile | None, findings: Iterable[Finding]) -> WorkloadProfile:
    """`prior` updated with `findings` under the module's merge rules; a new validated profile."""
    findings = list(findings)
    base = prior if prior is not None else WorkloadProfile()
    data: dict[str, Any] = base.model_dump()
    prov: dict[str, Provenance] = dict(base.provenance)

    for name, f in select_findings(findings).items():
        old = prov.get(name)
        prior_stated = old is not None and old.status == "stated" and data.get(name) is not None
        if f.status == "inferred" and prior_stated and not f.converted:
            continue  # an estimate never overrides what the user stated earlier
        if f.retract:  # "forget the $10k": unknown again
            data[name] = None
            prov.pop(name, None)
            continue
        data[name] = f.value
        prov[name] = Provenance(status=f.status, evidence=clip_evidence(f.evidence))

    # A new claim on a count says its own direction: "needs at least 8x H100?" then "is 2x H100 enough?" is a
    # plain claim again (tools/recommend/claim_bounds.py answers the bound)
    claimed = {f.field for f in findings if f.field in ("claimed_gpu", "claimed_gpu_count")}
    if claimed and not any(f.field == "claimed_gpu_bound" for f in findings):
        data["claimed_gpu_bound"] = None
        prov.pop("claimed_gpu_bound", None)
    # ... and its own reporter: "my vendor says 4x H100" then "is 2x H100 enough?" is the user's own claim
    if claimed and not any(f.field == "claim_source" for f in findings):
        data["claim_source"] = None
        prov.pop("claim_source", None)

    # ... and a new deadline says its own kind: "would be nice" earlier, then "it must be done by Friday", is
    # a hard deadline again (advisor/extract/rules_deadline_soft.py)
    fields = {f.field for f in findings}
    if "deadline_hours" in fields and "deadline_soft" not in fields:
        data["deadline_soft"] = None
        prov.pop("deadline_soft", None)

    # Lists accumulate; a provider moves between preferred (or required) and excluded when the user says so.
    # A list's evidence is every distinct quote of this text that added to it ("no on-demand; no spot").
    quotes: dict[str, list[str]] = {}
    replaced: set[str] = set()
    for f in sorted((f for f in findings if f.field in LIST_FIELDS), key=lambda f: f.position):
        values = [f.value] if isinstance(f.value, str) else list(f.value)
        if f.retract:  # "forget what I said about spot": that exclusion no longer holds
            data[f.field] = [x for x in data[f.field] if x not in values]
            continue
        if f.field not in replaced and _REPLACES.search(f.evidence or ""):
            # "budget got approved for H100s on Lambda instead": the earlier turns' list is replaced
            replaced.add(f.field)
            data[f.field] = [x for x in data[f.field] if x not in getattr(base, f.field)]
        for v in values:
            for other in _CONTRADICTS[f.field]:
                if v in data[other]:
                    data[other] = [x for x in data[other] if x != v]
            if v not in data[f.field]:
                data[f.field] = [*data[f.field], v]
        said = quotes.setdefault(f.field, [])
        if f.evidence not in said:
            said.append(f.evidence)
        prov[f.field] = Provenance(status=f.status, evidence=clip_evidence("; ".join(said)))
    for name in LIST_FIELDS:
        if not data[name]:
            prov.pop(name, None)

    data["provenance"] = prov
    return WorkloadProfile.model_validate(data)


def changed_fields(before: WorkloadProfile | None, after: WorkloadProfile) -> list[str]:
    """Profile fields whose value differs between two profiles (for 'I understood: ...' summaries)."""
    b = before.model_dump() if before is not None else WorkloadProfile().model_dump()
    a = after.model_dump()
    return [k for k in PROFILE_FIELDS if a.get(k) != b.get(k)]
