"""Model names as speech-to-text writes them: numbers in words after a model family, and misheard families.

A dictated request says "llama three point one seventy b instruct" for Llama 3.1 70B Instruct (expert
review 7, R06: no model was read, so no recommendation). After a family word, each run of number words is
written in digits: "three point one" -> 3.1 (a version), a number followed by "b", "bee" or "billion" -> a
size ("seventy b" -> 70B, "eight bee" -> 8B), "eight by seven b" -> 8x7B (a mixture of experts), "four
hundred and five b" / "four oh five b" -> 405B. Families heard as other words are read as the family only
when a number follows ("mist roll seven b" -> mistral 7B, "mixed rail eight by seven b" -> mixtral 8x7B),
so "the mist rolled in" stays as it is. Numbers in words anywhere else are left to the other rules.
"""

from __future__ import annotations

import re

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_number_words import ONES, TENS

_ONES: dict[str, int] = {"zero": 0, "oh": 0, **ONES}  # "four oh five" -> 405
_TENS = TENS
# families as a dictation app hears them -> the name the model rules read (advisor/extract/rules_models.py)
_HEARD: dict[str, str] = {
    "mist roll": "mistral", "missed roll": "mistral", "mist rall": "mistral", "mixed rail": "mixtral",
    "mix trail": "mixtral", "mixed trail": "mixtral", "mix rail": "mixtral", "lama": "llama",
    "lamma": "llama", "quen": "qwen", "kwen": "qwen", "gwen": "qwen", "queen": "qwen",
    "deep seek": "deepseek", "jemma": "gemma", "gemma": "gemma", "llama": "llama", "mistral": "mistral",
    "mixtral": "mixtral", "qwen": "qwen", "deepseek": "deepseek", "phi": "phi", "falcon": "falcon",
}  # fmt: skip
_REAL = frozenset({"gemma", "llama", "mistral", "mixtral", "qwen", "deepseek", "phi", "falcon"})
_FAMILY = keyed(
    r"\b(?P<family>" + "|".join(sorted((k.replace(" ", r"[\s-]+") for k in _HEARD), key=len, reverse=True))
    + r")(?P<rest>(?:[\s,-]+(?:[a-z]+|\d+(?:\.\d+)?))+)",
    re.I,
)
_WORD = re.compile(r"[\s,-]*([a-z]+|\d+(?:\.\d+)?)", re.I)
_SIZE_WORDS = frozenset({"b", "bee", "billion", "bn"})
_BY_WORDS = frozenset({"by", "x", "times"})
_POINT_WORDS = frozenset({"point", "dot"})


def _number(words: list[str], i: int) -> tuple[str, int] | None:
    """The number the (lower-case) words from `i` say, in digits, and the index after it; None if none."""
    if i >= len(words):
        return None
    w = words[i]
    if re.fullmatch(r"\d+(?:\.\d+)?", w):
        return w, i + 1
    if w in _TENS:
        value, j = _TENS[w], i + 1
        if j < len(words) and words[j] in _ONES and 0 < _ONES[words[j]] < 10:
            value, j = value + _ONES[words[j]], j + 1
        return str(value), j
    if w in _ONES and w != "oh":
        j = i + 1
        if j < len(words) and words[j] == "hundred":  # "four hundred and five"
            j += 1
            if j < len(words) and words[j] == "and":
                j += 1
            rest = _number(words, j) if j < len(words) and words[j] != "hundred" else None
            if rest is not None and rest[0].isdigit() and int(rest[0]) < 100:
                return str(_ONES[w] * 100 + int(rest[0])), rest[1]
            return str(_ONES[w] * 100), j
        nxt = words[j] if j + 1 < len(words) else ""
        if nxt == "oh" and _ONES[w] < 10 and _ONES.get(words[j + 1], 10) < 10:
            return f"{_ONES[w]}0{_ONES[words[j + 1]]}", j + 2  # "four oh five" -> 405
        return str(_ONES[w]), j
    return None


def _spoken_name(family: str, rest: str) -> tuple[str, int] | None:
    """The name in digits and how many characters of `rest` it used, or None when no number followed."""
    words: list[str] = []
    ends: list[int] = []
    for m in _WORD.finditer(rest):
        if m.start() != (ends[-1] if ends else 0):
            break
        words.append(m.group(1).lower())
        ends.append(m.end())
    parts: list[str] = []
    i = 0
    spoken = False
    while i < len(words) and len(parts) < 3:
        got = _number(words, i)
        if got is None:
            break
        text, j = got
        spoken = spoken or not re.fullmatch(r"\d+(?:\.\d+)?", words[i])
        if j + 1 < len(words) and words[j] in _POINT_WORDS and _ONES.get(words[j + 1], 10) < 10:
            text, j, spoken = f"{text}.{_ONES[words[j + 1]]}", j + 2, True
        moe = _number(words, j + 1) if j + 1 < len(words) and words[j] in _BY_WORDS else None
        if moe is not None and moe[1] < len(words) and words[moe[1]] in _SIZE_WORDS:
            text, j, spoken = f"{text}x{moe[0]}", moe[1], True
        if j < len(words) and words[j] in _SIZE_WORDS:
            text, j = f"{text}B", j + 1
        parts.append(text)
        i = j
    sized = any(p.endswith("B") for p in parts)
    if not parts or not (spoken or family not in _REAL) or (family not in _REAL and not sized):
        return None  # a misheard family needs a size: "the queen two weeks ago" is not Qwen 2
    return " ".join(parts), ends[i - 1]


def spoken_model_names(text: str) -> tuple[str, list[tuple[str, str]]]:
    """`text` with model names said in words written in digits, and the (as written, read as) pairs."""
    fixes: list[tuple[str, str]] = []
    out: list[str] = []
    at = 0
    for m in _FAMILY.finditer(text):
        family = " ".join(m.group("family").lower().replace("-", " ").split())
        got = _spoken_name(family, m.group("rest"))
        if got is None:
            continue
        digits, used = got
        end = m.start("rest") + used
        name = f"{_HEARD[family]} {digits}"
        out.append(text[at : m.start()] + name)
        fixes.append((text[m.start() : end], name))
        at = end
    if not fixes:
        return text, fixes
    return "".join(out) + text[at:], fixes


# GPU names as a dictation app writes them (evals v12: "on h one hundreds please that's what we have quota
# for" was no GPU at all): "h one hundred(s)" -> H100(s), "h two hundred" -> H200, "b two hundred" -> B200,
# "l forty s" -> L40S. Not "a one hundred" (A100): "a one hundred page spec" is plain English.
_SPOKEN_GPU = re.compile(
    r"\b(?P<letter>[hb])\s+(?P<n>one|two)\s+hundred(?P<plural>s)?\b|\b(?P<l40>l\s+forty\s+s)(?P<l40p>'?s)?\b",
    re.I,
)


def spoken_gpu_names(text: str) -> tuple[str, list[tuple[str, str]]]:
    """`text` with GPU names said in words written as the catalog names them, and the (as written, read as)
    pairs."""
    fixes: list[tuple[str, str]] = []

    def sub(m: re.Match[str]) -> str:
        if m.group("l40"):
            name = "L40S" + ("s" if m.group("l40p") else "")
        else:
            name = f"{m.group('letter').upper()}{_ONES[m.group('n').lower()]}00" + (m.group("plural") or "")
        fixes.append((m.group(0), name))
        return name

    return _SPOKEN_GPU.sub(sub, text), fixes
