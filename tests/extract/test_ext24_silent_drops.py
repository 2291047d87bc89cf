"""Stated constraints the evals v14/v12 development cases dropped silently (issue 12): the case's phrasing,
two variants written the way teams write, and a near miss for each reading.

Deadlines are hours from the fixture's reference time (conftest.py: Wed 18 Nov 2026 09:00 UTC) to the end
of the named day (rules_money_time.py), computed here, not copied from output."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest

from advisor.extract.units_text import usd_from
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
_REF = dt.datetime(2026, 11, 18, 9, 0, tzinfo=dt.UTC)  # conftest.WEDNESDAY


def _hours_to_end_of(day: dt.date) -> float:
    end = dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC) + dt.timedelta(days=1)
    return (end - _REF).total_seconds() / 3600


# --------------------------------------------------------------------------- a date after "within"
_CPT = "Continued pre-training of Gemma 3 12B on 3.5B tokens, one pass. "


@pytest.mark.parametrize(
    "said",
    [
        "The work must be finished within the 15 December, because after we present it to the client.",  # v14
        "We need the model within 15 December at the latest.",
        "Results within December 15 please.",
    ],
)
def test_a_date_after_within_is_the_deadline(extract: Extract, said: str) -> None:
    assert extract(_CPT + said).deadline_hours == pytest.approx(_hours_to_end_of(dt.date(2026, 12, 15)))


def test_near_miss_within_a_duration_stays_a_duration(extract: Extract) -> None:
    # "within 15 days" is 15 days from now (360 h), not the 15th of the month named later
    p = extract(_CPT + "We want the results within 15 days, the kickoff is on 15 December.")
    assert p.deadline_hours == pytest.approx(15 * 24)


# --------------------------------------------------------------------------- a day of the month with a dot
@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("Until 11. December it should be ready.", 11),  # v12 non-native German
        ("It must be done bis zum 3. Dezember, so by 3. December.", 3),
        ("Deadline is 20. December.", 20),
    ],
)
def test_a_dotted_day_of_the_month_is_one_date(extract: Extract, said: str, day: int) -> None:
    p = extract("QLoRA Gemma 2 27B on 85.000 samples of 900 tokens. " + said)
    assert p.deadline_hours == pytest.approx(_hours_to_end_of(dt.date(2026, 12, day)))


def test_near_miss_a_number_ending_a_sentence_before_a_month_states_no_deadline(extract: Extract) -> None:
    p = extract("QLoRA Gemma 2 27B on 20M tokens. We tried version 2. December was busy, no deadline.")
    assert p.deadline_hours is None


# --------------------------------------------------------------------------- "ms/tok"
_SERVE = "Serve Qwen2.5 14B for 40 concurrent users, 2k in / 300 out, "


@pytest.mark.parametrize(
    ("said", "ms"),
    [("<=30ms/tok, ttft <1s.", 30), ("<= 25 ms per tok please.", 25), ("45 ms/tok max.", 45)],
)
def test_ms_per_tok_is_the_per_token_latency(extract: Extract, said: str, ms: float) -> None:
    assert extract(_SERVE + said).latency_ms_per_token == pytest.approx(ms)


def test_near_miss_ms_to_tokenize_is_no_latency_target(extract: Extract) -> None:
    assert extract(_SERVE + "the tokenizer takes 30 ms to tokenize each prompt.").latency_ms_per_token is None


# --------------------------------------------------------------------------- a ceiling in a coded currency
_FT = "LoRA fine-tune Llama 3.3 70B on 40M tokens. "


@pytest.mark.parametrize(
    ("said", "amount", "code"),
    [
        ("Compute shall be procured by Consultant and re-invoiced at cost, not to exceed NOK 95,000.",
         95_000, "NOK"),  # v12 SOW
        ("Compute costs must not exceed SEK 120k.", 120_000, "SEK"),
        ("GPU spend has a ceiling of DKK 60,000.", 60_000, "DKK"),
    ],
)  # fmt: skip
def test_a_coded_ceiling_is_the_budget(extract: Extract, said: str, amount: float, code: str) -> None:
    assert extract(_FT + said).budget_usd == pytest.approx(usd_from(amount, code).value)


def test_near_miss_money_without_a_budget_cue_is_no_budget(extract: Extract) -> None:
    assert extract(_FT + "Latency must not exceed 50 ms; we raised NOK 20M last year.").budget_usd is None


# --------------------------------------------------------------------------- a figure said to be unrelated
_CPT14 = "Qwen2.5 14B continued pretraining on 12B tokens, 1 epoch. "


@pytest.mark.parametrize(
    "aside",
    [
        "FYI the marketing team's $2M launch budget is unrelated lol",  # v14 Geekbot stand-up
        "The $120k figure in the deck is for the data team and is totally unrelated.",
        "Budget is $40k; the $500k grant is not related.",
    ],
)
def test_a_figure_said_to_be_unrelated_is_not_the_budget(extract: Extract, aside: str) -> None:
    assert extract(_CPT14 + "Leadership wants it under $40k. " + aside).budget_usd == pytest.approx(40_000)


def test_near_miss_unrelated_opening_the_sentence_keeps_its_budget(extract: Extract) -> None:
    p = extract(_CPT14 + "Unrelated to the launch, our budget is $40k.")
    assert p.budget_usd == pytest.approx(40_000)


# --------------------------------------------------------------------------- "skip <provider>"
_CHAT = "Serve Llama 3 8B for 200 concurrent users. "


@pytest.mark.parametrize(
    ("said", "provider"),
    [
        ("and skip RunPod please, for both", "runpod"),  # v14 Zoom chat
        ("Please skip Vast.ai.", "vast-ai"),
        ("We'd like to skip CoreWeave this time.", "coreweave"),
    ],
)
def test_skip_before_a_provider_excludes_it(extract: Extract, said: str, provider: str) -> None:
    excluded = extract(_CHAT + said).providers_excluded
    assert any(p.startswith(provider) for p in excluded)


def test_near_miss_skip_after_the_provider_excludes_nothing(extract: Extract) -> None:
    p = extract("Serve Llama 3 8B for 200 users on RunPod, skip the warmup.")
    assert p.providers_excluded == []


# --------------------------------------------------------------------------- a question on named cards
@pytest.mark.parametrize(
    ("said", "gpu", "count"),
    [
        # v12: the verb takes the model, not "it"/"this"
        (
            "Could two H200s serve Qwen2.5 72B in bf16 for 64 concurrent users with a 16k context each?",
            "h200",
            2,
        ),
        ("Can 4x L40S run Llama 3 70B in 4-bit for 20 users?", "l40s", 4),
        ("Could 2 H100s host Mistral Nemo 12B for 300 users at 40 tok/s?", "h100-sxm", 2),
    ],
)
def test_a_question_whose_verb_takes_the_model_is_a_claim(
    extract: Extract, said: str, gpu: str, count: int
) -> None:
    p = extract(said)
    assert (p.claimed_gpu, p.claimed_gpu_count, p.gpus_wanted) == (gpu, count, [])


@pytest.mark.parametrize(
    ("said", "gpu", "count"),
    [
        ("Is it also possible with RTX 4090?", "rtx-4090", 1),  # v12 non-native German
        ("Would it be feasible on 2 A100s?", "a100-80gb-sxm", 2),
        ("Is this doable with just an L40S?", "l40s", 1),
    ],
)
def test_possible_with_named_cards_is_a_claim(extract: Extract, said: str, gpu: str, count: int) -> None:
    p = extract("QLoRA of Gemma 2 27B on 85k samples of 900 tokens, 3 epochs. " + said)
    assert (p.claimed_gpu, p.claimed_gpu_count) == (gpu, count)


@pytest.mark.parametrize(
    "said",
    [
        "We will serve Qwen2.5 72B on two H200s for 64 users.",  # a plan, no question
        "Serve Llama 3 8B for 50 users. Could H100s run out of memory at 32k context?",  # a risk asked
        "QLoRA of Gemma 2 27B. It is possible with RTX 4090 according to the blog.",  # said, not asked
    ],
)
def test_near_miss_a_plan_or_a_risk_is_no_claim(extract: Extract, said: str) -> None:
    assert extract(said).claimed_gpu is None


# --------------------------------------------------------------------------- the owned count corrected
@pytest.mark.parametrize(
    ("first", "correction", "count"),
    [
        (  # v14 multi-turn
            "We've got 8 RTX 4090s across two workstations (4 each) in the office, bought last year.",
            "Correction: it's 6 now, two of them died last week. The job: QLoRA of Qwen2.5 32B, 150M tokens.",
            6,
        ),
        ("We own 4 A100 80GB in our rack.", "Actually we have only 3 left, one went back for RMA.", 3),
        ("We own 8 H100s.", "Sorry, it's sixteen now, we got the second node.", 16),
    ],
)
def test_a_corrected_owned_count_is_the_count_left(
    extract: Extract, first: str, correction: str, count: int
) -> None:
    assert extract(correction, extract(first)).owned_gpu_count == count


def test_near_miss_now_inside_a_clause_is_no_recount(extract: Extract) -> None:
    prior = extract("We own 8 H100s.")
    p = extract("Full fine-tune Llama 3 8B on 1B tokens, it's 3 now that matters most.", prior)
    assert p.owned_gpu_count == 8


# --------------------------------------------------------------------------- GPU names said in words
@pytest.mark.parametrize(
    ("said", "gpu"),
    [
        ("on h one hundreds please that's what we have quota for period", "h100-sxm"),  # v12 dictated
        ("we can only get h two hundred nodes from the cloud team", "h200"),
        ("serve it on l forty s cards only", "l40s"),
    ],
)
def test_a_gpu_said_in_words_is_read(extract: Extract, said: str, gpu: str) -> None:
    assert gpu in extract("fine tune llama 3.1 8b with lora on 100M tokens, " + said).gpus_wanted


def test_near_miss_a_one_hundred_is_plain_english(extract: Extract) -> None:
    p = extract("fine tune llama 3.1 8b with lora on 100M tokens, we have a one hundred page spec.")
    assert p.gpus_wanted == []
