"""A two-column table pasted from a spreadsheet whose locale separates cells with semicolons ("Item;Value",
"Documents;400.000"), read as the Markdown table rows the rules already read ("| Documents | 400,000 |").

Spreadsheets (Excel, LibreOffice) export CSV with ";" where the locale's decimal separator is the comma
(Dutch, German, French, Italian...), and those locales group thousands with a dot or a space (CLDR number
symbols, e.g. nl: decimal ",", group "."; https://cldr.unicode.org/). So inside such rows "400.000" is four
hundred thousand and "0,24" is 0.24 (evals v14: "Documents;400.000" was not read, issue 12). Only a run of at
least three such lines is a table; one "a;b" line in prose is left alone.
"""

from __future__ import annotations

import re

_ROW = re.compile(r"^[ \t]*(?P<key>[^;\n|]{1,60}?)[ \t]*;[ \t]*(?P<value>[^;\n]*?)[ \t]*$")
_MIN_ROWS = 3
_DOT_GROUPS = re.compile(r"(?<![\w.,])\d{1,3}(?:\.\d{3})+(?![\d.,])")
_DECIMAL_COMMA = re.compile(r"(?<![\w.,])(\d+),(\d{1,2})(?![\d.,])")


def _value(v: str) -> str:
    v = _DOT_GROUPS.sub(lambda m: m.group(0).replace(".", ","), v)
    return _DECIMAL_COMMA.sub(r"\1.\2", v)


def semicolon_rows(text: str) -> str:
    """`text` with each run of >= 3 'key;value' lines written as '| key | value |' table rows."""
    if ";" not in text:
        return text
    lines = text.split("\n")
    rows = [_ROW.match(line) for line in lines]
    out: list[str] = []
    i = 0
    while i < len(lines):
        j = i
        while j < len(lines) and rows[j] is not None:
            j += 1
        if j - i >= _MIN_ROWS:
            out.extend(f"| {m.group('key')} | {_value(m.group('value'))} |" for m in rows[i:j] if m)
            i = j
        else:
            out.append(lines[i])
            i += 1
    return "\n".join(out)
