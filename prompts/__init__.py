"""Every LLM prompt and every user-facing reply template, one file each, loaded by name.

`load("system")` reads prompts/system.md. `render(name, **values)` fills `$placeholders`
(string.Template syntax, so JSON braces in a prompt need no escaping). `sections(name)` splits a file
into its `## key` sections (question and summary templates keyed by profile field or purpose).
No prompt text lives in code.
"""

from __future__ import annotations

import string
from functools import lru_cache
from pathlib import Path

PROMPTS_DIR = Path(__file__).resolve().parent


@lru_cache(maxsize=64)
def load(name: str) -> str:
    """The text of prompts/<name>.md (or .txt), without trailing whitespace; unknown names raise KeyError."""
    for suffix in (".md", ".txt"):
        path = PROMPTS_DIR / f"{name}{suffix}"
        if path.is_file():
            return path.read_text(encoding="utf-8").rstrip()
    known = sorted(p.stem for p in PROMPTS_DIR.glob("*.md"))
    raise KeyError(f"no prompt named {name!r} in {PROMPTS_DIR} (known: {', '.join(known)})")


def render(name: str, **values: object) -> str:
    """prompts/<name> with `$placeholders` replaced; a missing value raises KeyError."""
    return string.Template(load(name)).substitute({k: str(v) for k, v in values.items()})


def fill(template: str, **values: object) -> str:
    """Fill `$placeholders` of a template section (see `sections`); a missing value raises KeyError."""
    return string.Template(template).substitute({k: str(v) for k, v in values.items()})


@lru_cache(maxsize=32)
def sections(name: str) -> dict[str, str]:
    """The `## key` sections of prompts/<name>: key -> body (stripped). Text before the first
    heading (the file's own description) is dropped."""
    out: dict[str, str] = {}
    key: str | None = None
    lines: list[str] = []
    for line in load(name).splitlines():
        if line.startswith("## "):
            if key is not None:
                out[key] = "\n".join(lines).strip()
            key, lines = line[3:].strip(), []
        elif key is not None:
            lines.append(line)
    if key is not None:
        out[key] = "\n".join(lines).strip()
    return out


__all__ = ["PROMPTS_DIR", "fill", "load", "render", "sections"]
