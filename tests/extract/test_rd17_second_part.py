"""The second workload of a two-part request written the general ways (rd17): an ordinal pair ("First,
... Second, ...") whose second item is a one-off batch job over records already there, and a Markdown table
with one column per part ("| Area | Training | Serving |"); each with a near miss that stays one workload."""

from __future__ import annotations

import pytest

from advisor.extract.base import merge_findings
from advisor.extract.rules import RulesExtractor
from advisor.extract.table_parts import part_columns
from tools.profile import WorkloadProfile


def _parts(rules: RulesExtractor, text: str) -> tuple[WorkloadProfile, WorkloadProfile]:
    a = rules.analyse(text)
    return merge_findings(None, a.findings), merge_findings(None, a.other)


SERVING = "First, the assistant in production: Llama 3.1 8B, 80 users at the same time, 2k context. "


@pytest.mark.parametrize(
    "second",
    [
        "Second, one time only: summarise our 400,000 old tickets, each summary about 600 tokens.",
        "Secondly: a one-off backfill of 400,000 archived e-mails, about 600 tokens of summary each.",
        "(2) summarise our 400,000 past tickets, each summary ~600 tokens.",
    ],
)
def test_the_second_of_an_ordinal_pair_is_the_batch_job(rules: RulesExtractor, second: str) -> None:
    serve, job = _parts(rules, SERVING + second)
    assert serve.workload == "inference" and serve.concurrency == 80 and serve.generation_tokens is None
    assert job.workload == "inference" and job.output_tokens == 600 and job.generation_tokens == 240e6
    assert job.concurrency is None


def test_a_second_point_with_no_job_of_its_own_stays_one_workload(rules: RulesExtractor) -> None:
    serve, job = _parts(rules, SERVING + "Second, the data must stay in the EU.")
    assert serve.concurrency == 80 and job.workload is None


TABLE = """## Requirements

| Area      | Training                      | Serving                                  |
|-----------|-------------------------------|------------------------------------------|
| Model     | Mistral NeMo 12B              | the fine-tuned Mistral NeMo 12B          |
| Method    | LoRA, rank 16                 | –                                        |
| Data      | 45M tokens of tickets, 3 epochs | –                                      |
| Load      | –                             | 90 concurrent agents; prompts ~2,500 tokens, answers ~300 |
"""


def test_a_table_with_a_column_per_part_splits_its_facts(rules: RulesExtractor) -> None:
    train, serve = _parts(rules, TABLE)
    assert train.workload == "fine_tuning" and train.dataset_tokens == 45e6 and train.epochs == 3
    assert train.concurrency is None and train.prompt_tokens is None
    assert serve.workload == "inference" and serve.concurrency == 90
    assert (serve.prompt_tokens, serve.output_tokens) == (2500, 300)


@pytest.mark.parametrize(
    "table",
    [
        "| GPU | Qty | Owned |\n|---|---|---|\n| A100 80GB | 4 | yes |\n",
        "| Item | Option A | Option B |\n|---|---|---|\n| GPUs | 8x H100 | 16x A100 |\n",
        "| Area | Training | Notes |\n|---|---|---|\n| Model | Llama 3.1 8B | - |\n",
    ],
)
def test_a_table_without_a_column_per_part_is_left_as_it_is(table: str) -> None:
    assert part_columns(table) == table
