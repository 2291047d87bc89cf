"""A compiled pattern that first tests the character a match must open with, where that cuts its search.

Python's `re` searches a pattern by trying it at every position. A case-insensitive pattern that opens with
`\\b` and an alternation ("\\b(?:eu only|gdpr|within the eu|...)") enters each alternative at every word
start, and `re` has no first-character shortcut for it (its own, a literal or character-set prefix, is only
for case-sensitive patterns that open with the literal). `first_chars` reads the pattern's parse tree for
the characters a match can open with (the first character the pattern consumes: through groups,
alternatives, optional pieces, skipping zero-width assertions), and `with_first_char` compiles
`(?=[those])(?:pattern)`: the same flags, groups and matches, the lookahead failing at once where no
alternative could open. A lookahead of a character every match opens with changes no match: a match at a
position consumes its first character there, which the set holds.

Left as they are: patterns that can match empty, that `re` already searches by prefix, that open with
`^`, with inline flag changes, back-references, or a first character set too wide to cut much (`\\w`,
`\\s`, a negated set, a range of more than RANGE_MAX_CHARS): those keep their own compiled pattern.
Over the rule modules' patterns, every sentence of a 20,000-character message of mixed eval briefs: the
regex time of the patterns changed fell by about 40% (issue 12, speed6).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable
from types import ModuleType
from typing import Any

# the parser and compiler `re` itself uses (no public API exposes them): any failure to read a pattern
# leaves it as compiled (regex_keys.py reads the same parse trees)
_parser: Any = importlib.import_module("re._parser")
_compiler: Any = importlib.import_module("re._constants")  # opcodes
_re_compiler: Any = importlib.import_module("re._compiler")

RANGE_MAX_CHARS = 10  # a wider range ("a-z") lets most positions through
_CATEGORIES = {"CATEGORY_DIGIT": r"\d"}  # the only category narrow enough to keep (not \w, \s, \W ...)


class _Wide(Exception):
    """The pattern's first characters cannot be given as a useful set."""


def _first(items: Any) -> tuple[list[tuple[Any, Any]], bool]:
    """The class items the sequence `items` can open with, and whether it can match empty."""
    k = _compiler
    out: list[tuple[Any, Any]] = []
    for op, av in items:
        if op in (k.AT, k.ASSERT, k.ASSERT_NOT):
            continue  # consumes nothing: the next item opens the match
        found, empty = _first_item(op, av)
        out += found
        if not empty:
            return out, False
    return out, True


def _first_item(op: Any, av: Any) -> tuple[list[tuple[Any, Any]], bool]:
    k = _compiler
    if op is k.LITERAL:
        return [(op, av)], False
    if op is k.IN:
        if any(o is not k.LITERAL and o is not k.RANGE and o is not k.CATEGORY for o, _ in av):
            raise _Wide  # a negated set, or one `re` has already folded into a charset or bigcharset
        return list(av), False
    if op is k.SUBPATTERN:
        _group, add_flags, del_flags, sub = av
        if add_flags or del_flags:
            raise _Wide  # "(?-i:US)": the flags the lookahead runs under would not be these
        return _first(sub)
    if op is k.BRANCH:
        out: list[tuple[Any, Any]] = []
        empty = False
        for branch in av[1]:
            found, can_be_empty = _first(branch)
            out += found
            empty = empty or can_be_empty
        return out, empty
    if op in (k.MAX_REPEAT, k.MIN_REPEAT, k.POSSESSIVE_REPEAT):
        low, _high, sub = av
        found, empty = _first(sub)
        return found, empty or low == 0
    if op is k.ATOMIC_GROUP:
        return _first(av)
    if op is k.CATEGORY:
        return [(op, av)], False
    raise _Wide  # any character, a back-reference, a conditional group


def _class(items: list[tuple[Any, Any]]) -> str:
    """A character class (source) of the items; _Wide when one of them lets too much through."""
    k = _compiler
    parts: set[str] = set()
    for op, av in items:
        if op is k.LITERAL:
            parts.add(re.escape(chr(av)))
        elif op is k.RANGE and av[1] - av[0] < RANGE_MAX_CHARS:
            parts.add(f"{re.escape(chr(av[0]))}-{re.escape(chr(av[1]))}")
        elif op is k.CATEGORY and str(av) in _CATEGORIES:
            parts.add(_CATEGORIES[str(av)])
        else:
            raise _Wide
    return "[" + "".join(sorted(parts)) + "]"


def first_chars(regex: re.Pattern[str]) -> str | None:
    """The character class (source) every match of `regex` opens with, or None where no useful one
    exists or `re` already searches it by a prefix (see the module docstring)."""
    if not isinstance(regex.pattern, str) or regex.flags & (re.LOCALE | re.VERBOSE | re.ASCII):
        return None
    try:
        tree = _parser.parse(regex.pattern, regex.flags)
        data = tree.data
        anchors = (_compiler.AT_BEGINNING, _compiler.AT_BEGINNING_STRING)
        if not data or (data[0][0] is _compiler.AT and data[0][1] in anchors):
            return None  # "^...": tried at the start only, or `re` finds each line start itself
        prefix, _skip, _all = _re_compiler._get_literal_prefix(tree, regex.flags)
        if prefix or _re_compiler._get_charset_prefix(tree, regex.flags):
            return None  # `re` skips to the prefix on its own
        items, empty = _first(data)
        if empty or not items:
            return None
        return _class(items)
    except (_Wide, re.error, AttributeError, TypeError, ValueError, IndexError):
        return None


def with_first_char(regex: re.Pattern[str]) -> re.Pattern[str]:
    """`regex`, or the same pattern behind a lookahead of its first characters (see the module docstring).
    The result's `.pattern` is the new source; its groups, group names and flags are the pattern's."""
    chars = first_chars(regex)
    if chars is None:
        return regex
    try:
        faster = re.compile(f"(?={chars})(?:{regex.pattern})", regex.flags)
    except re.error:  # global flags inside the pattern ("(?i)" not at the start any more)
        return regex
    if faster.groupindex != regex.groupindex or faster.groups != regex.groups:
        return regex
    return faster


# compiled pattern's id -> (it, its faster form): both kept alive, so no id is reused while listed
_MADE: dict[int, tuple[re.Pattern[str], re.Pattern[str]]] = {}
_FASTER: set[int] = set()  # ids of the faster forms made: asked again, they stay as they are


def first_char_patterns(modules: Iterable[ModuleType]) -> int:
    """Each module-level compiled pattern of `modules` becomes `with_first_char` of itself (one per compiled
    pattern, so modules that share one share its faster form); the number changed. A plain compiled
    pattern, no wrapper: its calls cost what they did. Asking again leaves what was made as it is."""
    count = 0
    for module in modules:
        for name, value in list(vars(module).items()):
            if not isinstance(value, re.Pattern) or id(value) in _FASTER:
                continue
            made = _MADE.get(id(value))
            if made is None:
                made = _MADE[id(value)] = (value, with_first_char(value))
                _FASTER.add(id(made[1]))
            faster = made[1]
            if faster is not value:
                setattr(module, name, faster)
                count += 1
    return count
