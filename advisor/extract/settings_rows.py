"""A request pasted as a machine's settings, read as the key/value table rows the rules already read
(issue 12, ext25: evals v17 read as development data; an XML export, a form POST's body, an INI file, a
Python dataclass, a Protocol Buffers text message and an Ansible vars file each ran into one sentence, or
lost their keys, so most of their values were lost):

- XML elements with text, one per line: '<PromptTokens>6000</PromptTokens>' -> '| prompt tokens | 6000 |',
  a unit attribute after the number ('<TimeToFirstToken unit="s">2</...>' -> '... | 2 s |') and a
  container's type ('<Workload type="inference">' -> '| workload | inference |'); attributes of an empty
  element ('<PreviousPO amount="EUR 64,000"/>') stay unread, as before. HTML tags are not a record.
- a form body, 'a=1&b=x+y&c=%2F' (application/x-www-form-urlencoded, WHATWG URL Standard 5.1): one row
  per pair, decoded;
- a run of settings lines in any of the common file forms: 'key: value' (YAML, Protocol Buffers text
  format), 'key = value' (INI, TOML), 'name: type = value' (a Python dataclass field); a trailing comment
  ('#', ';', '//') is a note row of its own. A section or message name opening a block ('[training]',
  'serving {') is a heading, so the section router (brief_text.heading_kind) sees which workload the rows
  under it belong to; a closing '}' ends the paragraph.

A settings run needs json_rows.MIN_ROWS values and keys that read as a machine's (snake_case, camelCase,
dotted, a '=' or a type annotation, or inside a block): a person's 'Budget: $5k' form is left to the
prose rules. Keys go through json_rows.settings_key ('budget_gbp' -> 'budget | 1200 gbp').
"""

from __future__ import annotations

import re
from urllib.parse import unquote_plus

from advisor.extract.json_rows import MIN_ROWS, settings_key

# ------------------------------------------------------------------------------------------------ XML
_ELEMENT = re.compile(
    r"^(?P<lead>[ \t]*)<(?P<tag>[A-Za-z][\w.-]*)(?P<attrs>(?:\s+[\w:.-]+\s*=\s*\"[^\"]*\")*)\s*>"
    r"(?P<text>[^<>\n]+)</(?P=tag)\s*>(?P<rest>[ \t]*)$"
)
_OPEN = re.compile(
    r"^(?P<lead>[ \t]*)<(?P<tag>[A-Za-z][\w.-]*)(?P<attrs>(?:\s+[\w:.-]+\s*=\s*\"[^\"]*\")*)\s*>[ \t]*$"
)
_ATTR = re.compile(r"(?P<name>[\w:.-]+)\s*=\s*\"(?P<value>[^\"]*)\"")
# HTML's own elements (WHATWG HTML Standard, the element index): a web page's text is prose, not a record
_HTML_NAMES = (
    "a abbr b body br caption code dd div dl dt em footer h1 h2 h3 h4 h5 h6 head header html i li main"
)
_HTML = frozenset(
    (
        _HTML_NAMES + " nav ol p pre section small span strong sub sup table tbody td th thead title tr u ul"
    ).split()
)
_HUMP = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def _snake(name: str) -> str:
    """'TimeToFirstToken' -> 'time_to_first_token', 'max-gpus' -> 'max_gpus', 'train.lr' -> 'train_lr'."""
    return re.sub(r"[.-]", "_", _HUMP.sub("_", name)).lower()


def _xml_row(m: re.Match[str]) -> str:
    attrs = {a.group("name").lower(): a.group("value") for a in _ATTR.finditer(m.group("attrs") or "")}
    value = m.group("text").strip()
    if "unit" in attrs:
        value = f"{value} {attrs['unit']}"
    key, value = settings_key(_snake(m.group("tag")), value)
    return f"{m.group('lead')}| {key} | {value} |"


def xml_rows(text: str) -> str:
    """`text` with a record of >= MIN_ROWS one-line XML elements written as '| key | value |' rows."""
    if "</" not in text:
        return text
    lines = text.split("\n")
    found = [m for line in lines if (m := _ELEMENT.match(line)) and m.group("tag").lower() not in _HTML]
    if len(found) < MIN_ROWS:
        return text
    out: list[str] = []
    for line in lines:
        if (m := _ELEMENT.match(line)) is not None and m.group("tag").lower() not in _HTML:
            out.append(_xml_row(m))
        elif (o := _OPEN.match(line)) is not None and o.group("tag").lower() not in _HTML:
            kind = {a.group("name").lower(): a.group("value") for a in _ATTR.finditer(o.group("attrs"))}
            said = kind.get("type") or kind.get("kind")
            # a container opens a paragraph of its own; its type is what it is ('Workload: inference')
            out.extend(["", f"| {_snake(o.group('tag')).replace('_', ' ')} | {said} |"] if said else [""])
        else:
            out.append(line)
    return "\n".join(out)


# ------------------------------------------------------------------------------------------ form body
_FORM_BODY = re.compile(r"^[ \t]*(?:[\w.%-]+=[^&\s=]*&){2,}[\w.%-]+=[^&\s=]*[ \t]*$")  # MIN_ROWS pairs


def form_body_rows(text: str) -> str:
    """`text` with each line that is a urlencoded body of >= MIN_ROWS pairs written as one row per pair."""
    if "&" not in text:
        return text
    out: list[str] = []
    for line in text.split("\n"):
        if _FORM_BODY.match(line) is None:
            out.append(line)
            continue
        for pair in line.strip().split("&"):
            name, _, raw = pair.partition("=")
            out.extend(_row(unquote_plus(name), unquote_plus(raw), None))
    return "\n".join(out)


# ------------------------------------------------------------------------------------- settings lines
_VALUE = r"(?P<value>\"[^\"\n]*\"|'[^'\n]*'|\[[^\]\n]*\]|[^\s#;\"'{}][^#;\n{}]*?|)"
_NOTE = r"(?:(?:^|[ \t]+)(?:#|;|//)[ \t]*(?P<note>[^\n]*?))?"
_SETTING = re.compile(
    r"^[ \t]*(?P<key>[A-Za-z_][\w.-]*)[ \t]*"
    r"(?:(?P<typed>:[ \t]*[A-Za-z_][\w\[\], .|]*?[ \t]*=)|(?P<sep>[:?+]?=|:))[ \t]*"
    + _VALUE
    + _NOTE
    + r"[ \t]*$"
)
_INLINE_PAIR = re.compile(r"(?P<key>[A-Za-z_]\w*)[ \t]*:[ \t]*(?P<value>\"[^\"]*\"|[^\s{}\"]+)")
_OPENER = re.compile(
    r"^[ \t]*(?:\[(?P<ini>[\w .-]{1,40})\]|(?P<block>[A-Za-z_]\w*)[ \t]*:?[ \t]*\{)" + _NOTE + "$"
)
_INLINE_BLOCK = re.compile(r"^[ \t]*(?P<block>[A-Za-z_]\w*)[ \t]*:?[ \t]*\{(?P<body>[^{}]*)\}" + _NOTE + "$")
_CLOSER = re.compile(r"^[ \t]*\}[ \t]*[,;]?" + _NOTE + "$")
_COMMENT = re.compile(r"^[ \t]*(?:#|;|//)")
_MACHINE_KEY = re.compile(r"_|[a-z][A-Z]|\.")


# a number in E notation, as config files and Python write it ('tokens = 3e9', 'train_tokens: float =
# 2.5e8'): the prose rules read digits, so a whole number is written out with thousands commas
_E_NUMBER = re.compile(r"^[+]?(?P<m>\d+(?:\.\d+)?)[eE](?P<e>[+]?\d{1,2})$")
# a permission's value in words: 'spot=allowed', 'allow_spot: permitted' (yes) or 'forbidden' (no)
_YES_NO = {"true": "yes", "false": "no", "null": "", "none": "", "allowed": "yes", "permitted": "yes",
           "ok": "yes", "okay": "yes", "forbidden": "no", "disallowed": "no", "prohibited": "no"}  # fmt: skip


def _plain(v: str) -> str:
    v = v.strip()
    if v.startswith("[") and v.endswith("]"):
        v = ", ".join(x.strip().strip("\"'") for x in v[1:-1].split(",") if x.strip())
    v = v.strip("\"'")
    if _E_NUMBER.match(v) is not None and (n := float(v)).is_integer() and n < 1e16:  # noqa: PLR2004
        return f"{int(n):,}"
    return _YES_NO.get(v.lower(), v)


# a machine key in the words the prose rules read: a cap's word last ('gpu_count_max' -> 'max gpu count'),
# the LoRA rank's short name ('lora_r', PEFT LoraConfig's `r`), the training set's token count
# ('train_tokens', 'tokens' under a training section -> 'dataset tokens'), a preference ('provider_pref')
_CAP_LAST = re.compile(r"^(?P<what>[a-z][a-z ]*?) (?P<cap>max|min|limit|cap)$")
_KEY_WORDS = (
    (re.compile(r"^(?:lora )?r$|^lora rank$"), "lora rank"),
    (re.compile(r"^(?:train(?:ing)?|dataset|corpus|data)? ?tokens(?: total)?$"), "dataset tokens"),
    (re.compile(r"^(?P<what>provider|cloud|gpu|region) pref(?:erence|erred)?$"), "preferred {what}"),
    (re.compile(r"^(?:data )?residency$"), "data residency"),
)


def key_words(words: str) -> str:
    """A settings key's words as the rules read them (see _KEY_WORDS); other keys as they are."""
    if (cap := _CAP_LAST.match(words)) is not None:
        return f"{cap.group('cap')} {cap.group('what')}"
    for rx, said in _KEY_WORDS:
        if (m := rx.match(words)) is not None:
            return said.format(**m.groupdict())
    return words


def key_value(words: str, value: str) -> str:
    """One key and its value as a table row in the words the rules read: the key through key_words, a
    size with its noun, a deadline's key as a phrase ('due by Dec 4'), a permission's word as yes/no."""
    words = _SLASH_PER.sub(" per ", _SHORT_ROLE.sub(lambda m: _ROLES[m.group(0).lower()], key_words(words)))
    value = _YES_NO.get(value.lower(), value)
    if _SIZE_KEY.match(words) and _SIZE_VALUE.match(value):
        words, value = "model size", f"{value} params"
    if _DUE_KEY.fullmatch(words):
        return f"| due by {value}"
    return f"| {words} {value}" if _PHRASE_KEY.search(words) else f"| {words} | {value} |"


# a board's or sheet's short column names: 'Out tokens/doc' is the output tokens per document
_SHORT_ROLE = re.compile(r"\b(?:out|in)(?=\s+tok)", re.I)
_ROLES = {"out": "output", "in": "input"}
_SLASH_PER = re.compile(r"(?<=[a-z])\s*/\s*(?=[a-z]{2,}$)", re.I)
_DUE_KEY = re.compile(r"(?:due|due date|deadline date)\??", re.I)


# a key that ends in a preposition reads with its value as a phrase: 'DONE_BY=2027-01-22' -> 'done by
# 2027-01-22' (a colon after 'by' would part the deadline's words from its date)
_PHRASE_KEY = re.compile(r"\b(?:by|before|until|till|due)$")
# a model's size under a key of its own ('MODEL_PARAMS=1.3B', 'params: 7B'): the size with its noun
_SIZE_KEY = re.compile(r"^(?:model )?(?:params|parameters|param count|size)$")
_SIZE_VALUE = re.compile(r"^\d+(?:\.\d+)?\s*[bBmM]$")


def _row(key: str, raw: str, note: str | None) -> list[str]:
    value = _plain(raw)
    rows = []
    if value:
        words, value = settings_key(_snake(key), value)
        rows.append(key_value(words, value))
    if note:
        rows.append(f"| note | {note} |")  # the comment beside a value: a statement of its own
    return rows


def _heading(name: str) -> list[str]:
    return ["", f"## {_snake(name).replace('_', ' ').capitalize()}", ""]


def _kind(line: str) -> str:
    """What a line is to a settings run: 'setting', 'machine' (a setting only a file writes), 'open',
    'inline', 'close', 'comment', 'blank' or '' (prose)."""
    if not line.strip():
        return "blank"
    if _COMMENT.match(line):
        return "comment"
    if _CLOSER.match(line):
        return "close"
    if _INLINE_BLOCK.match(line):
        return "inline"
    if _OPENER.match(line):
        return "open"
    m = _SETTING.match(line)
    if m is None or not m.group("value"):
        return ""
    machine = m.group("typed") or "=" in (m.group("sep") or "") or _MACHINE_KEY.search(m.group("key"))
    return "machine" if machine else "setting"


def _render(lines: list[str], kinds: list[str]) -> list[str]:
    out: list[str] = []
    for line, kind in zip(lines, kinds, strict=True):
        if kind in ("setting", "machine") and (m := _SETTING.match(line)) is not None:
            out.extend(_row(m.group("key"), m.group("value"), m.group("note")))
        elif kind == "inline" and (b := _INLINE_BLOCK.match(line)) is not None:
            out.extend(_heading(b.group("block")))
            for p in _INLINE_PAIR.finditer(b.group("body")):
                out.extend(_row(p.group("key"), p.group("value"), None))
            out.extend(_row("note", "", b.group("note")) + [""])
        elif kind == "open" and (o := _OPENER.match(line)) is not None:
            out.extend(_heading(o.group("ini") or o.group("block")))
            out.extend(_row("note", "", o.group("note")))
        elif kind == "close":
            out.append("")
        else:
            out.append(line)
    return out


def settings_lines(text: str) -> str:
    """`text` with each run of settings lines (>= MIN_ROWS values, machine keys or blocks) as rows."""
    if ":" not in text and "=" not in text:
        return text
    lines = text.split("\n")
    kinds = [_kind(line) for line in lines]
    out: list[str] = []
    i = 0
    while i < len(lines):
        if not kinds[i] or kinds[i] == "blank":
            out.append(lines[i])
            i += 1
            continue
        j = i
        while j < len(lines) and kinds[j]:
            j += 1
        while j > i and kinds[j - 1] in ("blank", "comment"):
            j -= 1  # a run ends at its last setting: the comment or blank line after it is not the file's
        run = kinds[i:j]
        values = sum(k in ("setting", "machine", "inline") for k in run)
        blocks = sum(k in ("open", "inline") for k in run)
        machine = sum(k == "machine" for k in run)
        if values >= MIN_ROWS and (machine >= 2 or blocks) and j > i:  # noqa: PLR2004 - two machine keys
            out.extend(_render(lines[i:j], run))
            i = j
        else:
            out.append(lines[i])
            i += 1
    return "\n".join(out)


# ---------------------------------------------------------------------------------- a one-record table
# a table of a header row and one data row is one record (a board's item, a tracker's ticket, a sheet's
# single request), with or without the outer pipes GFM lets a table leave out (GitHub Flavored Markdown
# spec, 0.29-gfm, 4.10 Tables): each header with its cell ('Docs | 2.4M' -> '| Docs | 2.4M |'). A table of
# several data rows lists several things and is left to the row readers.
_RULE_CELL = re.compile(r"^:?-{2,}:?$")
MIN_COLUMNS = 3  # fewer columns is a key/value table already


def _cells(line: str) -> list[str] | None:
    if line.count("|") < MIN_COLUMNS - 1:
        return None
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") else body
    cells = [c.strip() for c in body.split("|")]
    return cells if len(cells) >= MIN_COLUMNS else None


# a hardware line's columns (GPU and how many): an inventory or an offer, which the row readers read as a
# row ('| A100 80GB | 4 | our rack |': rules_owned_table and rules_gpus), not one record's fields
_GPU_COLUMN = re.compile(r"^(?:gpus?|hardware|cards?|accelerators?|gpu\s+(?:type|model))$", re.I)
_COUNT_COLUMN = re.compile(r"^(?:qty|count|quantity|units|#|number|no\.?|how\s+many)$", re.I)


def _inventory(head: list[str]) -> bool:
    return any(_GPU_COLUMN.match(c) for c in head) and any(_COUNT_COLUMN.match(c) for c in head)


def _bare(key: str, cell: str) -> str:
    """A text cell without its column's name where table_columns.py wrote it first ("Spot no"); a figure it
    wrote with the name after ("150 tokens out / item") keeps it: the rules read that wording."""
    return cell[len(key) + 1 :] if cell.lower().startswith(key.lower() + " ") else cell


def record_table(text: str) -> str:
    """`text` with each header-and-one-row table written as '| header | cell |' rows."""
    if "|" not in text:
        return text
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        head = _cells(lines[i])
        j = i + 1
        rule = _cells(lines[j]) if head is not None and j < len(lines) else None
        if rule is not None and all(_RULE_CELL.match(c) or not c for c in rule):
            j += 1
        row = _cells(lines[j]) if head is not None and j < len(lines) else None
        after = _cells(lines[j + 1]) if j + 1 < len(lines) else None
        if (
            head is not None
            and row is not None
            and len(row) == len(head)
            and (after is None or len(after) != len(head))
            and not any(re.search(r"\d", c) for c in head if not re.search(r"[a-z]", c, re.I))
            and sum(bool(re.search(r"\d", c)) for c in head) < len(head) / 2
            and not _inventory(head)
        ):
            out.extend(key_value(k, _bare(k, v)) for k, v in zip(head, row, strict=True) if k and v)
            out.append("")
            i = j + 1
        elif head is not None:  # a table kept as it is: all its lines (its rule row is no header)
            while i < len(lines) and _cells(lines[i]) is not None:
                out.append(lines[i])
                i += 1
        else:
            out.append(lines[i])
            i += 1
    return "\n".join(out)
