"""Serving lengths, budgets, providers and user counts written the way people write them (issue 12):
each group is tested on the eval case's phrasing, two or three phrasings of our own, and a near miss
that must be read the other way (or not at all)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.units_text import usd_per_unit
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
SERVE = "We serve Llama 3.1 70B to our users. "


# --- lengths: a bare figure with its role noun after it ----------------------------------------------
@pytest.mark.parametrize(
    ("text", "prompt", "output"),
    [
        ("About 120 concurrent users, ~2k prompt and ~500 answer.", 2000, 500),  # evals v11
        ("~250 concurrent at peak, ~2k prompt / ~400 answer, 24/7.", 2000, 400),  # evals v9
        ("Need ~80 concurrent, 4k prompts, 1k outputs, FP8 is fine.", 4000, 1000),  # evals v10
        ("60 users at once, roughly 3k input, 700 output.", 3000, 700),
        ("Think 1.5k tokens prompt and 200 completion per request.", 1500, 200),
    ],
)
def test_a_bare_figure_takes_the_role_noun_after_it(extract: Extract, text: str, prompt: int,
                                                     output: int) -> None:  # fmt: skip
    p = extract(SERVE + text)
    assert (p.prompt_tokens, p.output_tokens) == (prompt, output)
    assert p.context_len == prompt + output


def test_a_count_of_prompts_per_day_is_no_length(extract: Extract) -> None:
    p = extract(SERVE + "We get 4k prompts, 1k outputs a day flagged for review.")
    assert p.output_tokens is None


# --- lengths: one figure marked as the answer, the other is then the input -------------------------
@pytest.mark.parametrize(
    ("text", "prompt", "output"),
    [
        # evals v10 / v11 / v9 phrasings
        ("A typical turn sends ~1,200 tokens of conversation history and gets ~300 tokens back.", 1200, 300),
        ("A typical request stuffs 40-48k tokens of retrieved clauses and gets 1-1.5k back.", 48000, 1500),
        ("Peak is 90 users, ~3k tokens of prompt, ~80 tokens completed, 20 ms/token.", 3000, 80),
        ("Each line gets ~900 tokens of context (persona, world state) and produces ~60 tokens.", 900, 60),
        ("Each one is ~2.5k tokens in (retrieved chunks) and ~200 tokens out.", 2500, 200),
        ("Short prompts (about 400 tokens), replies never more than 60 tokens.", 400, 60),
        ("Each judge prompt is ~1,500 tokens including the chat, and the verdict is ~90 tokens.", 1500, 90),
        ("Each review is about 200 tokens, and the summary is about 60 tokens.", 200, 60),
        # our own
        ("Every ticket carries ~700 tokens of thread and returns ~120 tokens.", 700, 120),
        ("A call is ~2k tokens of transcript, the summary comes to about 150 tokens.", 2000, 150),
        ("Inputs are about 5k tokens of legal text, ~400 tokens of feedback back to the author.", 5000, 400),
    ],
)
def test_the_length_not_marked_as_the_answer_is_the_prompt(extract: Extract, text: str, prompt: int,
                                                           output: int) -> None:  # fmt: skip
    p = extract(SERVE + text)
    assert (p.prompt_tokens, p.output_tokens) == (prompt, output)


def test_two_answer_lengths_give_no_prompt(extract: Extract) -> None:
    """Near miss: both figures are answers (short and long), neither is the input."""
    p = extract(SERVE + "Short answers are ~100 tokens and long answers are ~900 tokens.")
    assert p.prompt_tokens is None


def test_a_rate_beside_an_answer_is_no_prompt(extract: Extract) -> None:
    """Near miss: "30 tokens/s" is a speed, not the input's length."""
    p = extract(SERVE + "Stream at 30 tokens per second, the reply is ~200 tokens.")
    assert p.prompt_tokens is None


# --- lengths: a labelled row of a pasted sheet ----------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "prompt", "output"),
    [
        ("Line\tItem\tQty\tUnit\n2\tAvg input per item\t900\ttokens\n3\tAvg output per item\t450\ttokens",
         900, 450),  # evals v10
        ("metric\tvalue\tunit\nprompt per request\t1,200\ttokens\nanswer per request\t300\ttokens",
         1200, 300),
        ("Average input: 640 tokens\nAverage output: 96 tokens", 640, 96),
    ],
)  # fmt: skip
def test_a_labelled_row_gives_the_length(extract: Extract, text: str, prompt: int, output: int) -> None:
    p = extract(SERVE + "\n" + text)
    assert (p.prompt_tokens, p.output_tokens) == (prompt, output)


def _usd_per(code: str) -> float:
    """The catalog's dated reference rate (tools/catalog/costs.yaml usd_per_<code>)."""
    rate = usd_per_unit(code)
    assert rate is not None
    return rate.value


EUR, GBP, CHF, JPY, INR = (_usd_per(c) for c in ("EUR", "GBP", "CHF", "JPY", "INR"))


# --- budgets: ranges with one multiplier, other currencies, words, caps ---------------------------------
TRAIN = "Fine-tune Llama 3.1 8B with LoRA on 20M tokens. "


@pytest.mark.parametrize(
    ("text", "usd"),
    [
        ("We have CHF 250-300k.", 300_000 * CHF),  # evals v11: the upper end
        ("Budget's in the £60-75k range.", 75_000 * GBP),  # evals v10
        ("Our budget is between 40 and 50k EUR.", 50_000 * EUR),
        ("Budget is ₹6 lakh.", 600_000 * INR),  # evals v11
        ("The budget is 1.5 million yen.", 1_500_000 * JPY),  # evals v11
        ("We can spend up to INR 20 lakh.", 2_000_000 * INR),
        ("Budget's around fifteen hundred dollars.", 1500.0),  # evals v9
        ("budget's around two and a half grand.", 2500.0),  # evals v11
        ("We have about three and a half thousand euros.", 3500 * EUR),
        ("Acceptance criteria: Cost < $1,500 all-in.", 1500.0),  # evals v10
        ("My supervisor has £2,000 of grant money we could spend.", 2000 * GBP),  # evals v10
    ],
)
def test_budget_forms(extract: Extract, text: str, usd: float) -> None:
    assert extract(TRAIN + text).budget_usd == pytest.approx(usd)


@pytest.mark.parametrize(
    "text",
    [
        "It took two and a half weeks last time and fifteen hundred users tried it.",  # words, no money
        "The H100s cost ₹300 per hour on that marketplace.",  # a rate, not a budget
        "We paid CHF 250-300k for the cluster in 2023.",  # a price paid, no budget cue
    ],
)
def test_budget_near_misses_read_no_budget(extract: Extract, text: str) -> None:
    assert extract(TRAIN + text + " What does it cost?").budget_usd is None
