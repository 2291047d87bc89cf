"""A "how many <GPU>?" question answered for that GPU (expert review 12, R04).

"CPT Qwen2.5 7B on 100B tokens, 4 weeks. How many H100s?" names the GPU to be counted: the extractor reads it
as the GPU wanted (advisor/extract/rules_count_question.py), so the pick is that GPU. The buyer asked for a
count, so the answer says two counts of it against the deadline:

- tight: the fewest of that GPU that meet the deadline only at the upper end of the MFU range
  (deadline status "maybe", tools/recommend/risk.py `deadline_status`);
- with margin: the fewest that meet it even at the low end (status "meets").

A count question is no wish to see nothing else: the best option without the GPU filter (another GPU that
is cheaper or faster) follows the pick as an alternative, from a second engine run with `gpus_wanted`
cleared.
"""

from __future__ import annotations

import re

from tools.defaults import CatalogView, ResolvedWorkload, resolve_workload
from tools.errors import InputError
from tools.recommend.caches import Caches
from tools.recommend.candidates import Candidate
from tools.recommend.count_pair import count_pair, middle_text, pick_reason, safe_text, tight_text
from tools.recommend.engine import Engine
from tools.recommend.models import Label, RecommendSettings
from tools.recommend.outcome import Outcome
from tools.recommend.run import run_engine

_HOW_MANY = re.compile(r"\bhow\s+many\b", re.I)
"""The words that make gpus_wanted a count question (advisor/extract/rules_count_question.py)."""


def asked_count(w: ResolvedWorkload) -> bool:
    """Whether the GPU wanted comes from a "how many <GPU>" question (its provenance evidence says so)."""
    p = w.profile
    if p.count_asked:  # "how many GPUs do we need?": the pick's GPU is counted (expert review 16, R16)
        return True
    prov = p.provenance.get("gpus_wanted")
    return bool(p.gpus_wanted) and prov is not None and _HOW_MANY.search(str(prov.evidence)) is not None


def count_note(w: ResolvedWorkload, out: Outcome) -> str | None:
    """The counts of the GPU asked about against the deadline: at the middle of the time range and with
    margin, each priced, and which the pick is (tools/recommend/count_pair.py)."""
    p = w.profile
    if not asked_count(w) or not p.deadline_hours or out.primary is None:
        return None
    primary = out.primary
    cands = [c for c in out.all_feasible if c.gpu.id == primary.gpu.id and c.deadline_status is not None]
    pair = count_pair(cands, p.deadline_hours, primary)
    parts: list[str] = []
    if pair.tight is not None:
        parts.append(tight_text(pair.tight))
    if pair.middle is not None:
        parts.append(middle_text(pair.middle, p.deadline_hours))
    if pair.safe is not None:
        parts.append(safe_text(pair.safe))
    elif parts:
        parts.append("no count of it in the catalog meets it at the slow end")
    head = f"How many {primary.gpu.name} for the {p.deadline_hours:,.0f} h deadline"
    if not parts:
        return f"{head}: no count of it meets the deadline in the catalog."
    reason = pick_reason(pair, primary, p)
    return f"{head}: " + "; ".join(parts) + "." + (f" {reason}" if reason else "")


def unfiltered_alternative(
    w: ResolvedWorkload,
    out: Outcome,
    catalog: CatalogView,
    settings: RecommendSettings,
    caches: Caches | None,
) -> tuple[Candidate, Label, Engine] | None:
    """The best option on any GPU when it is cheaper or faster than the pick on the GPU counted (module
    docstring); None when the question named no count, or the pick is already that option."""
    if not asked_count(w) or not w.profile.gpus_wanted or out.primary is None:
        return None
    p = w.profile
    free = p.with_values("inferred", {"gpus_wanted": "another GPU than the one counted"}, gpus_wanted=[])
    try:
        out2 = run_engine(resolve_workload(profile=free, catalog=catalog), catalog, settings, caches)
    except InputError:
        return None
    best = out2.primary
    if best is None or best.gpu.id in p.gpus_wanted or best.misses:
        return None
    primary = out.primary
    if best.wall_hours.mid < primary.wall_hours.mid:
        return best, "fastest", out2.engine
    if best.cost_mid < primary.cost_mid:
        return best, "cheapest", out2.engine
    return None
