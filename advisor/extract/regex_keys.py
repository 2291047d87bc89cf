"""The words every match of a regular expression must contain, and a pattern that runs only when the text
holds one of them.

Python's `re` scans case-insensitive patterns that open with `\\b` or an alternation position by
position, trying every alternative at each one: a rule pattern costs about (characters x alternatives)
whatever the text says. Most sentences hold none of a pattern's words, and `word in text` is a fast
substring search, so a `Keyed` pattern first tests for its words and runs the regex only when one occurs.
The words are derived from the pattern's own parse tree (`required_words`), never written by hand, so
they cannot drift from the pattern: the result is the regex's own result on every text.

Soundness: a match's characters include, in order, the literal characters of every piece the pattern
must consume (a literal run, a group, an alternation of which each branch has words, a repeat of at
least one), so at least one word of the chosen piece occurs in the matched text. Case-insensitive
patterns are tested against the lower-cased text, unless it holds one of the four characters that
`re` matches to an ASCII letter while `str.lower` does not make that letter of them (FOLDS_TO_ASCII):
such a text runs the regex.
"""

from __future__ import annotations

import importlib
import re
import sys
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from advisor.extract.regex_first import with_first_char
from advisor.extract.regex_memo import Remembered

# the parser `re` itself uses (no public API exposes the tree); private, so typed loosely and any
# failure to read a pattern means "no words" (the regex then always runs)
sre_parse: Any = importlib.import_module("re._parser")

MIN_WORD_CHARS = 2  # single characters are too common to be worth a test (unless a pattern asks)
# characters `re.IGNORECASE` matches to an ASCII letter whose `str.lower` is not that letter: "İ" (i),
# "ı" (i), "ſ" (s), the Kelvin sign (k); tests/extract/test_regex_keys.py checks the list over Unicode
FOLDS_TO_ASCII = frozenset("\u0130\u0131\u017f\u212a")
Words = frozenset[str]
_MAX = sys.maxsize

_ZERO_WIDTH = (sre_parse.AT, sre_parse.ASSERT, sre_parse.ASSERT_NOT)
_REPEATS = (sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT, sre_parse.POSSESSIVE_REPEAT)


def _better(a: Words | None, b: Words | None) -> Words | None:
    """The more selective of two word sets: longer shortest word, then fewer words."""
    if a is None or b is None:
        return a if b is None else b
    return a if (min(map(len, a)), -len(a)) >= (min(map(len, b)), -len(b)) else b


def _plain(ch: str, fold: bool) -> bool:
    """Whether a literal character can stand in a word: any character of a case-sensitive pattern; for a
    case-insensitive one, ASCII or a character without case ("≈", "€"), which matches only itself."""
    return not fold or ch.isascii() or ch.lower() == ch == ch.upper()


def _sequence(items: Iterable[tuple[Any, Any]], fold: bool) -> Words | None:
    """Words one of which every match of the concatenation `items` contains (None: none known)."""
    best: Words | None = None
    run: list[str] = []
    for op, av in items:
        if op is sre_parse.LITERAL and _plain(chr(av), fold):
            run.append(chr(av).lower() if fold else chr(av))
            continue
        if op in _ZERO_WIDTH:  # consumes nothing: the literal run before and after stays contiguous
            continue
        if run:
            best = _better(best, frozenset({"".join(run)}))
            run = []
        best = _better(best, _item(op, av, fold))
    if run:
        best = _better(best, frozenset({"".join(run)}))
    return best


def _item(op: Any, av: Any, fold: bool) -> Words | None:
    if op is sre_parse.SUBPATTERN:
        _group, add_flags, del_flags, sub = av
        return None if add_flags or del_flags else _sequence(sub, fold)
    if op is sre_parse.ATOMIC_GROUP:
        return _sequence(av, fold)
    if op is sre_parse.BRANCH:
        union: set[str] = set()
        for branch in av[1]:
            words = _sequence(branch, fold)
            if words is None:
                return None  # a branch that needs no word: the alternation needs none
            union |= words
        return frozenset(union)
    if op in _REPEATS:
        low, _high, sub = av
        return _sequence(sub, fold) if low >= 1 else None
    return None


def required_words(pattern: re.Pattern[str], min_chars: int = MIN_WORD_CHARS) -> Words | None:
    """Words (lower-cased for a case-insensitive pattern) one of which every match contains; None when
    the pattern needs no word of at least `min_chars` characters (or cannot be analysed)."""
    if pattern.flags & (re.LOCALE | re.VERBOSE) or not isinstance(pattern.pattern, str):
        return None
    try:
        tree = sre_parse.parse(pattern.pattern, pattern.flags)
    except (re.error, AttributeError, TypeError, ValueError):  # a parser from another Python version
        return None
    words = _sequence(tree, bool(pattern.flags & re.IGNORECASE))
    if not words or min(map(len, words)) < min_chars:
        return None
    return words


@dataclass(frozen=True, eq=False)
class Scope:
    """The sentences a reader is going through: the ids of their text objects, and all of them joined
    by spaces (as written and lower-cased; `low` is None when it holds a FOLDS_TO_ASCII character). A
    word absent from the whole is absent from each sentence, so a pattern whose words the whole lacks
    is answered once per text, not once per sentence (a text of 2,000 short sentences). `order` and
    `texts`: each sentence's id and text, for `holding`. `base`: the whole message's scope, whose word
    index a part of its sentences uses (`reading_all`); None: this scope's own."""

    ids: frozenset[int]
    text: str
    low: str | None
    order: tuple[int, ...] = ()
    texts: tuple[str, ...] = ()
    base: Scope | None = None
    _lows: list[tuple[str, ...]] = field(default_factory=list)  # the texts lower-cased, once asked
    _lowered: list[str] = field(default_factory=list)  # `lowered()`, once asked
    _starts: list[int] = field(default_factory=list)  # where each text begins in the whole, once asked
    _words: dict[tuple[bool, str], frozenset[int]] = field(default_factory=dict)  # `holding`'s, per word

    def holding(self, words: Iterable[str], fold: bool) -> frozenset[int] | None:
        """The ids of the sentences that hold one of `words` (plain text; in the sentence lower-cased
        when `fold`), as testing each sentence's own words would find them; None when the lower-cased
        whole is not known (a FOLDS_TO_ASCII character: each sentence is asked on its own). Each word is
        looked for once per text: in the whole first (most are absent), then in each sentence; patterns
        share their words ("token", "gpu"), so a text of many sentences costs one pass per word, not one
        search of an alternation of its words per pattern (issue 12, speed6)."""
        if (self.low if fold else self.text) is None or not self.texts:
            return None
        out: frozenset[int] = frozenset()
        for word in words:
            held = self._words.get((fold, word))
            if held is None:
                held = self._words[(fold, word)] = self._holding(word, fold)
            out = out | held if out else held
        return out

    def lowered(self) -> str:
        """The whole lower-cased, also where `low` is None (for gates that test `text.lower()` as is)."""
        if self.low is not None:
            return self.low
        if not self._lowered:
            self._lowered.append(self.text.lower())
        return self._lowered[0]

    def _holding(self, word: str, fold: bool) -> frozenset[int]:
        """The ids of the sentences holding `word`, in one pass over the whole: from each occurrence's
        sentence (found by bisection) on to the next sentence's start, so a word costs one scan of the text
        and a check per sentence it occurs in (a word across the joining space is in neither sentence's own
        text, so each occurrence is checked against its sentence)."""
        whole = self.low if fold else self.text
        at = -1 if whole is None else whole.find(word)
        if at < 0:
            return frozenset()
        if fold and not self._lows:
            self._lows.append(tuple(t.lower() for t in self.texts))
        texts = self._lows[0] if fold else self.texts
        if not self._starts:  # the same for the lower-cased texts: `low` is known only where lengths agree
            begin = 0
            for t in self.texts:
                self._starts.append(begin)
                begin += len(t) + 1
        starts, last = self._starts, len(texts) - 1
        out = []
        while at >= 0:
            k = bisect_right(starts, at) - 1
            if word in texts[k]:
                out.append(self.order[k])
                if k == last:
                    break
                at = whole.find(word, starts[k + 1])  # type: ignore[union-attr]
            else:
                at = whole.find(word, at + 1)  # type: ignore[union-attr]
        return frozenset(out)


SCOPE: ContextVar[Scope | None] = ContextVar("regex_keys_scope", default=None)
_BASE: ContextVar[Scope | None] = ContextVar("regex_keys_base", default=None)  # `reading_all`'s


def _whole(texts: Sequence[str], ids: frozenset[int]) -> Scope:
    joined = " ".join(texts)
    low = joined.lower() if joined.isascii() or FOLDS_TO_ASCII.isdisjoint(joined) else None
    return Scope(ids=ids, text=joined, low=low, order=tuple(map(id, texts)), texts=tuple(texts))


@contextmanager
def reading(texts: Sequence[str]) -> Iterator[Scope]:
    """Within the block, a pattern given one of `texts` (the very objects, kept alive by the caller)
    first asks whether its words occur in any of them. Within `reading_all` of texts that hold all of
    them, its index answers: a sentence holding a word is among the sentences of the whole holding it."""
    ids = frozenset(map(id, texts))
    base = _BASE.get()
    if base is not None and ids <= base.ids:
        scope = Scope(ids=ids, text="", low=None, base=base)
    else:
        scope = _whole(texts, ids)
    token = SCOPE.set(scope)
    try:
        yield scope
    finally:
        SCOPE.reset(token)


@contextmanager
def reading_all(texts: Sequence[str]) -> Iterator[Scope]:
    """Within the block, each `reading` of some of `texts` (the very objects) shares one word index: a
    two-workload brief reads most of its sentences twice, once per part, and a pattern's sentences and
    each word's are found once per message, not once per part (issue 12, speed7)."""
    scope = _whole(texts, frozenset(map(id, texts)))
    token = _BASE.set(scope)
    try:
        yield scope
    finally:
        _BASE.reset(token)


def in_scope(text: str) -> Scope | None:
    """The scope `text` is a whole sentence of, if any."""
    scope = SCOPE.get()
    return scope if scope is not None and id(text) in scope.ids else None


_last_lower: tuple[str, str] = ("", "")  # the last text lower-cased: rules test one sentence many times


def _lower(text: str) -> str:
    global _last_lower
    seen, low = _last_lower
    if seen is not text:
        low = text.lower()
        _last_lower = (text, low)
    return low


class Keyed(Remembered):
    """A compiled pattern run only when the text holds one of its required words (see the module
    docstring); same methods and results as the pattern for search, match, fullmatch and finditer, whose
    answers are remembered while a text is read (advisor/extract/regex_memo.py)."""

    __slots__ = ("_held", "fold", "words")

    def __init__(self, regex: re.Pattern[str], min_chars: int = MIN_WORD_CHARS) -> None:
        super().__init__(regex)
        found = required_words(regex, min_chars)
        # a word holding another adds nothing: every text that holds it holds the other
        kept = [w for w in found or () if not any(o != w and o in w for o in found or ())]
        self.words: tuple[str, ...] = tuple(sorted(kept, key=len, reverse=True))
        self.fold = bool(regex.flags & re.IGNORECASE)
        self._held: tuple[Scope | None, frozenset[int] | None] = (None, None)  # `_index`, per scope

    def _index(self, scope: Scope) -> frozenset[int] | None:
        """The ids of `scope`'s sentences that hold one of the words (none when the whole lacks them);
        None when they are not known (a FOLDS_TO_ASCII character: each sentence is asked on its own)."""
        # each word looked for once per scope, for all patterns; no words: every text may match
        held = scope.holding(self.words, self.fold) if self.words else None
        self._held = (scope, held)
        return held

    def held_in(self, where: Scope) -> frozenset[int] | None:
        """`_index(where)`, kept from the last call for the same scope."""
        seen, held = self._held
        return held if seen is where else self._index(where)

    def may_match(self, text: str) -> bool:
        """False only when no match is possible in `text`."""
        if not self.words:
            return True
        scope = SCOPE.get()  # this runs per pattern per sentence: the scope's index answers in one lookup
        if scope is not None:
            where = scope.base or scope
            seen, held = self._held
            if seen is not where:
                held = self._index(where)
            if held is not None:
                key = id(text)
                if key in held:
                    return True
                if key in scope.ids:
                    return False
        return self._holds_word(text)

    def _holds_word(self, text: str) -> bool:
        """Whether `text` itself holds one of the words (or a FOLDS_TO_ASCII character)."""
        if not self.words:
            return True
        if self.fold:
            if not text.isascii() and not FOLDS_TO_ASCII.isdisjoint(text):
                return True
            text = _lower(text)
        return any(map(text.__contains__, self.words))

    # search, match, fullmatch and finditer: may_match written out in each, as they run for every pattern a
    # rule asks of every sentence (a closed gate answers without a further call); `_index` gives None for a
    # pattern without words, so it is asked of the text itself (and opens)

    def search(self, string: str, pos: int = 0, endpos: int = _MAX) -> re.Match[str] | None:
        scope = SCOPE.get()
        if scope is not None:
            where = scope.base or scope
            seen, held = self._held
            if seen is not where:
                held = self._index(where)
            if held is not None:
                key = id(string)
                if key in held:
                    return Remembered.search(self, string, pos, endpos)
                if key in scope.ids:
                    return None
        return Remembered.search(self, string, pos, endpos) if self._holds_word(string) else None

    def match(self, string: str, pos: int = 0, endpos: int = _MAX) -> re.Match[str] | None:
        scope = SCOPE.get()
        if scope is not None:
            where = scope.base or scope
            seen, held = self._held
            if seen is not where:
                held = self._index(where)
            if held is not None:
                key = id(string)
                if key in held:
                    return Remembered.match(self, string, pos, endpos)
                if key in scope.ids:
                    return None
        return Remembered.match(self, string, pos, endpos) if self._holds_word(string) else None

    def fullmatch(self, string: str, pos: int = 0, endpos: int = _MAX) -> re.Match[str] | None:
        scope = SCOPE.get()
        if scope is not None:
            where = scope.base or scope
            seen, held = self._held
            if seen is not where:
                held = self._index(where)
            if held is not None:
                key = id(string)
                if key in held:
                    return Remembered.fullmatch(self, string, pos, endpos)
                if key in scope.ids:
                    return None
        return Remembered.fullmatch(self, string, pos, endpos) if self._holds_word(string) else None

    def finditer(self, string: str, pos: int = 0, endpos: int = _MAX) -> Iterator[re.Match[str]]:
        scope = SCOPE.get()
        if scope is not None:
            where = scope.base or scope
            seen, held = self._held
            if seen is not where:
                held = self._index(where)
            if held is not None:
                key = id(string)
                if key in held:
                    return Remembered.finditer(self, string, pos, endpos)
                if key in scope.ids:
                    return iter(())
        return Remembered.finditer(self, string, pos, endpos) if self._holds_word(string) else iter(())


class KeyedPattern(Keyed):
    """A Keyed pattern standing in for a module's compiled pattern (`key_patterns`): search, match,
    fullmatch and finditer are gated by its words, every other attribute (sub, split, findall, pattern,
    groupindex ...) is the compiled pattern's own, ungated."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        if name == "regex":  # not set yet: no recursion through __getattr__
            raise AttributeError(name)
        return getattr(self.regex, name)


# one stand-in per compiled pattern (which it keeps alive: no id is reused while listed), so the modules that
# share a pattern share its answers, whichever call of key_patterns replaced it
_STAND_INS: dict[int, KeyedPattern] = {}


def key_patterns(modules: Iterable[ModuleType]) -> int:
    """Each module-level compiled pattern of `modules` that every match needs a word for (required_words)
    becomes a KeyedPattern, so a sentence without its words is answered without running it; the number
    replaced. The rule modules held 336 plain patterns with words, each run on every sentence of every
    reading (issue 12, speed4: 20,000 characters of '1 ' 530 -> 306 ms CPU, mixed briefs 610 -> 530).
    rules.py keys the rule modules, then the rest of advisor.extract and the guard (speed6: injection's
    STEERING is asked of every sentence several times); accounting.py those loaded after it.
    Answers are the pattern's own (the soundness argument above; tests/extract/test_scope_index.py).
    A match's `.re` is the compiled pattern, not the module's name for it: compare `.pattern`, not `is`."""
    count = 0
    for module in modules:
        for name, value in list(vars(module).items()):
            if isinstance(value, re.Pattern) and required_words(value) is not None:
                stand_in = _STAND_INS.get(id(value))
                if stand_in is None or stand_in.original is not value:
                    stand_in = _STAND_INS[id(value)] = KeyedPattern(value)
                setattr(module, name, stand_in)
                count += 1
    return count


def keyed(pattern: str, flags: int = 0, min_chars: int = MIN_WORD_CHARS) -> Keyed:
    """`re.compile(pattern, flags)`, run only on texts that hold one of its required words (words of
    at least `min_chars` characters: 1 admits a pattern that needs "?" or "~")."""
    return Keyed(re.compile(pattern, flags), min_chars)


# --------------------------------------------------------------------------- alternatives
def split_alternatives(source: str) -> list[str]:
    """The top-level alternatives of a pattern's source ("a|b(c|d)|[|]" -> "a", "b(c|d)", "[|]"): each `|`
    outside every group and character set, not escaped."""
    parts: list[str] = []
    depth, start, i, in_set = 0, 0, 0, False
    while i < len(source):
        ch = source[i]
        if ch == "\\":
            i += 2
            continue
        if in_set:
            in_set = ch != "]"
        elif ch == "[":
            in_set = True
            i += 1 + source.startswith("^", i + 1)  # "[^": the set's first character comes next
            i += source.startswith("]", i)  # "[]...]", "[^]...]": a literal "]" opens the set
            continue
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(source[start:i])
            start = i + 1
        i += 1
    parts.append(source[start:])
    return parts


class _FirstOf:
    """A pattern's search, match, fullmatch and finditer answered from its alternatives (`Alternatives`)."""

    def __init__(self, alternatives: tuple[Keyed, ...]) -> None:
        self.alternatives = alternatives

    def search(self, string: str, pos: int = 0, endpos: int = _MAX) -> re.Match[str] | None:
        # at the leftmost place any alternative matches, the first of them that matches there: as `re` does
        best: re.Match[str] | None = None
        for alt in self.alternatives:
            if alt.may_match(string):
                m = alt.regex.search(string, pos, endpos)
                if m is not None and (best is None or m.start() < best.start()):
                    best = m
        return best

    def match(self, string: str, pos: int = 0, endpos: int = _MAX) -> re.Match[str] | None:
        for alt in self.alternatives:
            if alt.may_match(string) and (m := alt.regex.match(string, pos, endpos)) is not None:
                return m
        return None

    def fullmatch(self, string: str, pos: int = 0, endpos: int = _MAX) -> re.Match[str] | None:
        for alt in self.alternatives:
            if alt.may_match(string) and (m := alt.regex.fullmatch(string, pos, endpos)) is not None:
                return m
        return None

    def finditer(self, string: str, pos: int = 0, endpos: int = _MAX) -> Iterator[re.Match[str]]:
        # each match is non-empty (checked by Alternatives): the next search starts where it ended
        while (m := self.search(string, pos, endpos)) is not None:
            yield m
            pos = m.end()


class Alternatives(Keyed):
    """A Keyed pattern written as one alternation without groups ("\\bignore ...|\\byou are now\\b|..."),
    run as its alternatives, each a Keyed pattern of its own: only those whose words the text holds run,
    each with its first-character form (regex_first.py), and the match is the leftmost, the earlier
    alternative at the same place, as `re` chooses (each alternative's search gives its leftmost match;
    where several start at the same place, `re` tries them in order there). A big alternation whose first
    characters are too many for one lookahead ("\\?|^...|\\b(?:...)") is tried at every place as a whole;
    split, a sentence holding "you" runs the one alternative that needs it (issue 12, speed9: the steering
    pattern, the claim cues, the on-prem and US-only constraints). Matches are the pattern's own but for
    `.re`; a pattern with groups, or one that can match empty, is refused (ValueError)."""

    __slots__ = ("alternatives",)

    def __init__(self, regex: re.Pattern[str], min_chars: int = MIN_WORD_CHARS) -> None:
        super().__init__(regex, min_chars)
        parts = split_alternatives(regex.pattern)
        tree = sre_parse.parse(regex.pattern, regex.flags)
        if regex.groups or len(parts) < 2 or regex.flags & re.VERBOSE or "(?#" in regex.pattern:
            raise ValueError(f"not a plain alternation: {regex.pattern[:60]!r}")
        if tree.getwidth()[0] == 0:
            raise ValueError(f"may match empty: {regex.pattern[:60]!r}")
        alternatives = []
        for part in parts:
            alt = Keyed(re.compile(part, regex.flags), min_chars)
            alt.regex, alt._pending = with_first_char(alt.original), False
            alternatives.append(alt)
        self.alternatives = tuple(alternatives)
        self.regex, self._pending = _FirstOf(self.alternatives), False  # type: ignore[assignment]


def alternatives(pattern: str, flags: int = 0, min_chars: int = MIN_WORD_CHARS) -> Alternatives:
    """`keyed(pattern, flags, min_chars)` for a pattern that is one alternation: run as its alternatives."""
    return Alternatives(re.compile(pattern, flags), min_chars)
