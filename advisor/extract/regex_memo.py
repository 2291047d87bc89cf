"""A regular expression's answers remembered while one text is read, so a sentence asked the same question
twice is answered once.

The rules ask the same pattern of the same sentence many times: a pattern shared by several rule modules
(GPU_RE, PROVIDER_RE: 4-8 rules ask each sentence), and a two-workload brief's shared sentences, which
are read once with the training part and once with the serving part (advisor/extract/workloads.py).
A compiled pattern's `search`, `match`, `fullmatch` and `finditer` are pure functions of (pattern,
string, pos, endpos), so within `remembering()` (one RulesExtractor.analyse) each answer is kept by those
arguments and given again: the same Match objects, a finditer's matches in the same order. Outside the
block every call runs the regex. The table of answers lives until the next reading starts (one reading's
sentences), per pattern; a string equal to one asked before gets the earlier answer, which is the same
answer, so the tables need no scope to be right, only to stay small.

`MemoPattern` stands in for a module's plain compiled pattern (`memo_patterns`); Keyed patterns
(advisor/extract/regex_keys.py) remember through `Remembered`, their base, after their gate: a closed gate
answers without a table. A pattern's first run in a reading also gives it its first-character form
(advisor/extract/regex_first.py), compiled then rather than at import. `per_reading` does the same for a
pure helper of one sentence (the models, the token figures named in it).
"""

from __future__ import annotations

import functools
import itertools
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from types import ModuleType
from typing import Any, TypeVar

from advisor.extract.regex_first import with_first_char

_EPOCH: ContextVar[int] = ContextVar("regex_memo_epoch", default=0)  # 0: not reading, nothing remembered
_epochs = itertools.count(1)
_MISSING: Any = object()
T = TypeVar("T")
_MAX = sys.maxsize
# the answers of search, match, fullmatch and finditer
Tables = tuple[dict[Any, Any], dict[Any, Any], dict[Any, Any], dict[Any, Any]]


@contextmanager
def remembering() -> Iterator[None]:
    """Within the block, Remembered patterns keep their answers (a fresh table per pattern)."""
    token = _EPOCH.set(next(_epochs))
    try:
        yield
    finally:
        _EPOCH.reset(token)


def reading_epoch() -> int:
    """The current reading's number (0 outside `remembering`): a table kept for it is valid while it lasts."""
    return _EPOCH.get()


class Remembered:
    """Answers of `self.regex` kept per reading (see the module docstring); an answer is kept by its
    string alone when pos and endpos are the defaults (a string and a tuple are never equal keys). The
    methods are written out one by one: they run for every pattern a rule asks of every sentence."""

    __slots__ = ("_pending", "_tables", "original", "regex")

    def __init__(self, regex: re.Pattern[str]) -> None:
        self.original = regex  # as compiled
        self.regex = regex  # becomes its first-character form (regex_first.py) once first run in a reading
        self._pending = True
        self._tables: tuple[int, Tables] = (0, ({}, {}, {}, {}))

    def _fresh(self, epoch: int) -> Tables:
        tables: Tables = ({}, {}, {}, {})
        self._tables = (epoch, tables)
        if self._pending:
            self._first()
        return tables

    def _first(self) -> re.Pattern[str]:
        """The first-character form, compiled when first needed, not at import (most patterns' gates stay
        closed): in a reading, or outside one (the input's accounting, the guard; speed9: they ran as
        compiled unless a reading had run them first)."""
        self.regex = with_first_char(self.original)
        self._pending = False
        return self.regex

    @property
    def pattern(self) -> str:
        """The pattern's source as written (not its first-character form)."""
        return self.original.pattern

    def search(self, string: str, pos: int = 0, endpos: int = _MAX) -> re.Match[str] | None:
        epoch = _EPOCH.get()
        if not epoch:
            return (self._first() if self._pending else self.regex).search(string, pos, endpos)
        seen, tables = self._tables
        if seen != epoch:
            tables = self._fresh(epoch)
        key = string if pos == 0 and endpos == _MAX else (string, pos, endpos)
        found = tables[0].get(key, _MISSING)
        if found is _MISSING:
            found = tables[0][key] = self.regex.search(string, pos, endpos)
        return found  # type: ignore[no-any-return]

    def match(self, string: str, pos: int = 0, endpos: int = _MAX) -> re.Match[str] | None:
        epoch = _EPOCH.get()
        if not epoch:
            return (self._first() if self._pending else self.regex).match(string, pos, endpos)
        seen, tables = self._tables
        if seen != epoch:
            tables = self._fresh(epoch)
        key = string if pos == 0 and endpos == _MAX else (string, pos, endpos)
        found = tables[1].get(key, _MISSING)
        if found is _MISSING:
            found = tables[1][key] = self.regex.match(string, pos, endpos)
        return found  # type: ignore[no-any-return]

    def fullmatch(self, string: str, pos: int = 0, endpos: int = _MAX) -> re.Match[str] | None:
        epoch = _EPOCH.get()
        if not epoch:
            return (self._first() if self._pending else self.regex).fullmatch(string, pos, endpos)
        seen, tables = self._tables
        if seen != epoch:
            tables = self._fresh(epoch)
        key = string if pos == 0 and endpos == _MAX else (string, pos, endpos)
        found = tables[2].get(key, _MISSING)
        if found is _MISSING:
            found = tables[2][key] = self.regex.fullmatch(string, pos, endpos)
        return found  # type: ignore[no-any-return]

    def finditer(self, string: str, pos: int = 0, endpos: int = _MAX) -> Iterator[re.Match[str]]:
        epoch = _EPOCH.get()
        if not epoch:
            return (self._first() if self._pending else self.regex).finditer(string, pos, endpos)
        seen, tables = self._tables
        if seen != epoch:
            tables = self._fresh(epoch)
        key = string if pos == 0 and endpos == _MAX else (string, pos, endpos)
        found = tables[3].get(key, _MISSING)
        if found is _MISSING:
            found = tables[3][key] = tuple(self.regex.finditer(string, pos, endpos))
        return iter(found)


class MemoPattern(Remembered):
    """A Remembered pattern standing in for a module's compiled pattern (`memo_patterns`): search, match,
    fullmatch and finditer are remembered, every other attribute (sub, split, findall, pattern, flags,
    groupindex ...) is the compiled pattern's own."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        if name == "regex":  # not set yet: no recursion through __getattr__
            raise AttributeError(name)
        return getattr(self.regex, name)


def memo_patterns(modules: Iterable[ModuleType], shared: dict[int, Any] | None = None) -> int:
    """Each module-level compiled pattern of `modules` becomes a MemoPattern, one per compiled pattern (a
    pattern imported by several modules shares its answers); the number replaced. `shared`: stand-ins
    made before (compiled pattern's id -> stand-in), reused and extended."""
    made = {} if shared is None else shared
    count = 0
    for module in modules:
        for name, value in list(vars(module).items()):
            if isinstance(value, re.Pattern):
                stand_in = made.get(id(value))
                if stand_in is None or stand_in.original is not value:
                    stand_in = made[id(value)] = MemoPattern(value)
                setattr(module, name, stand_in)
                count += 1
    return count


def per_reading(fn: Callable[[str], list[T]]) -> Callable[[str], list[T]]:
    """`fn`, a pure function of one sentence's text returning a list, answered from memory within
    `remembering` (a copy of the list each time: callers may change theirs). For the helpers every reading
    of a sentence calls (models and token figures named in it): a two-workload brief reads its shared
    sentences once per part."""
    table: dict[str, list[T]] = {}
    seen = [0]

    @functools.wraps(fn)
    def remembered(text: str) -> list[T]:
        epoch = _EPOCH.get()
        if not epoch:
            return fn(text)
        if seen[0] != epoch:
            table.clear()
            seen[0] = epoch
        found = table.get(text)
        if found is None:
            found = table[text] = fn(text)
        return list(found)

    return remembered
