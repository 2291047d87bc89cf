"""Expert review 13, R17: "monthly SFT runs (full FT, Llama 3.1 8B, 2B tokens each) plus serve it for 500
concurrent users": the token count said per run is the training data (not a sequence length, so not
dropped), and "plus serve it" starts a second (serving) workload. Near misses: a per-item length stays a
length; "plus" not before a serving verb splits nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.rules import RulesExtractor
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
R17 = (
    "monthly SFT runs (full FT, Llama 3.1 8B, 2B tokens each) plus serve it for 500 concurrent users at ~25 "
    "tok/s each. Budget $25k/month total. Does that fit? Excluding GCP."
)


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        (R17, 2e9),
        ("Weekly LoRA runs on Llama 3.1 8B, 300M tokens each.", 300e6),
        ("Three fine-tuning jobs of Qwen2.5 7B, 1.5B tokens each.", 1.5e9),
    ],
)
def test_tokens_each_run_are_its_data(extract: Extract, text: str, tokens: float) -> None:
    assert extract(text).dataset_tokens == pytest.approx(tokens), text


def test_a_length_each_is_still_no_data_set(extract: Extract) -> None:
    p = extract("Fine-tune Llama 3.1 8B on 40k examples, 2,048 tokens each.")
    assert p.dataset_tokens != pytest.approx(2048)


def test_plus_serve_it_is_a_second_workload(rules: RulesExtractor) -> None:
    a = rules.analyse(R17)
    assert any(f.field == "concurrency" and f.value == 500 for f in a.other)
    assert not any(f.field == "concurrency" for f in a.findings)


def test_plus_without_serving_splits_nothing(rules: RulesExtractor) -> None:
    a = rules.analyse("Full fine-tune Llama 3.1 8B on 2B tokens plus 100M tokens of code, 2 epochs.")
    assert a.other == ()
