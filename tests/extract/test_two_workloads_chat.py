"""Two workloads in one chat message, without headings (issue 12): "fine-tune X on Y and then serve it to
Z users" gives the training profile and the serving part as the other workload."""

from __future__ import annotations

import pytest

from advisor.extract.base import merge_findings
from advisor.extract.rules import RulesExtractor


@pytest.mark.parametrize(
    ("text", "concurrency"),
    [
        ("We want to LoRA fine-tune Llama 3 8B on 20M tokens and then serve it to 200 concurrent users.",
         200),
        ("QLoRA Qwen2.5 14B on 40M tokens. Afterwards we'll deploy it for 300 concurrent agents.", 300),
        ("Fine-tune Llama 3 8B with LoRA on 10M tokens, then host it for 50 concurrent users.", 50),
        ("LoRA Llama 3 8B on 10M tokens; once it's trained, serve it to 80 concurrent users.", 80),
    ],
)  # fmt: skip
def test_train_then_serve_is_two_workloads(rules: RulesExtractor, text: str, concurrency: int) -> None:
    a = rules.analyse(text)
    train, serve = merge_findings(None, a.findings), merge_findings(None, a.other)
    assert train.workload == "fine_tuning" and train.dataset_tokens is not None, text
    assert train.concurrency is None  # the users are the serving part's
    assert serve.workload == "inference" and serve.concurrency == concurrency, text
    assert serve.model_id == train.model_id  # it serves the model the training part adapts


def test_section_numbers_stay_with_their_part(rules: RulesExtractor) -> None:
    a = rules.analyse(
        "LoRA Llama 3 8B on 20M tokens with 2k sequences and then serve it to 200 concurrent users "
        "at 8k context."
    )
    train, serve = merge_findings(None, a.findings), merge_findings(None, a.other)
    assert train.seq_len == 2048 and serve.context_len == 8192


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama 3 8B to 100 concurrent users.",
        "LoRA Llama 3 8B on 10M tokens so we can serve it later.",  # no serving facts: one workload
        "We serve 100 users today and want to LoRA Llama 3 8B on 10M tokens.",  # serving comes first
    ],
)
def test_one_workload_messages_stay_one(rules: RulesExtractor, text: str) -> None:
    assert rules.analyse(text).other == (), text
