"""A many-column Markdown table's data cells read with their column's name (advisor/extract/table_columns.py;
issue 12, table layout, evals v13 development case): the failing table, two variants with other columns,
and near misses (a hardware listing and a two-column key/value table stay as they were)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.table_columns import column_tables
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]

WIKI = (
    "Jobs queued for December\n\n"
    "| job                        | model         | items     | tokens out / item | due    |\n"
    "|----------------------------|---------------|-----------|-------------------|--------|\n"
    "| synthetic QA for ablation  | Llama 3.1 8B  | 5,000,000 | 150               | Dec 10 |\n"
)


def test_wiki_job_table_reads_volume_and_deadline(extract: Extract) -> None:
    p = extract(WIKI)
    assert p.model_id == "llama-3.1-8b"
    assert p.output_tokens == 150
    assert p.generation_tokens == pytest.approx(750e6)
    assert p.deadline_hours is not None  # "due Dec 10": a deadline once the column names it


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("| task | LLM | documents | output tokens each |\n|---|---|---|---|\n"
         "| summarise tickets | Qwen2.5 7B | 2M | 120 |\n", 240e6),
        ("Queue:\n| what | which model | prompts | tokens out / item | note |\n"
         "| :-- | :-- | --: | --: | :-- |\n"
         "| eval sweep | Mistral 7B | 40,000 | 500 | - |\n", 20e6),
    ],
)  # fmt: skip
def test_other_job_tables(extract: Extract, text: str, tokens: float) -> None:
    assert extract(text).generation_tokens == pytest.approx(tokens)


def test_cells_take_their_column_names() -> None:
    out = column_tables(WIKI)
    assert "| 5,000,000 items | 150 tokens out / item | due Dec 10 |" in out
    assert out.splitlines()[2] == WIKI.splitlines()[2]  # the header row stays


@pytest.mark.parametrize(
    "table",
    [
        "| host | gpu | count | status |\n|---|---|---|---|\n| gpu-a | H100 SXM | 8 | in service |\n",
        "| Epochs | 2 |\n|---|---|\n| Seq len | 4096 |\n",
    ],
)
def test_near_miss_hardware_and_key_value_tables_stay(table: str) -> None:
    assert column_tables(table) == table
