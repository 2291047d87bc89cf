"""Which words belong to which workload when a request holds two (advisor/extract/workloads.py,
second_workload.py, brief_text.heading_kind): a part's name alone on its line above its bullets, the model
as the subject of the serving verb ("it will be served", "goes live"), a second job beside the training one
("In parallel we also need to generate ..."), "We also need a batch job" beside a serving workload, and a
numbered step that states a quantity. Each fact must stay in its own part; near misses stay one workload."""

from __future__ import annotations

import pytest

from advisor.extract.base import merge_findings
from advisor.extract.brief_text import heading_kind
from advisor.extract.rules import RulesExtractor
from tools.profile import WorkloadProfile


def _parts(rules: RulesExtractor, text: str) -> tuple[WorkloadProfile, WorkloadProfile]:
    a = rules.analyse(text)
    return merge_findings(None, a.findings), merge_findings(None, a.other)


@pytest.mark.parametrize(
    "text",
    [
        "Training:\n- LoRA on Mistral 7B, 20M tokens, 2 epochs\nInference:\n- 150 concurrent users, 16k "
        "context window\n- we need it for 6 months",
        "**Fine-tuning:**\n* LoRA on Mistral 7B, 20M tokens, 2 epochs\n**Serving side:**\n* 150 concurrent "
        "users, 16k context window\n* we need it for 6 months",
    ],
)  # fmt: skip
def test_part_names_alone_on_their_lines_open_the_parts(rules: RulesExtractor, text: str) -> None:
    train, serve = _parts(rules, text)
    assert train.workload == "fine_tuning" and train.dataset_tokens == 20e6 and train.epochs == 2
    # the serving context is not the training sequence; the users and the months are the serving part's
    assert train.seq_len is None and train.concurrency is None and train.horizon_months is None
    assert serve.workload == "inference" and serve.concurrency == 150 and serve.context_len == 16384
    assert serve.horizon_months == 6 and serve.model_id == train.model_id == "mistral-7b-v0.3"


def test_a_colon_line_naming_no_part_is_no_heading() -> None:
    assert heading_kind("Inference:") == "serving" and heading_kind("Training:") == "training"
    assert heading_kind("Notes:") is None  # the section above goes on
    assert heading_kind("2. Serving") == "serving"  # a numbered heading still is one
    # a numbered step that states a quantity is a step, not a heading
    assert heading_kind("1) LoRA fine-tune Llama 3.1 8B on 60M tokens") is None


@pytest.mark.parametrize(
    ("text", "concurrency", "context_len", "horizon_months"),
    [
        ("First we fine-tune Llama 3 8B with LoRA on 30M tokens. Afterwards the model goes live for about "
         "400 users at once, context 4k, and we'd run it for a year.", 400, 4096, 12),
        ("We fine-tune Mistral 7B on 80M tokens (batch size 64). After that it will be served with 32 "
         "concurrent requests and 8192 tokens of context for 18 months.", 32, 8192, 18),
        ("QLoRA of Qwen2.5 7B on 12M tokens, 2 epochs. Then the tuned model is deployed for 75 concurrent "
         "agents with an 8k context window.", 75, 8192, None),
    ],
)  # fmt: skip
def test_the_model_as_subject_of_the_serving_verb(
    rules: RulesExtractor, text: str, concurrency: int, context_len: int, horizon_months: float | None
) -> None:
    train, serve = _parts(rules, text)
    assert train.workload == "fine_tuning" and train.dataset_tokens is not None, text
    assert train.concurrency is None and train.seq_len is None and train.horizon_months is None, text
    assert serve.workload == "inference" and serve.concurrency == concurrency, text
    assert serve.context_len == context_len and serve.horizon_months == horizon_months, text
    assert serve.batch_size is None, text  # the training's batch size stays with the training


def test_a_generation_job_in_parallel_keeps_its_volume_and_deadline(rules: RulesExtractor) -> None:
    text = ("We need to fine-tune Qwen2.5 14B on 100M tokens. In parallel we also need to generate 500M "
            "tokens of synthetic data with Llama 3.1 70B within 2 weeks.")  # fmt: skip
    train, job = _parts(rules, text)
    assert train.model_id == "qwen2.5-14b" and train.dataset_tokens == 100e6
    assert train.generation_tokens is None and train.deadline_hours is None
    assert job.workload == "inference" and job.model_id == "llama-3.1-70b"
    assert job.generation_tokens == 500e6 and job.deadline_hours == 336


def test_running_batch_inference_beside_a_fine_tune(rules: RulesExtractor) -> None:
    train, job = _parts(rules, "We're doing two things: fine-tuning Mistral 7B (QLoRA, 25M tokens, 3 epochs) "
                        "and running batch inference with Llama 3.1 70B over 1M prompts, 500 output tokens "
                        "each.")  # fmt: skip
    assert train.model_id == "mistral-7b-v0.3" and train.output_tokens is None
    assert job.model_id == "llama-3.1-70b" and job.output_tokens == 500 and job.generation_tokens == 500e6


def test_we_also_need_a_batch_job_beside_serving(rules: RulesExtractor) -> None:
    serve, job = _parts(rules, "We serve Llama 3.1 8B to 300 concurrent users, 8k context. We also need a "
                        "one-off batch job to generate 2B tokens of synthetic data with Llama 3.1 70B within "
                        "2 weeks.")  # fmt: skip
    assert serve.model_id == "llama-3.1-8b" and serve.concurrency == 300 and serve.generation_tokens is None
    assert job.model_id == "llama-3.1-70b" and job.generation_tokens == 2e9 and job.concurrency is None


def test_numbered_steps_with_quantities_are_steps(rules: RulesExtractor) -> None:
    train, job = _parts(rules, "1) LoRA fine-tune Llama 3.1 8B on 60M tokens\n2) offline generation of 100M "
                        "tokens with Llama 3.1 70B for evaluation")  # fmt: skip
    assert train.model_id == "llama-3.1-8b" and train.dataset_tokens == 60e6
    assert job.model_id == "llama-3.1-70b" and job.generation_tokens == 100e6
    assert job.output_tokens is None  # "100M tokens" is the job's volume, not 100 tokens per answer


@pytest.mark.parametrize(
    "text",
    [
        # the base model hosted somewhere is where it comes from, not a serving part
        "We fine-tune Llama 3.1 8B on 20M tokens; the base model is hosted on Hugging Face. 2 epochs.",
        # "in parallel" about the training itself: no second job
        "LoRA on Llama 3.1 8B over 30M tokens. In parallel we also need to run the eval suite on 8 GPUs.",
        # a past deployment is history, with no serving facts of its own
        "Full fine-tune of Qwen2.5 7B on 50M tokens, 3 epochs. Afterwards the model goes live.",
    ],
)  # fmt: skip
def test_near_misses_stay_one_workload(rules: RulesExtractor, text: str) -> None:
    train, other = _parts(rules, text)
    assert train.workload == "fine_tuning" and other == WorkloadProfile(), text


@pytest.mark.parametrize(
    ("text", "serving_side"),
    [
        ("Serving side we need Llama 3.1 70B for ~200 concurrent chats at 8k context. Training side: "
         "monthly LoRA refresh on 50M new tokens.", True),
        ("Training part - QLoRA Llama 3.1 70B on 30M tokens, 8k sequences. Serving part - 40 concurrent "
         "users, 32k context, for two years.", False),
    ],
)  # fmt: skip
def test_part_words_with_their_noun_and_no_colon(
    rules: RulesExtractor, text: str, serving_side: bool
) -> None:
    a = rules.analyse(text)
    train, serve = merge_findings(None, a.findings), merge_findings(None, a.other)
    assert train.workload == "fine_tuning" and train.method in ("lora", "qlora") and train.concurrency is None
    assert serve.workload == "inference" and serve.concurrency in (200, 40)
    assert train.seq_len != serve.context_len  # the serving window is not the training sequence
    if not serving_side:
        assert serve.horizon_months == 24 and train.horizon_months is None


def test_table_rows_named_by_their_workload(rules: RulesExtractor) -> None:
    text = ("| Phase | Model | Details |\n|---|---|---|\n"
            "| Fine-tune | Qwen2.5 7B | QLoRA, 20M tokens, 3 epochs |\n"
            "| Batch generation | Qwen2.5 72B | 400M output tokens in 10 days |")  # fmt: skip
    train, job = _parts(rules, text)
    assert train.model_id == "qwen2.5-7b" and train.dataset_tokens == 20e6 and train.deadline_hours is None
    assert job.model_id == "qwen2.5-72b" and job.generation_tokens == 400e6 and job.deadline_hours == 240
    assert job.prompt_tokens is None  # "tokens in 10 days" is a deadline, not a 10-token prompt


def test_job_a_job_b_steps_and_the_data_the_first_writes(rules: RulesExtractor) -> None:
    train, job = _parts(rules, "Job A: distil Llama 3.1 405B into 8B: generate 1.5 billion tokens of teacher "
                        "outputs. Job B: full fine-tune the 8B on those outputs, 2 epochs.")  # fmt: skip
    assert train.workload == "fine_tuning" and train.method == "full" and train.epochs == 2
    assert train.dataset_tokens == 1.5e9  # inferred: the generation job's output
    assert job.model_id == "llama-3.1-405b" and job.generation_tokens == 1.5e9 and job.epochs is None


@pytest.mark.parametrize(
    "text",
    [
        "We fine-tune Llama 3.1 8B with LoRA on 40M tokens, then serve it on 4k context for 60 concurrent "
        "users; we expect the serving to run for 9 months.",
        "LoRA-tune Mistral 7B on our 5M-token FAQ set, afterwards deploy it behind our API for 60 concurrent "
        "users. Keep it running 9 months.",
        "We'll fine-tune Gemma 2 9B on 60M tokens. Once done, the model will be used by 60 agents at the "
        "same time, for 9 months.",
    ],
)  # fmt: skip
def test_how_long_the_service_runs_is_the_serving_horizon(rules: RulesExtractor, text: str) -> None:
    train, serve = _parts(rules, text)
    assert serve.horizon_months == 9 and serve.concurrency == 60, text
    assert train.horizon_months is None, text


def test_training_that_runs_for_months_is_no_horizon(rules: RulesExtractor) -> None:
    p = rules.extract("Pretraining a 1B model on 20B tokens; the training run for 3 months on our cluster.")
    assert p.horizon_months is None


def test_a_generation_step_first_and_the_training_on_its_output(rules: RulesExtractor) -> None:
    text = ("Phase 1: generate synthetic data with Llama 3.1 70B - 2M samples x 500 tokens. Phase 2: "
            "fine-tune Llama 3.1 8B on it.")  # fmt: skip
    train, job = _parts(rules, text)
    # the profile is the training step, though the generation step comes first and its volume reads as data
    assert train.workload == "fine_tuning" and train.model_id == "llama-3.1-8b"
    assert train.dataset_tokens == 1e9  # inferred: what the generation step writes
    assert job.workload == "inference" and job.model_id == "llama-3.1-70b" and job.generation_tokens == 1e9


def test_translating_with_the_tuned_model_is_a_batch_part(rules: RulesExtractor) -> None:
    train, job = _parts(rules, "Fine-tune Mistral 7B on 30M tokens. After that we'll run a one-off batch to "
                        "translate 1.2 billion tokens of docs with it.")  # fmt: skip
    assert train.dataset_tokens == 30e6 and train.generation_tokens is None
    assert job.workload == "inference" and job.generation_tokens == 1.2e9 and job.model_id == train.model_id


def test_a_translation_volume_lies_in_its_sentence(rules: RulesExtractor) -> None:
    text = "Some background first. Then translate 1.2 billion tokens of docs into German."
    gen = next(f for f in rules.analyse(text).findings if f.field == "generation_tokens")
    assert text.index("Then") <= gen.position < len(text)  # not offset twice


def test_a_bare_batch_after_a_cue_opens_no_part(rules: RulesExtractor) -> None:
    # "a batch of 16 sequences" is the training's own batch, not a job: a job needs its noun or "run"
    text = "QLoRA Llama 3 8B on 20M tokens, 2 epochs. Next, a batch of 16 sequences at 4k context per step."
    train, other = _parts(rules, text)
    assert train.dataset_tokens == 20e6 and train.seq_len == 4096 and other == WorkloadProfile()
