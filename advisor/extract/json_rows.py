"""A JSON request body or a Python dict of settings, one '"key": value,' per line, read as the key/value
table rows the rules already read (evals v14: a compute portal's JSON body and a notebook's SLA dict were
read as one run-on sentence; issue 12).

'"avg_prompt_tokens": 350,' -> '| avg prompt tokens | 350 |': snake_case keys as words, quotes dropped, a list
as its items ('["lambda"]' -> 'lambda'), true/false as yes/no, a money object ('{"amount": 2600, "currency":
"CAD"}') as '2600 CAD', and a unit suffix of the key after its number ('"ttft_s": 3.0' -> 'ttft: 3.0 s',
'"budget_usd": 900' -> 'budget: 900 USD'). Only a run of at least three such lines is a body; one quoted
'"key": value' in prose is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_LINE = re.compile(
    r'^(?P<lead>[ \t]*)["\'](?P<key>[A-Za-z][\w .-]{0,50})["\'][ \t]*:[ \t]*(?P<value>.+?),?[ \t]*$'
)
_MONEY = re.compile(
    r'^\{\s*["\']amount["\']\s*:\s*(?P<n>[\d.]+)\s*,\s*["\']currency["\']\s*:\s*["\'](?P<c>[A-Za-z]{3})["\']\s*\}$'
)
# unit suffixes of snake_case keys: seconds, milliseconds, hours, days, a currency code, gigabytes
_SUFFIX = re.compile(r"_(?P<unit>s|sec|secs|seconds|ms|h|hours|days|usd|eur|gbp|gb|gib|tb)$", re.I)
MIN_ROWS = 3
"""A pasted table is at least this many consecutive rows; fewer such lines are prose."""


def _value(v: str) -> str:
    v = v.strip()
    if (m := _MONEY.match(v)) is not None:
        return f"{m.group('n')} {m.group('c').upper()}"
    if v.startswith("[") and v.endswith("]"):
        v = ", ".join(x.strip().strip("\"'") for x in v[1:-1].split(",") if x.strip())
    v = v.strip("\"'")
    return {"true": "yes", "false": "no", "null": "", "none": ""}.get(v.lower(), v)


# generation-length parameters of the common APIs (Hugging Face GenerationConfig "max_new_tokens", OpenAI
# "max_tokens" / "max_completion_tokens"): the output length asked for
_MAX_OUT = re.compile(r"^(?:max_new_tokens|max_tokens|max_completion_tokens|max_output_tokens)$", re.I)
_ALLOW = re.compile(r"^(?P<what>[a-z]+?)s?_(?:(?P<yes>allow|white)|block|deny|black)list$", re.I)
# a rate key with a bare number: "tokens_per_s_per_request": 20 -> "20 tok/s"
_RATE_KEY = re.compile(r"^(?:output_)?tok(?:en)?s?_(?:per_)?s(?:ec(?:ond)?)?(?![a-z])", re.I)
_BARE = re.compile(r"[\d.,]+")


def settings_key(key: str, value: str) -> tuple[str, str]:
    """A settings key and value in words: snake_case as words, a unit suffix after the number, the common
    API names of the output length, allow/deny lists, and a tokens-per-second rate."""
    if _MAX_OUT.match(key):
        return "max output tokens", value
    if (lst := _ALLOW.match(key)) is not None:
        return f"{'allowed' if lst.group('yes') else 'excluded'} {lst.group('what')}s", value
    if _RATE_KEY.match(key) and _BARE.fullmatch(value):
        return key.replace("_", " "), f"{value} tok/s"
    if (unit := _SUFFIX.search(key)) is not None and _BARE.fullmatch(value):
        key, value = key[: unit.start()], f"{value} {unit.group('unit')}"
    return key.replace("_", " "), value


def _row(m: re.Match[str]) -> str:
    key, value = settings_key(m.group("key"), _value(m.group("value")))
    return f"{m.group('lead')}| {key} | {value} |"


def json_rows(text: str) -> str:
    """`text` with each run of >= 3 '"key": value' lines written as '| key | value |' rows."""
    if '":' not in text and "':" not in text:
        return text
    return rows_of_runs(text, _LINE, _row)


def rows_of_runs(text: str, line: re.Pattern[str], render: Callable[[re.Match[str]], str]) -> str:
    """`text` with each run of >= MIN_ROWS consecutive lines matching `line` rewritten by `render` (a table
    row); shorter runs and other lines are kept as they are."""
    lines = text.split("\n")
    matches = [line.match(one) for one in lines]
    out: list[str] = []
    i = 0
    while i < len(lines):
        j = i
        while j < len(lines) and matches[j] is not None:
            j += 1
        if j - i >= MIN_ROWS:
            out.extend(render(m) for m in matches[i:j] if m)
            i = j
        else:
            out.append(lines[i])
            i += 1
    return "\n".join(out)
