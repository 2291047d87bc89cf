"""A two-column table pasted from a spreadsheet whose locale separates cells with semicolons ("Item;Value",
"Documents;400.000"), read as the Markdown table rows the rules already read ("| Documents | 400,000 |").

Spreadsheets (Excel, LibreOffice) export CSV with ";" where the locale's decimal separator is the comma
(Dutch, German, French, Italian...), and those locales group thousands with a dot or a space (CLDR number
symbols, e.g. nl: decimal ",", group "."; https://cldr.unicode.org/). So inside such rows "400.000" is four
hundred thousand and "0,24" is 0.24 (evals v14: "Documents;400.000" was not read, issue 12). Only a run of at
least three such lines is a table; one "a;b" line in prose is left alone.

A comma CSV of settings, "requirement,value,notes" / "peak_concurrency,64," / "prompt_tokens,2000,avg incl.
system prompt", is read the same way: each row a key (snake_case as words) and its value, the notes after a
semicolon. Only when the header's second cell names a value ("value", "setting", "target", "answer"); a CSV
of records ("asset_tag,model,gpus,...") is not a list of settings and is left alone.
"""

from __future__ import annotations

import re

from advisor.extract.json_rows import MIN_ROWS, rows_of_runs, settings_key

_ROW = re.compile(r"^[ \t]*(?P<key>[^;\n|]{1,60}?)[ \t]*;[ \t]*(?P<value>[^;\n]*?)[ \t]*$")
_DOT_GROUPS = re.compile(r"(?<![\w.,])\d{1,3}(?:\.\d{3})+(?![\d.,])")
_DECIMAL_COMMA = re.compile(r"(?<![\w.,])(\d+),(\d{1,2})(?![\d.,])")


def _value(v: str) -> str:
    v = _DOT_GROUPS.sub(lambda m: m.group(0).replace(".", ","), v)
    return _DECIMAL_COMMA.sub(r"\1.\2", v)


_CSV_ROW = re.compile(r"^[ \t]*[^,\n|]{1,60}(?:,[^,\n]*){1,3}$")
_VALUE_HEADER = re.compile(r"^[^,]*,\s*(?:value|setting|target|answer|amount|figure)s?\s*(?:,|$)", re.I)


def _csv_row(line: str) -> str:
    key, value, *notes = [c.strip() for c in line.split(",")]
    words, value = settings_key(key, value)
    said = "; ".join(c for c in (value, *notes) if c)
    return f"| {words} | {said} |"


def csv_rows(text: str) -> str:
    """`text` with a comma CSV of settings (header 'name,value[,notes]') written as '| key | value |' rows."""
    if "," not in text:
        return text
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        j = i
        commas = lines[i].count(",")
        while j < len(lines) and _CSV_ROW.match(lines[j]) and lines[j].count(",") == commas:
            if ", " in lines[j]:
                break  # prose lists put a space after the comma; a CSV export does not
            j += 1
        if j - i >= MIN_ROWS and _VALUE_HEADER.match(lines[i]):
            out.extend(_csv_row(line) for line in lines[i:j])
            i = j
        else:
            out.append(lines[i])
            i += 1
    return "\n".join(out)


def semicolon_rows(text: str) -> str:
    """`text` with each run of >= 3 'key;value' lines written as '| key | value |' table rows."""
    if ";" not in text:
        return text
    return rows_of_runs(text, _ROW, lambda m: f"| {m.group('key')} | {_value(m.group('value'))} |")
