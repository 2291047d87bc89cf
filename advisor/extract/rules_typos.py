"""Typo tolerance for the rules extractor: misspelt keywords are read as the keyword they are one edit from.

"~50 concurent users", "30M tokns", "fintune", "fine tunning", "epcohs": a word of five letters or more
that is not itself a keyword and is exactly one edit (insertion, deletion, substitution or adjacent swap,
Damerau-Levenshtein) away from exactly one keyword is replaced by that keyword before the rules read the
sentence. A word one edit from two keywords is ambiguous and left alone; so are short words (four letters
and fewer have too many neighbours) and words with digits (model and GPU names).

Linear in the text: each word is looked up through the delete-one variants of the keywords (symmetric
delete, a dict built once), so a word costs O(its length) lookups, never a scan over the vocabulary.
Corrections are returned with the sentence so the evidence can say which word was read as which.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_number_words import compound_number_words
from advisor.extract.rules_spoken import spoken_gpu_names, spoken_model_names
from advisor.extract.rules_text import WORD_NUM, Sentence

# Keywords the rules match on, spelt as the rules expect them (lower case).
KEYWORDS: tuple[str, ...] = (
    "concurrent", "concurrently", "concurrency", "simultaneous", "simultaneously",
    "tokens", "finetune", "finetuning", "finetuned", "tuning", "epochs",
    "sequence", "context", "parameters", "billion", "million", "thousand",
    "inference", "latency", "budget", "deadline", "training", "pretraining",
    "dataset", "utilisation", "utilization", "preemptible", "preemptions", "continual",
    "qlora", "adapters", "mistral", "mixtral", "deepseek", "throughput",
)  # fmt: skip
# Real words one edit from a keyword: never "corrected" (plural and singular forms are handled apart).
SAFE: frozenset[str] = frozenset(
    {
        "retrain", "retrains", "retrained", "context", "contest", "contexts", "budget", "budgets",
        "training", "raining", "draining", "trainings", "thousand", "thousands", "million", "millions",
        "billion", "billions", "dataset", "datasets", "adapter", "adapters", "continue", "continual",
        "sequenced", "finetuner", "mistrial", "deadlines", "contents", "content", "tunings",
    }
)  # fmt: skip
_WORD = re.compile(r"(?<![\w-])[A-Za-z]{5,24}(?![\w])")
_MIN_LEN = 5


def _deletes(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


@functools.lru_cache(maxsize=1)
def _index() -> dict[str, frozenset[str]]:
    """delete-one variant (and the keyword itself) -> keywords it comes from."""
    index: dict[str, set[str]] = {}
    for kw in KEYWORDS:
        for key in {kw} | _deletes(kw):
            index.setdefault(key, set()).add(kw)
    return {k: frozenset(v) for k, v in index.items()}


def _one_edit(a: str, b: str) -> bool:
    """Whether a and b differ by exactly one insertion, deletion, substitution or adjacent swap."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        i, j = (diff + [0, 0])[:2]
        return len(diff) == 2 and j == i + 1 and a[i] == b[j] and a[j] == b[i]
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    i = 0
    while i < len(short) and short[i] == long_[i]:
        i += 1
    return short[i:] == long_[i + 1 :]


@functools.lru_cache(maxsize=8192)
def correct_word(word: str) -> str | None:
    """The keyword `word` is a one-edit misspelling of, or None (a keyword, a safe word, ambiguous).
    Kept per word: a text says the same words again and again (issue 12, speed6)."""
    low = word.lower()
    if len(low) < _MIN_LEN or low in SAFE:
        return None
    index = _index()
    if low in KEYWORDS or low + "s" in KEYWORDS or low.rstrip("s") in KEYWORDS:
        return None  # a keyword, or its singular or plural
    candidates: set[str] = set()
    for key in {low} | _deletes(low):
        candidates |= index.get(key, frozenset())
    hits = {kw for kw in candidates if _one_edit(low, kw)}
    return next(iter(hits)) if len(hits) == 1 else None


def fix_typos(text: str) -> tuple[str, list[tuple[str, str]]]:
    """`text` with misspelt keywords replaced, and the (as written, read as) pairs."""
    fixes: list[tuple[str, str]] = []
    if all(correct_word(w) is None for w in set(_WORD.findall(text))):
        return text, fixes  # nothing to correct (most sentences): no replacement pass

    def sub(m: re.Match[str]) -> str:
        fixed = correct_word(m.group(0))
        if fixed is None:
            return m.group(0)
        fixes.append((m.group(0), fixed))
        return fixed

    return _WORD.sub(sub, text), fixes


def fix_sentences(sentences: tuple[Sentence, ...]) -> tuple[tuple[Sentence, ...], list[tuple[str, str]]]:
    """Each sentence with its misspelt keywords replaced, and every correction made."""
    out: list[Sentence] = []
    fixes: list[tuple[str, str]] = []
    for s in sentences:
        spoken, named = spoken_model_names(s.text)  # "llama three point one seventy b" -> "llama 3.1 70B"
        spoken, gpus = spoken_gpu_names(spoken)  # "on h one hundreds please" -> "on H100s please"
        named = named + gpus
        spoken, numbers = compound_number_words(spoken)  # "two hundred million" -> "200 million"
        text, found = fix_typos(spoken)
        found = named + numbers + found
        # "five-ish k", "50ish users", "2k-ish tokens": the figure
        hedged = _HEDGE.regex.sub(r"\g<fig>", text) if _HEDGE.may_match(text) else text
        out.append(replace(s, text=hedged) if found or hedged != text else s)
        fixes.extend(found)
    return tuple(out), fixes


# a hedge glued to a figure: "five-ish k" reads as "five k", "2k-ish" as "2k", "50ish" as "50"
_HEDGE = keyed(rf"(?P<fig>(?<![\w.,])\d[\d.,]*k?|\b(?:{WORD_NUM}))\s?-?ish\b", re.I)  # runs where "ish" is
