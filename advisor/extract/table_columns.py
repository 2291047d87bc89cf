"""A Markdown table of three or more columns with data rows under one header row (issue 12, structural; evals
v13 development case, a lab wiki's job queue: "| job | model | items | tokens out / item | due |" over
"| synthetic QA | Llama 3.1 8B | 5,000,000 | 150 | Dec 10 |"). Each data cell was read bare, so a number
lost the column that says what it counts and a date the word that makes it a deadline. Each data cell is
written the way prose says it, with its column name: a number before it ("5,000,000 items", "150 tokens
out / item"), other text after it ("due Dec 10", "model Llama 3.1 8B"). The header row stays, and so
does each row's first cell, the row's own name ("| Fine-tune | Qwen2.5 7B |": the part a row is about).

Left alone: a table of two columns (a key and its value, rules_text._table_row), a table of two parts
(table_parts), and a hardware listing (a column named GPU, gpu_model, host, node, server, hardware, qty,
asset: the inventory rules read those cells as they are), a row whose cell count differs from the
header's, an empty cell.
"""

from __future__ import annotations

import re

_TABLE = re.compile(r"(?:^[ \t]*\|[^\n]*\|[ \t]*(?:\n|$)){3,}", re.M)
_RULE_CELL = re.compile(r":?-{2,}:?")
_EMPTY = re.compile(r"[-–—]*|n/?a|none|tbd", re.I)
_HARDWARE_HEAD = re.compile(
    r"(?<![a-z])(?:gpus?|hosts?|hostname|nodes?|servers?|cards?|accelerators?|machines?|hardware|assets?"
    r"|qty|quantity|ownership|inventory)(?![a-z])",
    re.I,
)
_NUMBER_CELL = re.compile(r"[~≈]?\s*\d[\d,.]*\s*(?:k|m|bn?|thousand|million|billion)?", re.I)
_MIN_COLUMNS = 3  # two columns are a key and its value (rules_text._table_row)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _cell(head: str, value: str) -> str:
    if not head or _EMPTY.fullmatch(value):
        return value
    return f"{value} {head}" if _NUMBER_CELL.fullmatch(value) else f"{head} {value}"


def _table(m: re.Match[str]) -> str:
    lines = m.group(0).rstrip("\n").split("\n")
    header, rule = _cells(lines[0]), _cells(lines[1])
    if len(header) < _MIN_COLUMNS or not all(_RULE_CELL.fullmatch(c) for c in rule):
        return m.group(0)
    if any(_HARDWARE_HEAD.search(h) for h in header):
        return m.group(0)
    out = lines[:2]
    for line in lines[2:]:
        cells = _cells(line)
        if len(cells) != len(header):
            out.append(line)
            continue
        named = [_cell(h, c) for h, c in zip(header[1:], cells[1:], strict=True)]
        out.append("| " + " | ".join([cells[0], *named]) + " |")  # the first cell names the row itself
    return "\n".join(out) + ("\n" if m.group(0).endswith("\n") else "")


def column_tables(text: str) -> str:
    """`text` with each data cell of a many-column table written with its column's name."""
    if "|" not in text:
        return text
    return _TABLE.sub(_table, text)
