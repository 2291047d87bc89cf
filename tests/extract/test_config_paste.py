"""A pasted config block (YAML / TOML / key = value), as teams paste their training config: its snake_case
keys read as words, a bracketed list as a list, and "tokens: 40B" as the data's size (evals v13, retired to
development: "exclude_providers: [runpod, vast]" was read as providers REQUIRED, "tokens: 40B" as a 40B
model, and "stage: continued_pretraining" not at all)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.rules_text import clean
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]

CONFIG = """# configs/cpt_finance.yaml
model: meta-llama/Llama-3.1-8B
stage: continued_pretraining
data:
  tokens: 40B            # SEC filings + earnings-call transcripts
  seq_len: 8192
train:
  epochs: 1
infra:
  exclude_providers: [runpod]
  max_gpus: 64
"""


def test_a_pasted_config_is_read_key_by_key(extract: Extract) -> None:
    p = extract(CONFIG)
    assert p.workload == "continual_pretraining" and p.model_id == "llama-3.1-8b"
    assert p.params_b == pytest.approx(8.0, rel=0.05)  # the catalog's, not the "40B" of the tokens key
    assert p.dataset_tokens == 40e9 and p.seq_len == 8192 and p.max_gpus == 64
    assert p.providers_required == [] and "runpod-secure" in p.providers_excluded


def test_the_normaliser_keeps_lengths_and_leaves_prose_and_paths_alone() -> None:
    text = "output_dir: /runs/llama_8b\nWe use snake_case words in prose.\nlist: [a, b]\n"
    out = clean(text)
    assert len(out) == len(text)
    assert "output dir: /runs/llama_8b" in out  # a path keeps its underscores
    assert "snake_case" in out  # not a key line
    assert "list:  a, b " in out


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("LoRA on Llama 3 8B.\ntrain_tokens = 2B\n", 2e9),
        ("LoRA on Llama 3 8B.\ndataset tokens: 500M\n", 500e6),
    ],
)
def test_a_tokens_key_is_the_data_size(extract: Extract, text: str, tokens: float) -> None:
    assert extract(text).dataset_tokens == tokens


@pytest.mark.parametrize(
    "text",
    [
        "LoRA on Llama 3 8B.\nmax_tokens: 2048\n",  # a length, not a data set
        "Serve Llama 3 8B.\ntokens: 5M per day\n",  # serving
        "LoRA on Llama 3 8B.\ntokens: 500k/s\n",  # a rate
    ],
)
def test_a_length_rate_or_serving_key_is_no_data_size(extract: Extract, text: str) -> None:
    p = extract(text)
    assert p.dataset_tokens is None or p.workload == "inference", text
