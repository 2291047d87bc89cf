"""Scope.holding (which sentences of a text hold a pattern's words, one search per sentence that does)
opens every gate that testing each sentence's own words opens, for every Keyed and Gated pattern the
rules use, over eval briefs and a 20,000-character mixed message (issue 12: linear reading). It may open
a few more (a word across the space that joins two sentences, "Jordi" + " " holding "i "): an open gate
runs the regex, whose answer on the sentence is its own, so what a rule reads is unchanged."""

from __future__ import annotations

import gc

import advisor.extract.rules  # noqa: F401  (imports every rule module and its patterns)
from advisor.extract.regex_keys import Keyed, reading, reading_all
from advisor.extract.rules_ctx import Gated
from advisor.extract.rules_text import split_sentences
from bench.extraction_speed import mixed_message


def _gates() -> list[Keyed | Gated]:
    return [g for g in gc.get_objects() if isinstance(g, (Keyed, Gated)) and getattr(g, "words", True)]


def _open(gate: Keyed | Gated, text: str) -> bool:
    return gate.may_match(text) if isinstance(gate, Keyed) else gate._open(text)


def test_scope_index_opens_every_gate_each_sentence_opens() -> None:
    gates = _gates()
    assert len(gates) > 150  # the rules' patterns were found
    texts = [
        mixed_message(20_000),
        "Fine-tune Llama 3 8B. EU only. No spot. " * 3,  # repeated sentences: one object each
        "Ünïcode Straße İstanbul KELVIN \u212a: spot ok. Azure preferred.",  # folds: no index, same answer
    ]
    for text in texts:
        sentences = [s.text for s in split_sentences(text).sentences]
        alone = [[_open(g, s) for s in sentences] for g in gates]  # outside any scope: own words only
        with reading(sentences):
            scoped = [[_open(g, s) for s in sentences] for g in gates]
        for gate, own, row in zip(gates, alone, scoped, strict=True):
            assert all(o <= r for o, r in zip(own, row, strict=True)), gate  # never closed where open alone
        pairs = [(o, r) for a, b in zip(alone, scoped, strict=True) for o, r in zip(a, b, strict=True)]
        extra = sum(r and not o for o, r in pairs)
        assert extra <= len(sentences)  # the join's spaces open few more (4 in the 20,000 characters)
        for gate, row in zip(gates, scoped, strict=True):  # a closed Keyed gate hides no match (a Gated
            if not isinstance(gate, Keyed):  # one's hand-written keys are its rule's reading, kept as is)
                continue
            regex = gate.regex
            for s, is_open in zip(sentences, row, strict=True):
                assert is_open or regex.search(s) is None, (regex.pattern[:60], s)


def test_a_part_read_within_the_whole_message_opens_every_gate_its_sentences_open() -> None:
    """A part of the message's sentences (one workload of a two-workload brief) asks the whole message's
    index (reading_all): a gate a sentence opens alone stays open, inside the part or not."""
    gates = _gates()
    sentences = [s.text for s in split_sentences(mixed_message(4_000)).sentences]
    part = sentences[::2]
    alone = [[_open(g, s) for s in sentences] for g in gates]
    with reading_all(sentences), reading(part) as scope:
        assert scope.base is not None  # the whole's index answers
        scoped = [[_open(g, s) for s in sentences] for g in gates]
    for gate, own, row in zip(gates, alone, scoped, strict=True):
        assert all(o <= r for o, r in zip(own, row, strict=True)), gate
    with reading_all(sentences[:3]), reading(part) as scope:
        assert scope.base is None  # not all of them in the whole: its own index
