"""Compound numbers written in words, in digits before the rules read them.

The rules read one number word ("two million tokens", "a dozen GPUs"), but a compound one lost its head:
"two hundred million tokens" was read as 100M, "three hundred and fifty million" as 50M, "twenty five
thousand dollars" as $5,000, "one point five billion" as 5B (expert review 7's notes). A run of number
words that forms one number is written in digits: "two hundred" -> 200, "twenty-five thousand" -> 25000,
"three hundred and fifty" -> 350, "one point five" -> 1.5, "two and a half" -> 2.5. A scale word after it
(million, billion) stays for the rules. Single words ("two GPUs", "one of us") and runs that are not one
number ("one or two", "four five six") are left as they are.
"""

from __future__ import annotations

import re

# the number words, one place: rules_spoken reads model names with them too
ONES: dict[str, int] = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19,
}  # fmt: skip
TENS: dict[str, int] = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
    "ninety": 90,
}  # fmt: skip
_DIGIT_WORDS = {**{w: v for w, v in ONES.items() if v < 10}, "zero": 0, "oh": 0}
_WORDS = sorted([*ONES, *TENS, "hundred", "thousand", "zero", "oh", "point", "and", "a", "half"],
                key=len, reverse=True)  # fmt: skip
# a run of number words joined by spaces or hyphens; checked word by word in _value
_RUN = re.compile(r"\b(?:" + "|".join(_WORDS) + r")(?:[\s-]+(?:" + "|".join(_WORDS) + r"))+\b", re.I)
_NUMERIC = frozenset([*ONES, *TENS, "hundred", "thousand"])


def _value(words: list[str]) -> float | None:
    """The number `words` say together, or None when they are not one compound number."""
    total, current, last, i = 0, 0, "", 0
    while i < len(words):
        w, nxt = words[i], words[i + 1] if i + 1 < len(words) else ""
        if w in ONES:
            if last in ONES or (last in TENS and ONES[w] >= 10):
                return None  # "four five", "twenty eleven": not one number
            current += ONES[w]
        elif w in TENS:
            if last in ONES or last in TENS:
                return None
            current += TENS[w]
        elif w == "hundred":
            if last not in ONES:
                return None
            current *= 100
        elif w == "thousand":
            if last not in ONES and last not in TENS and last != "hundred":
                return None
            total, current = total + current * 1000, 0
        elif w == "and" and nxt in _NUMERIC and last in ("hundred", "thousand"):
            pass  # "three hundred and fifty"
        elif w == "and" and words[i + 1 :] == ["a", "half"] and last in _NUMERIC:
            return total + current + 0.5  # "two and a half" (at the end of the run)
        elif w == "point" and last in _NUMERIC and i + 1 < len(words) and words[i + 1] in _DIGIT_WORDS:
            digits = "".join(str(_DIGIT_WORDS[d]) for d in words[i + 1 :] if d in _DIGIT_WORDS)
            if len(digits) != len(words) - i - 1:
                return None
            return total + current + float("0." + digits)
        else:
            return None
        last, i = w, i + 1
    return float(total + current)


# a fraction of a scale word (rd15): "half a million articles" (read as a million), "a quarter of a billion
# tokens", "three quarters of a million" -> "0.5 million", "0.25 billion", "0.75 million"; not "two and a
# half million" (2.5 million, read below)
_FRACTION_SCALE = re.compile(
    r"(?<!\band\s)(?<!\band\sa\s)\b(?P<frac>(?:a\s+)?half|(?:a|one)\s+quarter|three\s+quarters)(?:\s+of)?(?:\s+an?)?\s+"
    r"(?P<scale>thousand|million|billion|trillion)\b",
    re.I,
)
_FRACTIONS = {"half": 0.5, "quarter": 0.25, "quarters": 0.75}


def compound_number_words(text: str) -> tuple[str, list[tuple[str, str]]]:
    """`text` with each compound number in words written in digits, and each (words, digits) replaced."""
    found: list[tuple[str, str]] = []

    def fraction(m: re.Match[str]) -> str:
        digits = f"{_FRACTIONS[m.group('frac').lower().split()[-1]]:g} {m.group('scale')}"
        found.append((m.group(0), digits))
        return digits

    text = _FRACTION_SCALE.sub(fraction, text)

    def sub(m: re.Match[str]) -> str:
        raw = m.group(0)
        spans = [(w.group(0).lower(), w.start(), w.end()) for w in re.finditer(r"[a-z]+", raw, re.I)]
        # the run without words that cannot begin a number ("a", "and", "point") at its start
        first = next((k for k, (w, _, _) in enumerate(spans) if w in _NUMERIC), None)
        if first is None:
            return raw
        for last in range(len(spans), first + 1, -1):  # the longest run from `first` that is one number
            words = [w for w, _, _ in spans[first:last]]
            value = _value(words)
            if value is not None:
                start, end = spans[first][1], spans[last - 1][2]
                digits = f"{value:g}" if value != int(value) else str(int(value))
                found.append((raw[start:end], digits))
                return raw[:start] + digits + raw[end:]
        return raw

    return _RUN.sub(sub, text), found
