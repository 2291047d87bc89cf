"""Ctx.sentences_with (issue 12, speed8): the sentences in which one of the given patterns may match are the
sentences whose gate the pattern opens, in order, inside a reading; every sentence where the index cannot
say (a pattern without words, a plain compiled pattern, outside a reading). A rule that reads only those
sentences skips exactly the ones on which each of its patterns answers "no match" without running."""

from __future__ import annotations

import datetime as dt
import re

import advisor.extract.rules  # noqa: F401  (keys the rule modules' patterns)
from advisor.extract.regex_keys import keyed, reading, reading_all
from advisor.extract.rules_ctx import Ctx, Gated
from advisor.extract.rules_text import split_sentences

_WHEN = dt.datetime(2026, 1, 5, tzinfo=dt.UTC)
_TEXT = "We need 8x H100. Data sits in S3. Spot is fine. EU only, no AWS. Budget $5k. Serve 50 users."


def _ctx() -> Ctx:
    return Ctx(sentences=split_sentences(_TEXT).sentences, reference_time=_WHEN)


def test_only_sentences_a_pattern_may_match_in_order() -> None:
    spot = Gated(re.compile(r"\bspot\b", re.I), "spot")
    eu = keyed(r"\beu only\b", re.I)
    ctx = _ctx()
    with reading([s.text for s in ctx.sentences]):
        picked = ctx.sentences_with(eu, spot)
        assert [s.text for s in picked] == ["Spot is fine.", "EU only, no AWS."]
        gated = [s for s in ctx.sentences if spot.search(s.text) or eu.search(s.text)]
        assert list(picked) == gated


def test_a_part_of_a_whole_message_uses_the_whole_messages_index() -> None:
    ctx = _ctx()
    users = keyed(r"\busers\b", re.I)
    part = Ctx(sentences=ctx.sentences[3:], reference_time=_WHEN)
    with reading_all([s.text for s in ctx.sentences]), reading([s.text for s in part.sentences]):
        assert [s.text for s in part.sentences_with(users)] == ["Serve 50 users."]


def test_every_sentence_when_the_index_cannot_say() -> None:
    ctx = _ctx()
    wordless = keyed(r"\d+", re.I)  # no word every match needs
    plain = re.compile(r"\bspot\b", re.I)  # not keyed: the regex runs on every text
    assert ctx.sentences_with(keyed(r"\bspot\b", re.I)) == ctx.sentences  # outside a reading
    with reading([s.text for s in ctx.sentences]):
        assert ctx.sentences_with(wordless) == ctx.sentences
        assert ctx.sentences_with(plain) == ctx.sentences
        assert ctx.sentences_with(keyed(r"\bgdpr\b", re.I)) == ()


def test_sentences_outside_the_scope_are_kept_and_a_new_scope_is_asked_again() -> None:
    """The text ids kept per scope (speed9): a scope holding only some of the sentences keeps the others
    (the index cannot say for them), and the next scope is asked afresh, not answered from the last."""
    ctx = _ctx()
    spot = keyed(r"\bspot\b", re.I)
    texts = [s.text for s in ctx.sentences]
    with reading(texts[:3]):  # "Spot is fine." is in it; the three after it are not
        assert [s.text for s in ctx.sentences_with(spot)] == [
            "Spot is fine.", "EU only, no AWS.", "Budget $5k.", "Serve 50 users."
        ]  # fmt: skip
    with reading(texts):
        assert [s.text for s in ctx.sentences_with(spot)] == ["Spot is fine."]
    with reading(texts[3:]):
        assert [s.text for s in ctx.sentences_with(spot)] == texts[:3]  # kept: outside the scope
