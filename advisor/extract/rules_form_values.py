"""Constraints written as a form's or a config file's values (issue 12; evals v13, read as development data):

- a config key naming the cloud: `cloud = "gcp"`, `provider: aws` (providers_required, as "GCP only");
- a config key capping the GPUs: `max_gpu_count = 16`, `gpu_quota: 8`, `maxGpus: 4` (max_gpus);
- a cap said after the count with "total": "4 GPUs total is the cap", "8 GPUs in total is our limit";
- a form's yes/no question about spot answered on the same line: "Can we use spot / low-priority VMs?: No"
  (pricing_excluded spot; "Yes" says spot is fine);
- a key about spot and its yes/no value (evals v16: a Google Forms export, a SQL row, a GraphQL input):
  "Spot / preemptible acceptable?: No", "spot_ok: TRUE", "allowSpot: false" (as "allow spot: no").
"""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, Gated, I, q
from advisor.extract.rules_models import PROVIDER_FAMILIES, find_providers

_CLOUD_KEY = Gated(
    re.compile(
        # not a preferred or backup provider's key ('preferred provider: runpod' prefers it; ext25)
        r"(?:^|(?<!preferred)(?<!backup)(?<!fallback)(?<!secondary)[\s{,(])"
        r"(?:cloud|cloud[_ ]?provider|provider)\s*[:=]\s*[\"']?(?P<name>[a-z][\w.-]{1,30})",
        I,
    ),
    "cloud", "provider",
)  # fmt: skip
_GPU_CAP_KEY = Gated(
    re.compile(
        # (the brief's text keeps no underscores: "max_gpu_count" arrives as "max gpu count")
        r"(?:^|[\s{,(])(?:max[_ ]?gpu[_ ]?count|max[_ ]?gpus?|max[_ ]?num[_ ]?gpus|gpu[_ ]?quota"
        r"|gpu[_ ]?limit)\s*[:=]\s*"
        r"[\"']?(?P<num>\d{1,5})\b",
        I,
    ),
    "gpu",
)  # fmt: skip
_TOTAL_CAP = Gated(
    re.compile(
        r"\b(?P<num>\d{1,5})\s+(?:gpus?|cards?|accelerators?)\s+(?:in\s+)?total\s+(?:is|are)\s+(?:the|our|a|my)\s+"
        r"(?:hard\s+|firm\s+)?(?:cap|limit|ceiling|max(?:imum)?)\b",
        I,
    ),
    "total",
)  # fmt: skip
_SPOT_ANSWER = Gated(
    re.compile(
        r"\b(?:can|could|may|should)\s+(?:we|i|you)\s+(?:use|run\s+on|go\s+with)\s+(?:spot|preemptible|low[\s-]priority)"
        r"[^?\n]{0,40}\?\s*[:=\-–]?\s*(?P<ans>no|nope|not\s+allowed|yes|ok(?:ay)?|fine)\b",
        I,
    ),
    "spot", "preemptible", "priority",
)  # fmt: skip

_SPOT_WORD = r"(?:spot|pre-?emptible|interruptible|low[\s-]priority)"
_SPOT_KEY = Gated(
    re.compile(
        rf"(?:^|(?<=[.;!?]\s))(?:(?:allow(?:ed)?|use|accept|can\s+use)\s+)?{_SPOT_WORD}(?:\s*(?:/|or)\s*{_SPOT_WORD})?"
        r"(?:\s+(?:instances?|capacity|vms?|nodes?|gpus?|pricing))?"
        r"(?:\s+(?:ok|okay|allowed|acceptable|fine|permitted|usable))?\s*\??\s*[:=]\s*"
        r"(?P<ans>yes|no|true|false|y|n)\b(?!/)(?![\s-]*(?:idea|preference|opinion|clue|answer|problem|issue|worries|concern|strong)s?\b)",
        I,
    ),
    "spot", "empt", "interrupt", "priority",
)  # fmt: skip


_JOINER = re.compile(r"\s*(?:,\s*(?:or|and)?|\bor\b|\band\b|/|\||&)\s*", I)


def _listed_after(t: str, start: int) -> list[tuple[str, int, int]]:
    """The providers after the one at `start` that continue its list with joiners only (", GCP or Azure")."""
    names = [n for n in find_providers(t) if n[1] >= start]
    out: list[tuple[str, int, int]] = []
    end = names[0][2] if names else start
    for pid, a, b in names[1:]:
        if a == names[0][1] or (out and a == out[-1][1]):
            out.append((pid, a, b))  # a family's other ids at the same place
            continue
        if _JOINER.fullmatch(t, end, a) is None:
            break
        out.append((pid, a, b))
        end = b
    return [(p, a, b) for pid, a, b in out for p in PROVIDER_FAMILIES.get(pid, (pid,))]


def rule_form_values(ctx: Ctx) -> None:
    """providers_required, max_gpus and pricing_excluded from a form's or a config's values."""
    entries = (_CLOUD_KEY, _GPU_CAP_KEY, _TOTAL_CAP, _SPOT_ANSWER, _SPOT_KEY)  # a finding needs one to match
    for s in ctx.sentences_with(*entries):
        t = s.text
        for m in _CLOUD_KEY.finditer(t):
            found = find_providers(m.group("name"))
            if len(found) == 1 or (found and len({p for p, _, _ in found}) == len(found)):
                for pid, _, _ in found:
                    for p in PROVIDER_FAMILIES.get(pid, (pid,)):
                        ctx.add(s, "providers_required", [p], q(m), "stated", m.start("name"))
                        ctx.add(s, "providers_preferred", [p], q(m), "stated", m.start("name"))
                for pid, at, end in _listed_after(t, m.start("name")):
                    # the key's value is a list: "Cloud: AWS, GCP or Azure" required AWS alone (fix32)
                    ctx.add(s, "providers_required", [pid], t[m.start() : end], "stated", at)
                    ctx.add(s, "providers_preferred", [pid], t[m.start() : end], "stated", at)
        for rx in (_GPU_CAP_KEY, _TOTAL_CAP):
            for m in rx.finditer(t):
                n = int(m.group("num"))
                if n >= 1:
                    ctx.add(s, "max_gpus", n, q(m), "stated", m.start())
        for m in (*_SPOT_ANSWER.finditer(t), *_SPOT_KEY.finditer(t)):
            if m.group("ans").lower().startswith(("no", "not")) or m.group("ans").lower() in ("false", "n"):
                ctx.add(s, "pricing_excluded", ["spot"], q(m), "stated", m.start())
            else:
                ctx.add(s, "spot_ok", True, q(m), "stated", m.start())
