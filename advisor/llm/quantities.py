"""Which quantity a number stands for: in a tool's result (from its field name) and in a reply (from the
words around it). The number check (numbers.py) uses both so that a figure is attached to the right
thing, not only present somewhere: "8 GPUs" for a 1-GPU option fails although 8 is a tool number (the
nodes' GPUs, a batch size); "33 GiB of total usable memory" fails when 33 GiB is the free headroom.

Kinds: gpus, nodes, usd, time, tokens, percent, bytes, and two kinds of bytes a reply may name:
bytes_free (free, headroom, spare) and bytes_total (total, usable, capacity, VRAM). A reply's generic
"47 GiB" may be any bytes; its "33 GiB free" must be a free amount, its "80 GiB total" a total one.
A number whose words name no kind ("2x faster", "3 epochs") is checked by value only.
"""

from __future__ import annotations

import re

Kind = str
# field-name patterns, first match wins (a fraction before the words it is a fraction of)
_KEY_KINDS: tuple[tuple[Kind, re.Pattern[str]], ...] = (
    ("percent", re.compile(r"fraction|utili[sz]ation|mfu|pct|percent")),
    ("bytes_free", re.compile(r"free|headroom|spare")),
    ("bytes_total", re.compile(r"vram|usable|capacity")),
    ("gpus", re.compile(r"gpus|gpu_count")),
    ("nodes", re.compile(r"nodes")),
    ("usd", re.compile(r"usd|cost|price|budget|dollar")),
    ("bytes", re.compile(r"gib|(?:^|_)gb(?:_|$)|memory|bytes")),
    ("time", re.compile(r"hours|days|weeks|months|deadline|(?:^|_)h$")),
    ("tokens", re.compile(r"tokens|seq_len|context_len")),
)
_UNIT_KINDS: dict[str, Kind] = {
    "%": "percent", "GB": "bytes", "GiB": "bytes", "TB": "bytes", "TiB": "bytes", "MB": "bytes",
    "MiB": "bytes", "PB": "bytes", "h": "time", "day": "time", "week": "time", "month": "time", "min": "time",
}  # fmt: skip
_TRACE_UNITS: dict[str, Kind] = {"usd": "usd", "$": "usd", "gib": "bytes", "gb": "bytes", "h": "time",
                                 "hours": "time", "tokens": "tokens", "gpus": "gpus"}  # fmt: skip
# words right after a number
_GPU_AFTER = re.compile(
    r"^\s*(?:x\s*)?(?:(?:nvidia\s+)?(?:rtx\s*)?[ahlbtv]\d{2,4}\w*(?:\s+(?:sxm|pcie|nvl)\w*)?s?\b|"
    r"(?:\w+\s+)?gpus?\b|cards?\b|accelerators?\b)",
    re.I,
)
_HOURS_AFTER = re.compile(r"^\s*(?:gpu[- ])?(?:hours?|hrs?)\b", re.I)  # "354 GPU-hours" is a duration
_NODES_AFTER = re.compile(r"^\s*(?:\w+\s+)?nodes?\b", re.I)
_TOKENS_AFTER = re.compile(r"^\s*tokens?\b", re.I)
_FREE = re.compile(r"\b(?:free|headroom|spare|left(?: over)?|to spare|remaining)\b", re.I)
_TOTAL = re.compile(r"\b(?:total|usable|capacity|vram)\b", re.I)
_EXAMPLES = re.compile(
    r"\b(?:for example|for instance|e\.g\.?|such as)", re.I
)  # "(for example 2k, 8k tokens)"
_CONTEXT_BEFORE_CHARS = 40
_CONTEXT_AFTER_CHARS = 20

# which allowed kinds support a reply's kind
ACCEPTS: dict[Kind, frozenset[Kind]] = {
    "bytes": frozenset({"bytes", "bytes_free", "bytes_total"}),
    "bytes_free": frozenset({"bytes_free"}),
    "bytes_total": frozenset({"bytes_total"}),
}
WORDS: dict[Kind, str] = {
    "gpus": "GPU count", "nodes": "node count", "usd": "dollar amount", "time": "duration",
    "tokens": "token count", "percent": "percentage", "bytes": "memory or data size",
    "bytes_free": "free memory", "bytes_total": "total memory",
}  # fmt: skip


def key_kind(key: str) -> Kind | None:
    """The kind of a tool result's field ('total_gpus' -> gpus, 'vram_gib_per_gpu' -> bytes_total)."""
    low = key.lower()
    for kind, pat in _KEY_KINDS:
        if pat.search(low):
            return kind
    return None


def unit_kind(unit: str) -> Kind | None:
    """The kind of a trace step's output unit ('USD' -> usd, 'GiB' -> bytes)."""
    return _TRACE_UNITS.get(unit.strip().lower())


def accepts(kind: Kind) -> frozenset[Kind]:
    return ACCEPTS.get(kind, frozenset({kind}))


def context_kind(
    before: str, after: str, unit: str | None, currency: str | None, clause: str = ""
) -> Kind | None:
    """The kind a number has in prose, from its currency, unit and the words next to it. `before` is
    the text since the previous number (or sentence start), `after` the text up to the next number or
    punctuation; both are clipped here. `clause`: the text of its clause before it; numbers given as
    examples ("for example 2k, 4k, 8k tokens") name no quantity of this answer."""
    if _EXAMPLES.search(clause):
        return None
    before = re.split(r"[,.;:!?()]", before[-_CONTEXT_BEFORE_CHARS:])[-1]
    after = re.split(r"[,.;:!?()]", after[:_CONTEXT_AFTER_CHARS], maxsplit=1)[0]
    if currency == "$":
        return "usd"
    kind = _UNIT_KINDS.get(unit or "")
    if kind == "bytes":
        if _FREE.search(after) or _FREE.search(before):
            return "bytes_free"
        if _TOTAL.search(after) or _TOTAL.search(before):
            return "bytes_total"
        return kind
    if kind is not None:
        return kind
    if _HOURS_AFTER.match(after):
        return "time"
    if _GPU_AFTER.match(after):
        return "gpus"
    if _NODES_AFTER.match(after):
        return "nodes"
    if _TOKENS_AFTER.match(after):
        return "tokens"
    return None
