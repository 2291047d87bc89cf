"""Forward-pass-only batch jobs (embeddings, scoring, classification, reranking) are batch inference with
one output step per item, never fine-tuning on the items (expert review 13, R15 / P15;
advisor/extract/rules_forward_only.py); a token total is never the model's size. Near misses: training an
embedding model, a job that writes a stated output, a serving request for an embedding model's users."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    ("text", "items", "prompt"),
    [
        ("embed 200M documents with a 7B embedding model (avg 512 tokens each) in one week", 200e6, 512),
        (
            "Compute embeddings for 3 million passages, ~300 tokens each, with Qwen2.5 7B by Friday.",
            3e6,
            300,
        ),
        (
            "Rerank 5M query-document pairs (about 400 tokens each) with a 7B model over the weekend.",
            5e6,
            400,
        ),
        ("classify 40 million reviews (~120 tokens each) with Llama 3.1 8B over the weekend", 40e6, 120),
        (
            "Embedding 12M support tickets, 350 tokens per ticket, using Mistral 7B; due in 10 days.",
            12e6,
            350,
        ),
    ],
)
def test_a_forward_only_job_is_batch_inference_over_its_items(
    extract: Extract, text: str, items: float, prompt: int
) -> None:
    p = extract(text)
    assert p.workload == "inference", text
    assert p.output_tokens == 1, text
    assert p.prompt_tokens == prompt, text
    assert p.generation_tokens == pytest.approx(items), text  # one output step per item
    assert p.dataset_tokens is None and p.method is None, text


def test_a_token_total_is_read_as_the_input_not_the_model_size(extract: Extract) -> None:
    p = extract("run a 7B model forward pass only over 102B input tokens within a week")
    assert p.params_b == 7
    assert p.workload == "inference" and p.output_tokens == 1
    # 102e9 tokens / the serving default 1,000 tokens per item (tools.compute.serving_constants)
    assert p.generation_tokens == pytest.approx(102e9 / 1000)


@pytest.mark.parametrize(
    "text",
    [
        "fine-tune a 7B embedding model on 2M query-passage pairs, ~300 tokens each",
        "Train our 7B reranking model on 500M tokens of click logs by Friday.",
    ],
)
def test_training_an_embedding_model_stays_training(extract: Extract, text: str) -> None:
    p = extract(text)
    assert p.workload != "inference", text
    assert p.output_tokens is None, text


def test_a_stated_output_length_is_kept(extract: Extract) -> None:
    p = extract("Classify 30 million customer e-mails with Qwen3 8B, a ~10-token label back, by Sunday.")
    assert p.output_tokens == 10
    assert p.generation_tokens == pytest.approx(30e6 * 10)


def test_serving_an_embedding_model_to_users_is_not_a_batch(extract: Extract) -> None:
    p = extract("Serve a 7B embedding model to 300 concurrent users, US only.")
    assert p.generation_tokens is None and p.output_tokens is None
