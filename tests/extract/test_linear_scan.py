"""The linear-reading helpers (advisor/extract/scan.py, issue 12) answer exactly what the whole-text
searches they replace answered, and the forms the changed rules read still read the same."""

from __future__ import annotations

import re

from advisor.extract.rules import RulesExtractor
from advisor.extract.rules_claim_forms import _CHECK_ASKED
from advisor.extract.rules_gpu_lists import _COUNT_BEFORE, _COUNT_WORD_BEFORE, _count_before
from advisor.extract.rules_models import find_providers
from advisor.extract.rules_provider_cues import _HEAD_CUES
from advisor.extract.rules_workload import _ARTIFACT_BEFORE, _ARTIFACT_WORDS
from advisor.extract.scan import MatchAhead, Spans, comma_clauses, live_patterns, words_back

_TEXTS = (
    "4x L40S should be fine, right? and 2 H100 - sanity check? then 8x A100 no? x-right ? end",
    "we will eval our  own   Qwen3 8B  fine-tune and test the\tbase model, benchmarking this lora",
    "compare a single H100, two L40S or 8 x H200 vs -3x B200 and one A100",
    "",
)


def test_match_ahead_answers_as_a_search_from_each_position() -> None:
    for text in _TEXTS:
        ahead = MatchAhead(_CHECK_ASKED, text)
        for pos in range(len(text) + 1):
            assert ahead.at_or_after(pos) == (_CHECK_ASKED.search(text, pos) is not None), (text, pos)


def test_match_ahead_asked_out_of_order_still_searches() -> None:
    text = "right? and nothing after"
    ahead = MatchAhead(re.compile(r"\bright\s*\?"), text)
    assert ahead.at_or_after(10) is False
    assert ahead.at_or_after(0) is True  # before the miss: searched again, not answered from it


def test_a_search_from_words_back_finds_what_the_whole_head_finds() -> None:
    for text in _TEXTS:
        for end in range(len(text) + 1):
            head = words_back(text, end, _ARTIFACT_WORDS)
            whole = _ARTIFACT_BEFORE.search(text, 0, end)
            near = _ARTIFACT_BEFORE.search(text, head, end)
            assert (whole and whole.span()) == (near and near.span()), (text, end)
            for rx in (_COUNT_BEFORE, _COUNT_WORD_BEFORE):
                whole = rx.search(text[:end])
                near = rx.search(text, words_back(text, end, 2), end)
                assert (whole and whole.span()) == (near and near.span()), (text, end)


def test_words_back_counts_words_not_characters() -> None:
    assert words_back("a bb  ccc ", 10, 2) == 2
    assert words_back("a bb  ccc ", 10, 5) == 0
    assert words_back("x-of", 4, 1) == 0


def test_the_count_before_each_compared_card() -> None:
    text = "compare a single H100, two L40S or 8 x H200"
    assert _count_before(text, text.index("H100")) == (1, text.index("a single"))
    assert _count_before(text, text.index("L40S")) == (2, text.index("two"))
    assert _count_before(text, text.index("H200")) == (8, text.index("8 x"))


def test_the_changed_rules_read_as_before() -> None:
    read = RulesExtractor().extract
    p = read("What's cheaper per month: 1x H100 or 2x L40S?")
    assert p.gpus_compared is not None and len(p.gpus_compared) == 2
    assert p.gpu_counts_compared == [1, 2]
    p = read("Planning on 4 H100s for serving Llama 3 8B - sanity check?")
    assert p.claimed_gpu_count == 4
    p = read("Serve our Qwen3 8B fine-tune to 50 users.")  # the fine-tune is the model served
    assert p.workload == "inference"


def _blanked_by_every_name(clause: str, idx: int, named: list[tuple[str, int, int]]) -> str:
    """The pass over every name that Spans.blanked replaces (rules_constraints._without_names)."""
    chars = list(clause)
    for _, a, b in named:
        for i in range(max(a - idx, 0), min(b - idx, len(chars))):
            chars[i] = " "
    return "".join(chars)


def test_spans_give_each_clause_the_names_a_pass_over_all_gave() -> None:
    text = "no AWS, Azure or Google Cloud; we prefer Lambda, RunPod (or Nebius) while not vast"
    named = find_providers(text)
    spans = Spans(named)
    assert named
    for lo in range(len(text) + 1):
        for hi in range(lo, len(text) + 1, 7):
            assert spans.starting_in(lo, hi) == [n for n in named if lo <= n[1] < hi]
            assert spans.blanked(text[lo:hi], lo) == _blanked_by_every_name(text[lo:hi], lo, named)


_PROVIDER_TEXTS = (
    "no AWS, Azure or Google Cloud; we prefer Lambda, RunPod (or Nebius) while not vast",
    "must be on our approved list, which today is AWS, GCP and Azure",
    "AWS or GCP or Azure or Lambda",
    "",
)


def test_comma_clauses_are_contiguous() -> None:
    # rule_providers reads the text before a name as one slice of the sentence: the clauses must tile it
    for text in _PROVIDER_TEXTS:
        clauses = comma_clauses(text)
        assert "".join(c for _, c in clauses) == text
        assert all(text[off : off + len(c)] == c for off, c in clauses)
    # at each "," and ";" outside the parentheses, and "while" as its own clause
    parts = [c for _, c in comma_clauses(_PROVIDER_TEXTS[0])]
    assert parts[3:] == [" RunPod (or Nebius)", " while ", "not vast"]


def test_a_pattern_not_live_in_a_text_matches_no_slice_of_it() -> None:
    for text in _PROVIDER_TEXTS:
        live = live_patterns(_HEAD_CUES, text)
        for rx in _HEAD_CUES:
            if rx in live:
                continue
            for lo in range(0, len(text) + 1, 3):
                for hi in range(lo, len(text) + 1, 5):
                    assert rx.regex.search(text[lo:hi]) is None, (rx.regex.pattern[:40], text[lo:hi])
    assert live_patterns(_HEAD_CUES, _PROVIDER_TEXTS[2]) == frozenset()  # no cue word at all


def test_provider_cues_read_as_before() -> None:
    read = RulesExtractor().extract
    p = read("We can't use anything but AWS, or GCP if we must. Prefer Lambda or RunPod, never vast.")
    assert p.providers_required == ["aws"] and p.providers_excluded is not None
    assert "vast-ai" in p.providers_excluded and p.providers_preferred is not None
    assert "lambda" in p.providers_preferred
