"""The second workload of a request, however it is signalled (issue 12; advisor/extract/second_workload.py
and the cues in advisor/extract/workloads.py). Own phrasings, written the way teams write, and near misses
that must stay one workload."""

from __future__ import annotations

import pytest

from advisor.extract.base import merge_findings
from advisor.extract.rules import RulesExtractor
from tools.profile import WorkloadProfile

TRAIN_THEN_SERVE = [
    # sequence word plus a plain "we" and a present-tense serving verb
    (
        "LoRA on Llama 3.1 8B, 40M tokens of support chats, 2 epochs. Then we serve it to our agents, about "
        "60 concurrent.",
        60,
    ),
    ("Full fine-tune of Qwen2.5 7B over 200M tokens. After that we host it for ~25 concurrent lawyers.", 25),
    # non-native phrasing: "After, we will put it for ..."
    (
        "We want to train (QLoRA) Mistral 7B on 15 millions tokens. After, we will put it for our customers, "
        "maybe 30 concurrent.",
        30,
    ),
    ("QLoRA Gemma 2 9B on 10M tokens, 3 epochs; then we roll it out to the sales team, 45 concurrent.", 45),
]


@pytest.mark.parametrize(("text", "concurrency"), TRAIN_THEN_SERVE)
def test_train_then_serve_with_plain_we(rules: RulesExtractor, text: str, concurrency: int) -> None:
    a = rules.analyse(text)
    train, serve = merge_findings(None, a.findings), merge_findings(None, a.other)
    assert train.workload in ("fine_tuning", "continual_pretraining"), text
    assert train.concurrency is None, text  # the users are the serving part's
    assert serve.workload == "inference" and serve.concurrency == concurrency, text
    assert serve.model_id == train.model_id is not None, text


def test_use_the_tuned_model_to_label_is_a_batch_part(rules: RulesExtractor) -> None:
    a = rules.analyse("First a LoRA fine-tune of Llama 3.2 3B on 50M tokens. Then we use the tuned model to "
                      "classify 10M support emails, about 200 tokens in and 5 tokens out.")  # fmt: skip
    train, job = merge_findings(None, a.findings), merge_findings(None, a.other)
    assert train.workload == "fine_tuning" and train.output_tokens is None
    assert job.workload == "inference" and job.model_id == train.model_id and job.output_tokens == 5


@pytest.mark.parametrize(
    ("text", "runs_low", "runs_high"),
    [
        ("We serve Llama 3.1 8B to ~120 concurrent users, 1k in / 200 out, 24/7. On top of that, every "
         "night we summarise the day's 500k tickets with the same model (~80 output tokens each).", 28, 31),
        ("Main workload: Qwen2.5 14B behind our API, ~50 concurrent, 24/7. Side job: every Monday we "
         "re-score 100k documents with it, ~30 output tokens each, must finish within 3 hours.", 4, 4.4),
        ("Our assistant serves Mistral 7B to 80 concurrent staff. Separately, each night we regenerate "
         "200k product descriptions (~120 tokens each).", 28, 31),
    ],
)  # fmt: skip
def test_nightly_batch_beside_an_endpoint(
    rules: RulesExtractor, text: str, runs_low: float, runs_high: float
) -> None:
    a = rules.analyse(text)
    serve, job = merge_findings(None, a.findings), merge_findings(None, a.other)
    assert serve.workload == "inference" and serve.concurrency is not None, text
    assert serve.generation_tokens is None and serve.runs_per_month is None, text  # the job's
    assert job.workload == "inference" and job.model_id == serve.model_id is not None, text
    assert job.generation_tokens is not None and job.concurrency is None, text
    assert job.runs_per_month is not None and runs_low <= job.runs_per_month <= runs_high, text


def test_job_deadline_stays_with_the_job(rules: RulesExtractor) -> None:
    a = rules.analyse("We host Phi-4 for 40 concurrent analysts. Plus a weekly batch: 2M short answers "
                      "(~50 tokens each) that has to be done within 5 hours.")  # fmt: skip
    serve, job = merge_findings(None, a.findings), merge_findings(None, a.other)
    assert serve.deadline_hours is None and job.deadline_hours == 5


def test_serve_now_train_later(rules: RulesExtractor) -> None:
    a = rules.analyse(
        "For now we only need to host Llama 3.1 8B for ~30 internal users, 8k context. Next "
        "quarter we'll also fine-tune it with LoRA on ~50M tokens of our docs, 2 epochs."
    )
    train, serve = merge_findings(None, a.findings), merge_findings(None, a.other)
    assert train.workload == "fine_tuning" and train.dataset_tokens == 50e6 and train.concurrency is None
    assert serve.workload == "inference" and serve.concurrency == 30 and serve.model_id == train.model_id


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("Everything has to stay in the EU. QLoRA Llama 3.1 8B on 20M tokens, then serve it to 40 concurrent "
         "users.", "eu_only", True),
        ("LoRA Llama 3.1 8B on 20M tokens, then serve it to 40 concurrent users. No spot instances.",
         "pricing_excluded", ["spot"]),
        ("Continued pretraining of Qwen2.5 7B on 2B tokens, after that we serve it to 100 concurrent users. "
         "Both phases must run in US regions.", "us_only", True),
    ],
)  # fmt: skip
def test_request_wide_constraints_go_to_both_parts(
    rules: RulesExtractor, text: str, field: str, value: object
) -> None:
    a = rules.analyse(text)
    train, serve = merge_findings(None, a.findings), merge_findings(None, a.other)
    assert getattr(train, field) == value and getattr(serve, field) == value, text


def test_a_constraint_for_one_part_stays_with_it(rules: RulesExtractor) -> None:
    a = rules.analyse(
        "We serve Gemma 2 9B to 60 concurrent users, no spot for this part. On top of that, "
        "every night we label 1M rows (~20 output tokens each). Spot is fine for that one."
    )
    serve, job = merge_findings(None, a.findings), merge_findings(None, a.other)
    assert serve.pricing_excluded == ["spot"] and job.pricing_excluded == []


def test_a_turn_that_continues_a_training_plan(rules: RulesExtractor) -> None:
    prior = rules.extract("Full fine-tune of Mistral NeMo 12B on 500M tokens, seq 8192.")
    a = rules.analyse("After that we'd serve it to ~90 concurrent users with 2k prompts.", prior)
    merged, serve = merge_findings(prior, a.findings), merge_findings(None, a.other)
    assert merged.workload == "fine_tuning" and merged.concurrency is None
    assert serve.workload == "inference" and serve.concurrency == 90 and serve.model_id == prior.model_id


@pytest.mark.parametrize(
    "text",
    [
        # serving named in passing, or only later and unsized
        "LoRA Llama 3.1 8B on 30M tokens; we'll serve it later, size only the training now.",
        "Fine-tune Qwen2.5 7B on 100M tokens so our chatbot answers better.",
        # one endpoint whose users are also mentioned in passing
        "Serve Llama 3.1 70B to 200 concurrent users; we also log every night for audits.",
        # a recurring word inside one batch job, no endpoint before it
        "Every night we also re-score 300k conversations with Llama 3.1 8B, ~60 output tokens each.",
        # an endpoint and a training plan in one sentence, serving first (kept as one, as before)
        "We serve 100 users today and want to LoRA Llama 3 8B on 10M tokens.",
    ],
)
def test_near_misses_stay_one_workload(rules: RulesExtractor, text: str) -> None:
    assert rules.analyse(text).other == (), text


def test_a_new_request_in_a_later_turn_is_not_the_plan_step(rules: RulesExtractor) -> None:
    prior = rules.extract("Full fine-tune of Mistral 7B on 200M tokens.")
    a = rules.analyse("Serve Llama 3.1 70B to 50 concurrent users.", prior)
    assert a.other == () and merge_findings(WorkloadProfile(), a.findings).workload == "inference"


# --------------------------------------------------------------------------- rd12: the second part's lengths
def test_a_batch_of_any_counted_thing_beside_serving(rules: RulesExtractor) -> None:
    # "blurbs" is no word the rules list: the size after it ("~70 tokens each") says it is counted output
    a = rules.analyse(
        "We serve Mistral 7B inside our app: ~90 concurrent, 800 tokens in / 250 out, 24/7. On top of that, "
        "every Sunday night we regenerate ~1.2M product blurbs (~70 tokens each) with the same model, "
        "and that job must be done within 6 hours."
    )
    serve, job = merge_findings(None, a.findings), merge_findings(None, a.other)
    assert job.generation_tokens == pytest.approx(84e6) and job.output_tokens == 70
    assert job.deadline_hours == 6 and serve.generation_tokens is None


def test_a_hosting_section_with_context_per_conversation_and_each_users_speed(rules: RulesExtractor) -> None:
    a = rules.analyse(
        "2. Adaptation\nBase model: Llama 3.1 70B\nMethod: LoRA, rank 64\nData: 2.5 billion tokens\n\n"
        "3. Hosting\nPeak traffic: about 500 shoppers chatting at the same time\n"
        "Context per conversation: 8,192 tokens\n"
        "Each shopper should see text at 30 tokens per second or faster\n"
    )
    serve = merge_findings(None, a.other)
    assert serve.context_len == 8192
    assert serve.latency_ms_per_token == pytest.approx(1000 / 30)  # each one's speed, not the total


def test_every_night_is_not_each_user(rules: RulesExtractor) -> None:
    said = "Batch: every night the job should run at 3000 tokens per second."
    p = merge_findings(None, rules.analyse(said).findings)
    assert p.latency_ms_per_token is None


def test_a_size_in_brackets_that_is_not_output_is_not_a_batch(rules: RulesExtractor) -> None:
    p = merge_findings(None, rules.analyse("We own 3 GPUs (80 GB each) and serve Llama 3.1 8B.").findings)
    assert p.generation_tokens is None
