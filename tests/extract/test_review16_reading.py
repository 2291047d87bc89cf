"""Expert review 16: a training set said in trillions beside "and want it done" (R16 "on 2T tokens and
want it done in 60 days", where " and" was taken for "a day", a rate), and a count question left
unpunctuated at the end of the message ("How many H100s"), each on the review's phrasing, two variants
written the way teams write, and a near miss."""

from __future__ import annotations

import pytest

from advisor.extract.rules import RulesExtractor

R16 = "pretrain a 7B model on 2T tokens and want it done in 60 days. How many H100s"


@pytest.mark.parametrize(
    "text",
    [
        R16,
        "We want to pretrain a 7B model on 2 trillion tokens and want it done in 60 days. How many H100s",
        "train a 7B model from scratch, 2 tn tokens and a 60 day window - how many H100s do we need?",
        "pretraining run: 7B params, 2000B tokens and 60 days max",
        "pre-train 7B on 2,000 billion tokens and then evaluate it, 60 days",
    ],
)
def test_a_training_set_in_trillions_is_read(text: str) -> None:
    p = RulesExtractor().extract(text)
    assert p.dataset_tokens == pytest.approx(2e12)
    assert p.params_b == pytest.approx(7.0)


def test_near_miss_a_rate_per_day_is_not_a_training_set() -> None:
    # "2T tokens a day" is a throughput, not the data set: it stays unread as dataset_tokens
    assert RulesExtractor().extract("pretrain a 7B model on 2T tokens a day").dataset_tokens is None


@pytest.mark.parametrize(
    "text",
    [
        R16,
        "pretrain a 7B model on 2T tokens in 60 days. how many H100",
        "pretrain a 7B model on 2T tokens in 60 days - how many H100s.",
    ],
)
def test_an_unpunctuated_count_question_names_the_gpu_wanted(text: str) -> None:
    p = RulesExtractor().extract(text)
    assert "h100-sxm" in p.gpus_wanted


def test_near_miss_how_many_h100s_mid_sentence_is_no_question() -> None:
    text = "pretrain a 7B model on 2T tokens in 60 days; how many H100s we own is private"
    p = RulesExtractor().extract(text)
    assert "h100-sxm" not in p.gpus_wanted


R13 = (
    "We have a 1-year AWS reservation for one p5.48xlarge (8x H100). Could it also serve Llama 3.1 70B to "
    "200 concurrent users at 15 tok/s"
)


@pytest.mark.parametrize(
    ("text", "gpu", "count", "provider"),
    [
        (R13, "h100-sxm", 8, "aws"),
        ("our reserved a3-highgpu-8g runs for another 9 months; can it serve Llama 3.1 70B to 200 users?",
         "h100-sxm", 8, "gcp"),
        ("We've got two p4de.24xlarge on a 3-year savings plan. Serve Llama 3.1 70B for 50 users?",
         "a100-80gb-sxm", 16, "aws"),
        ("We hold a reserved Standard_ND96isr_H200_v5 for the year. Serve Llama 3.1 70B for 50 users?",
         "h200", 8, "azure"),
    ],
)  # fmt: skip
def test_a_reserved_instance_type_is_held_capacity(text: str, gpu: str, count: int, provider: str) -> None:
    p = RulesExtractor().extract(text)
    assert (p.owned_gpu, p.owned_gpu_count, p.owned_provider) == (gpu, count, provider)
    assert p.owned_reserved is True


@pytest.mark.parametrize(
    "text",
    [
        "We got a quote for a 1-year reservation of a p5.48xlarge. Serve Llama 3.1 70B for 50 users?",
        "Should we take a 1-year reservation for a p5.48xlarge? Serve Llama 3.1 70B for 50 users.",
    ],
)
def test_near_miss_a_quoted_or_asked_reservation_is_not_held(text: str) -> None:
    assert RulesExtractor().extract(text).owned_gpu is None


R05 = "is it true that an H200 is 2x faster than an H100 for serving Llama 3.3 70B? ~40 concurrent users"


@pytest.mark.parametrize(
    ("text", "compared", "speedup"),
    [
        (R05, ["h200", "h100-sxm"], 2.0),
        ("our CTO says the H200 is twice as fast as the H100 for serving Llama 3.3 70B to 40 users - true?",
         ["h200", "h100-sxm"], 2.0),
        ("Vendor says B200 gives 3 times the throughput of an H100 on Llama 3.3 70B. 40 users. Right?",
         ["b200", "h100-sxm"], 3.0),
        ("Is the H200 really 50% faster than an H100 for Llama 3.3 70B serving?", ["h200", "h100-sxm"], 1.5),
    ],
)  # fmt: skip
def test_a_speed_claim_between_two_gpus_is_read(text: str, compared: list[str], speedup: float) -> None:
    p = RulesExtractor().extract(text)
    assert p.gpus_compared == compared
    assert p.claimed_speedup == pytest.approx(speedup)


@pytest.mark.parametrize(
    "text",
    [
        "is an H200 2x the price of an H100? serving Llama 3.3 70B to 40 users",  # a price, not a speed
        "serve Llama 3.3 70B to 40 users, the new build is 2x faster than the old one, on H100",  # no 2nd GPU
    ],
)
def test_near_miss_no_speed_claim_between_gpus(text: str) -> None:
    assert RulesExtractor().extract(text).claimed_speedup is None


R01 = (
    "hey, need to LoRA finetune Mistral 7B on ~40k instruction pairs (avg 800 tokens each), 3 epochs. "
    "cheapest thing that's done by tomorrow morning (~12h)? no spot pls"
)


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        (R01, 12.0),
        ("LoRA Mistral 7B on 96M tokens, needs to be ready by tonight (about 8 hours)", 8.0),
        ("LoRA Mistral 7B on 96M tokens - by tomorrow morning (12 hours from now) pls", 12.0),
    ],
)
def test_the_hours_in_brackets_win_over_a_vague_deadline(text: str, hours: float) -> None:
    p = RulesExtractor().extract(text)
    assert p.deadline_hours == pytest.approx(hours)
    assert p.status_of("deadline_hours") == "stated"


def test_near_miss_hours_of_a_past_run_are_no_deadline() -> None:
    # the bracket follows "took 3 days", not a deadline word: "by tomorrow morning" stays the deadline
    text = "LoRA Mistral 7B on 96M tokens, by tomorrow morning. The last run took 3 days (~72h)."
    p = RulesExtractor().extract(text)
    assert p.deadline_hours is not None and p.deadline_hours != pytest.approx(72.0)


@pytest.mark.parametrize(
    ("amount", "tokens"),
    [
        ("2T", 2e12),
        ("2 trillion", 2e12),
        ("1.5 tn", 1.5e12),
        ("500B", 5e11),
        ("1.5bn", 1.5e9),
        ("2,000 billion", 2e12),
    ],
)
@pytest.mark.parametrize(
    ("template", "field"),
    [
        ("continued pretraining of Llama 3.1 8B on {} tokens and we need it in 2 weeks", "dataset_tokens"),
        ("generate {} tokens with Llama 3.1 8B and deliver in a month", "generation_tokens"),
    ],
)
def test_the_amount_vocabulary_in_every_token_count(
    amount: str, tokens: float, template: str, field: str
) -> None:
    # " and ..." after the amount once read as "an" + "d" ("a day"): a rate, so no data set (review 16, R16)
    p = RulesExtractor().extract(template.format(amount))
    assert getattr(p, field) == pytest.approx(tokens)
