"""A Markdown table with one column per workload ("| Area | Training | Serving |" / "| Model | Mistral NeMo
12B | the fine-tuned Mistral NeMo 12B |"), as planning pages put a two-part request: each cell becomes a
"Training model: ..." or "Serving model: ..." line, so the part's key (advisor/extract/brief_text.key_kind)
gives every fact its workload (evals v13, a Notion page: the serving column was read into the training
profile and the second workload was lost).

Only when the header names exactly one training and one serving column; a table of other columns ("| GPU |
Qty |") stays for rules_text._table_row. An empty cell ("", "-", "–", "n/a") says nothing."""

from __future__ import annotations

import re

from advisor.extract.brief_text import key_kind

_TABLE = re.compile(r"(?:^[ \t]*\|[^\n]*\|[ \t]*(?:\n|$)){3,}", re.M)
_RULE_CELL = re.compile(r":?-{2,}:?")
_EMPTY = re.compile(r"[-–—]*|n/?a|none|tbd", re.I)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _parts(header: list[str]) -> dict[int, str] | None:
    """Column index -> 'Training' / 'Serving' when the header has one column of each part, else None."""
    kinds = {i: key_kind(f"{c}: x") for i, c in enumerate(header) if i > 0}
    named = {i: k for i, k in kinds.items() if k is not None}
    if sorted(named.values()) != ["serving", "training"]:
        return None
    return {i: k.capitalize() for i, k in named.items()}


def _split(m: re.Match[str]) -> str:
    lines = [line for line in m.group(0).split("\n") if line.strip()]
    parts = _parts(_cells(lines[0]))
    if parts is None:
        return m.group(0)
    out: list[str] = []
    for line in lines[1:]:
        cells = _cells(line)
        if all(_RULE_CELL.fullmatch(c) or not c for c in cells):
            continue
        key = cells[0]
        for i, part in parts.items():
            if i < len(cells) and not _EMPTY.fullmatch(cells[i]):
                out.append(f"{part} {key.lower()}: {cells[i]}")
    tail = "\n" if m.group(0).endswith("\n") else ""
    return "\n\n".join(out) + tail


def part_columns(text: str) -> str:
    """`text` with each training/serving two-column table written as keyed lines of its part."""
    return _TABLE.sub(_split, text)
