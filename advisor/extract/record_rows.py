"""Requests pasted as a record of another tool, read as the key/value table rows the rules already read
(evals v16, development data; issue 12: each was read as one run-on sentence and most values were lost):

- a SQL `INSERT INTO t (a, b, ...) VALUES (x, y, ...);` of one row: each column with its value
  ('| output tokens each | 400 |'); quotes dropped, TRUE/FALSE as yes/no, a Postgres array literal
  '{gcp,aws}' as its items, NULL left out;
- a pasted command line, `$ ./plan serve --model M --concurrency 48 --no-spot \\`: each `--flag value` as a
  row, a bare `--flag` as 'flag | yes' and `--no-flag` as 'flag | no';
- a block of camelCase `key: value` lines (a GraphQL input, a JavaScript/TypeScript object, a Kubernetes or
  Helm values file): 'maxConcurrentSequences: 32  # note' -> '| max concurrent sequences | 32 |' and
  '| note | note |'.

Keys go through json_rows.settings_key (a unit suffix after the number: '--ttft-ms 800' -> 'ttft | 800 ms').
Each form needs at least json_rows.MIN_ROWS values, so a lone '--verbose' or 'fooBar: 1' in prose stays.
"""

from __future__ import annotations

import re

from advisor.extract.json_rows import MIN_ROWS, settings_key

# ------------------------------------------------------------------------------------------------ SQL
_INSERT = re.compile(
    r"\bINSERT\s+INTO\s+[\w.\"`]+\s*\((?P<cols>[^()]*)\)\s*VALUES\s*\((?P<vals>(?:[^()']|'[^']*')*)\)"
    r"(?!\s*,\s*\()\s*;?",
    re.I,
)


def _cells(vals: str) -> list[str]:
    """The comma-separated values of a VALUES tuple; commas inside quotes or braces kept."""
    out: list[str] = []
    cur = ""
    depth = 0
    quoted = False
    for ch in vals:
        if ch == "'":
            quoted = not quoted
        elif not quoted and ch == "{":
            depth += 1
        elif not quoted and ch == "}":
            depth -= 1
        if ch == "," and not quoted and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    out.append(cur.strip())
    return out


def _sql_value(v: str) -> str:
    v = v.strip().strip("'").replace("''", "'")
    if v.startswith("{") and v.endswith("}"):  # a Postgres array literal (PostgreSQL docs, 8.15 Arrays)
        v = ", ".join(x.strip().strip('"') for x in v[1:-1].split(",") if x.strip())
    return {"true": "yes", "false": "no", "null": ""}.get(v.lower(), v)


def _insert_rows(m: re.Match[str]) -> str:
    cols = [c.strip().strip('"`') for c in m.group("cols").split(",")]
    vals = _cells(m.group("vals"))
    if len(cols) != len(vals) or len(cols) < MIN_ROWS:
        return m.group(0)
    rows = []
    for col, raw in zip(cols, vals, strict=True):
        value = _sql_value(raw)
        if value:
            key, value = settings_key(col, value)
            rows.append(f"| {key} | {value} |")
    return "\n".join(rows)


def sql_rows(text: str) -> str:
    """`text` with a one-row SQL INSERT written as '| column | value |' rows."""
    if "insert" not in text.lower():
        return text
    return _INSERT.sub(_insert_rows, text)


# ---------------------------------------------------------------------------------------- command line
# a command's lines: '$ ./tool sub \\', '    --model M \\', '    --no-spot': a shell prompt's line or one
# continued with a trailing backslash opens it; the run ends at the first line without the backslash
_CMD_START = re.compile(r"^[ \t]*[$%][ \t]+\S|[^\n]*\\[ \t]*$")
_FLAG = re.compile(
    r"(?<!\S)--(?P<name>[a-z][\w-]*)(?:[ \t]*=[ \t]*|[ \t]+)?(?P<value>\"[^\"]*\"|'[^']*'|[^\s\\-][^\s\\]*)?",
    re.I,
)


def _flag_row(name: str, value: str | None) -> str:
    key = name.replace("-", "_")
    if value is None:
        if key.lower().startswith("no_"):
            return f"| {key[3:].replace('_', ' ')} | no |"
        return f"| {key.replace('_', ' ')} | yes |"
    words, said = settings_key(key, value.strip("\"'"))
    return f"| {words} | {said} |"


def flag_rows(text: str) -> str:
    """`text` with a pasted command line of >= MIN_ROWS flags written as one '| flag | value |' row each."""
    if "--" not in text:
        return text
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        if not _CMD_START.match(lines[i]) or "`" in lines[i]:
            out.append(lines[i])
            i += 1
            continue
        j = i
        while lines[j].rstrip().endswith("\\") and j + 1 < len(lines):
            j += 1
        command = " ".join(line.rstrip().rstrip("\\") for line in lines[i : j + 1])
        flags = list(_FLAG.finditer(command))
        if len(flags) < MIN_ROWS:
            out.extend(lines[i : j + 1])
        else:
            out.append(command[: flags[0].start()].strip().lstrip("$>% ").strip())
            out.extend(_flag_row(f.group("name"), f.group("value")) for f in flags)
        i = j + 1
    return "\n".join(out)


# ------------------------------------------------------------------------------------- camelCase keys
_KEY_LINE = re.compile(
    r"^[ \t]*(?P<key>[a-z][A-Za-z0-9]*)[ \t]*:[ \t]*(?P<value>[^#\n]*?)[ \t]*,?[ \t]*"
    r"(?:#[ \t]*(?P<note>.*?))?[ \t]*$"
)
_CAMEL = re.compile(r"^[a-z]+(?:[A-Z][a-z0-9]*)+$")
_CLOSING = re.compile(r"^[ \t]*[}\])]+[;,)]*[ \t]*$")
_HUMP = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def _camel_value(v: str) -> str:
    v = v.strip().rstrip(",").strip()
    if v.startswith("[") and v.endswith("]"):
        v = ", ".join(x.strip().strip("\"'") for x in v[1:-1].split(",") if x.strip())
    v = v.strip("\"'")
    return {"true": "yes", "false": "no", "null": ""}.get(v.lower(), v)


def _camel_row(m: re.Match[str]) -> str:
    key = _HUMP.sub("_", m.group("key")).lower()
    words, value = settings_key(key, _camel_value(m.group("value")))
    note = f"\n| note | {m.group('note')} |" if m.group("note") else ""  # the comment: a row of its own
    return f"| {words} | {value} |{note}"


def camel_rows(text: str) -> str:
    """`text` with each run of >= MIN_ROWS 'key: value' lines, two or more of them camelCase, written as
    '| key words | value |' rows (a line opening or closing a block, '{' or '})', ends the run)."""
    lines = text.split("\n")
    matches = [_KEY_LINE.match(line) for line in lines]
    out: list[str] = []
    i = 0
    while i < len(lines):
        j = i
        while j < len(lines) and (m := matches[j]) is not None and m.group("value").strip() not in ("", "{"):
            j += 1
        camel = sum(1 for m in matches[i:j] if m and _CAMEL.match(m.group("key")))
        if j - i >= MIN_ROWS and camel >= 2:
            out.extend(_camel_row(m) for m in matches[i:j] if m)
            if j < len(lines) and _CLOSING.match(lines[j]):
                out.append("")  # the object's closing '};' would join the last row's sentence
                j += 1
            i = j
        else:
            out.append(lines[i])
            i += 1
    return "\n".join(out)


def record_rows(text: str) -> str:
    """`text` with a pasted SQL INSERT, command line or camelCase key block written as table rows."""
    return camel_rows(flag_rows(sql_rows(text)))
