"""More ways a two-part request introduces its second part (issue 12; advisor/extract/workloads.py,
second_workload.py, steps.py): a letter without its opening parenthesis ("A) ... B) ..."), a purchase
order's "Line 1 / Line 2", "after it's trained we serve it", "afterwards it powers the widget", a table row
whose first cell is the job said as an action, and a training clause inside the serving sentence ("...,
and every week we want to LoRA-refresh it"). Each phrasing: the eval's wording and two of our own; the
second part's numbers stay in it. Near misses (one workload said twice, an evaluation after training, a
serving-only message where "it powers" a widget) stay one workload."""

from __future__ import annotations

import pytest

from advisor.extract.base import merge_findings
from advisor.extract.rules import RulesExtractor
from tools.profile import WorkloadProfile


def _parts(rules: RulesExtractor, text: str) -> tuple[WorkloadProfile, WorkloadProfile]:
    a = rules.analyse(text)
    return merge_findings(None, a.findings), merge_findings(None, a.other)


@pytest.mark.parametrize(
    "text",
    [
        # evals/cases_v12 two_workloads (v12-two-sft-then-serve-eu-serving-only), shortened
        "Two phases, please size A first.\nA) Full SFT of Llama 3.1 8B on 400M tokens, 3 epochs.\n"
        "B) Serve the result: peak 60 concurrent, 1k tokens in / 250 out. Serving must be EU only.",
        # our own: lower-case letters, the second after a full stop on the same line
        "a) Full SFT of Llama 3.1 8B on 400M tokens, 3 epochs. b) Then serve it: peak 60 concurrent, "
        "1k tokens in / 250 out, EU only for the serving.",
        "Plan:\nA) full fine-tune, Llama 3.1 8B, 400M tokens, 3 epochs\nB) serve it to 60 concurrent users, "
        "1k tokens in / 250 out; serving must be EU only",
    ],
)  # fmt: skip
def test_letters_without_an_opening_parenthesis_open_the_steps(rules: RulesExtractor, text: str) -> None:
    train, serve = _parts(rules, text)
    assert train.workload == "fine_tuning" and train.dataset_tokens == 400e6 and train.epochs == 3
    assert train.concurrency is None and train.eu_only is not True  # the serving part's, not the training's
    assert serve.workload == "inference" and serve.concurrency == 60 and serve.output_tokens == 250
    assert serve.eu_only is True and serve.model_id == "llama-3.1-8b"


@pytest.mark.parametrize(
    "text",
    [
        # evals/cases_v15 two_workloads (v15-two-po-draft-full-ft-then-batch), shortened
        "PURCHASE ORDER\nLine 1  Compute for a full fine-tune of Llama 3.1 8B on 800M tokens, 1 epoch.\n"
        "Line 2  Compute for a one-off batch job with the tuned model: generate 200M tokens within 5 days.",
        "Item 1: full fine-tune of Llama 3.1 8B on 800M tokens, 1 epoch.\n"
        "Item 2: a batch job with the tuned model that generates 200M tokens, done within 5 days.",
        "Line 1 - full fine-tune of Llama 3.1 8B, 800M tokens, 1 epoch. Line 2 - generate 200M tokens "
        "with it in a one-off batch job, finished within 5 days.",
    ],
)  # fmt: skip
def test_lines_of_an_order_are_steps(rules: RulesExtractor, text: str) -> None:
    train, job = _parts(rules, text)
    assert train.workload == "fine_tuning" and train.dataset_tokens == 800e6 and train.deadline_hours is None
    assert job.workload == "inference" and job.generation_tokens == 200e6 and job.deadline_hours == 120
    assert job.model_id == "llama-3.1-8b"


@pytest.mark.parametrize(
    ("text", "concurrency"),
    [
        # evals/cases_v15 (v15-two-imessage-full-dpo-then-serve-ttft): a chat line
        ("Full DPO on Qwen2.5 7B, 20k pairs, 2 epochs. Raj: and after it's trained we serve it to the app: "
         "~50 concurrent, first token under 500 ms", 50),
        ("LoRA on Qwen2.5 7B with 30M tokens, 2 epochs, and after that's done we deploy it for 80 "
         "concurrent users, first token under 500 ms", 80),
        # evals/cases_v12 (v12-two-orpo-gemma2-then-widget): the model powers a product
        ("ORPO on Qwen2.5 7B with 50k preference pairs, LoRA. Afterwards it powers the support widget: ~25 "
         "chats at once, first token within half a second.", 25),
        ("QLoRA on Qwen2.5 7B, 40M tokens. Then the tuned model powers our help centre bot: 120 "
         "concurrent users, first token under 0.5 s.", 120),
    ],
)  # fmt: skip
def test_after_training_serving_cues(rules: RulesExtractor, text: str, concurrency: int) -> None:
    train, serve = _parts(rules, text)
    assert train.workload == "fine_tuning" and train.concurrency is None and train.ttft_target_s is None
    assert serve.workload == "inference" and serve.concurrency == concurrency and serve.ttft_target_s == 0.5
    assert serve.model_id == train.model_id == "qwen2.5-7b"


@pytest.mark.parametrize(
    "text",
    [
        # evals/cases_v15 two_workloads (v15-two-raci-cpt-then-serve-us-not-gcp), shortened
        "| Activity | R | A |\n|---|---|---|\n| CPT of Qwen2.5 32B on 5B tokens of filings | ML | Head |\n"
        "| Serve the CPT model: 80 concurrent, <=40 ms/token | Infra | Head |\n"
        "| Constraint for both rows: US regions only, no GCP | Infra | CISO |\n",
        "| Task | Owner |\n|---|---|\n| Continued pretraining of Qwen2.5 32B on 5B tokens | ML |\n"
        "| Serving it to 80 concurrent users at 40 ms/token | Infra |\n"
        "| For both rows: US regions only, no GCP | Legal |\n",
        "| Workstream | Team | Due |\n|---|---|---|\n"
        "| Serve Qwen2.5 32B: 80 concurrent, 40 ms/token | Infra | Q1 |\n"
        "| Train it further: CPT on 5B tokens | ML | Q2 |\n"
        "| Both items: US regions only, no GCP | CISO | - |\n",
    ],
)  # fmt: skip
def test_table_rows_led_by_the_job(rules: RulesExtractor, text: str) -> None:
    train, serve = _parts(rules, text)
    assert train.workload == "continual_pretraining" and train.dataset_tokens == 5e9
    assert train.concurrency is None and train.latency_ms_per_token is None
    assert serve.workload == "inference" and serve.concurrency == 80 and serve.latency_ms_per_token == 40
    for part in (train, serve):  # said for both rows
        assert part.us_only is True and part.providers_excluded == ["gcp"]


@pytest.mark.parametrize(
    "text",
    [
        # evals/cases_v12 two_workloads (v12-two-weekly-lora-refresh-plus-serving)
        "We serve Qwen3-30B-A3B to ~100 concurrent users around the clock (about 3k tokens in, 400 out), "
        "and every week we want to LoRA-refresh it on that week's ~20M tokens of new transcripts, one "
        "epoch. How should we budget the weekly refresh? Serving stays where it is.",
        "We host Qwen3-30B-A3B for ~100 concurrent users (3k tokens in, 400 out); each month we'd like to "
        "fine-tune it on ~20M tokens of new transcripts, one epoch.",
        "We serve Qwen3-30B-A3B to 100 concurrent users, 3k tokens in and 400 out, and we also want to "
        "LoRA-train it every week on 20M tokens of transcripts, 1 epoch.",
    ],
)  # fmt: skip
def test_a_training_clause_in_the_serving_sentence(rules: RulesExtractor, text: str) -> None:
    train, serve = _parts(rules, text)
    assert train.workload == "fine_tuning" and train.dataset_tokens == 20e6 and train.epochs == 1
    assert train.concurrency is None and train.prompt_tokens is None
    assert serve.workload == "inference" and serve.concurrency == 100 and serve.prompt_tokens == 3000
    assert serve.model_id == train.model_id == "qwen3-30b-a3b"


@pytest.mark.parametrize(
    "text",
    [
        # one workload named twice: the fine-tune, then its evaluation after training
        "LoRA on Qwen2.5 7B, 30M tokens, 2 epochs. After it's trained we evaluate it on 2k prompts with "
        "64 concurrent requests.",
        # a serving-only message: the model powers a widget, nothing is trained
        "We serve Qwen2.5 7B; it powers our support widget with ~25 chats at once.",
        # a letter in the middle of a sentence is no step: "option b) is cheaper"
        "Full fine-tune of Llama 3.1 8B on 400M tokens; we think option b) is cheaper, 3 epochs.",
    ],
)  # fmt: skip
def test_near_misses_stay_one_workload(rules: RulesExtractor, text: str) -> None:
    assert not rules.analyse(text).other


@pytest.mark.parametrize(
    "text",
    [
        # evals/cases_v14 two_workloads (v14-two-gantt-lora-then-serve-eu), shortened
        "Roadmap (text export of the Gantt)\nJan W1–W3   ████            Fine-tune: LoRA on Llama 3.1 70B, "
        "85M tokens of resolved tickets, 3 epochs\nJan W4–Jun      ██████████  Serve: 250 concurrent agents, "
        "~1,500-token prompts, ~200-token answers\nConstraints (whole programme): EU only.",
        "Q1 ▓▓▓▓ Fine-tune: LoRA on Llama 3.1 70B, 85M tokens, 3 epochs\nQ2-Q4 ▓▓▓▓▓▓▓▓ Serve: 250 "
        "concurrent agents, ~1,500-token prompts, ~200-token answers.\nEverything EU only.",
        "W1-W3 ■■■ LoRA on Llama 3.1 70B (85M tokens, 3 epochs)\nW4-W52 ■■■■■■■■ serving: 250 concurrent "
        "agents, prompts ~1,500 tokens, answers ~200 tokens\nWhole plan: EU only.",
    ],
)  # fmt: skip
def test_a_gantt_bar_opens_the_serving_item(rules: RulesExtractor, text: str) -> None:
    train, serve = _parts(rules, text)
    assert train.workload == "fine_tuning" and train.dataset_tokens == 85e6 and train.epochs == 3
    assert train.concurrency is None and train.prompt_tokens is None
    assert serve.workload == "inference" and serve.concurrency == 250 and serve.prompt_tokens == 1500
    assert train.eu_only is True and serve.eu_only is True  # the whole programme's


@pytest.mark.parametrize(
    ("text", "train_required", "serve_excluded"),
    [
        # evals/cases_v14 two_workloads (v14-two-obsidian-dpo-then-beta), shortened
        ("- DPO on Qwen3 8B: 60k pairs, prompts ~250 tok, chosen ~500, rejected ~450. LoRA r=32.\n"
         "- then serve it to the beta group: 40 concurrent, ~800 in / ~400 out.\n"
         "- constraints: training on Lambda only (credits: $2,500, that's the training budget). Serving: "
         "anywhere except Vast.", ["lambda"], ["vast-ai"]),
        ("LoRA on Qwen3 8B, 80M tokens, 2 epochs, and then serve it to 40 concurrent users, 800 tokens in, "
         "400 out. The fine-tuning has to run on Lambda only. Serving: anywhere except Vast.",
         ["lambda"], ["vast-ai"]),
        # the other way round: the serving constraint said inside the training text
        ("LoRA on Qwen3 8B, 80M tokens, 2 epochs. Serving must be on AWS only. Then serve it to 40 "
         "concurrent users, 800 tokens in, 400 out.", [], []),
    ],
)  # fmt: skip
def test_constraints_said_of_one_part_stay_with_it(
    rules: RulesExtractor, text: str, train_required: list[str], serve_excluded: list[str]
) -> None:
    train, serve = _parts(rules, text)
    assert train.workload == "fine_tuning" and serve.workload == "inference" and serve.concurrency == 40
    assert train.providers_required == train_required and serve.providers_excluded == serve_excluded
    if not train_required:  # "Serving must be on AWS only", said before the serving part: the serving's
        assert serve.providers_required == ["aws"] and train.providers_required == []
    else:
        assert serve.providers_required == []


def test_a_constraint_naming_both_parts_is_shared(rules: RulesExtractor) -> None:
    # near miss: a constraint naming training and serving together belongs to both
    train, serve = _parts(
        rules,
        "LoRA on Qwen3 8B, 80M tokens, 2 epochs, and then serve it to 40 concurrent users. Training and "
        "serving both on Lambda only.",
    )
    assert train.providers_required == serve.providers_required == ["lambda"]
