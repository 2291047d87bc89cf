"""Briefs whose section headings are bold lines ("**Serving**"): the serving section's figures (context,
concurrency, TTFT) belong to the serving part, not to the training sequence length and batch (issue 12,
gap 4; advisor/extract/brief_text.py heading_kind)."""

from __future__ import annotations

import pytest

from advisor.extract.base import merge_findings
from advisor.extract.brief_text import heading_kind
from advisor.extract.rules import RulesExtractor

BOLD = """**Fine-tuning**
We LoRA-tune Llama 3.1 8B on 300M tokens.

**Serving**
Sequence length 32k, batch size 64 concurrent requests, p95 TTFT 800 ms.
"""
# the way other teams mark them: underscores, single stars with a trailing note word
UNDERSCORE = """__Training__
LoRA fine-tune of Llama 3.1 8B on 300M tokens, sequence length 4096.

__Inference__
Max sequence length 16k, 48 concurrent users.
"""
STARS = """*Training plan*
LoRA fine-tune of Llama 3.1 8B on 300M tokens.

*Serving plan*
Context 8k tokens, up to 40 concurrent sessions.
"""


@pytest.mark.parametrize(
    ("text", "seq_len", "concurrency"),
    [(BOLD, None, 64), (UNDERSCORE, 4096, 48), (STARS, None, 40)],
)
def test_bold_headings_route_serving_figures(
    rules: RulesExtractor, text: str, seq_len: int | None, concurrency: int
) -> None:
    a = rules.analyse(text)
    train, serve = merge_findings(None, a.findings), merge_findings(None, a.other)
    assert train.workload == "fine_tuning" and train.method == "lora"
    assert (train.seq_len, train.concurrency, train.batch_size) == (seq_len, None, None)
    assert serve.workload == "inference" and serve.concurrency == concurrency


@pytest.mark.parametrize(
    "line",
    [
        "**LoRA** fine-tune of Llama 3.1 8B",  # near miss: bold words inside a sentence, not a heading
        "**Serving 64 users at 32k context**",  # a bolded statement with figures, not a heading
        "* Serving stays on our vLLM box",  # a bullet, not emphasis
    ],
)
def test_bold_text_that_is_no_heading(line: str) -> None:
    assert heading_kind(line) is None


def test_bold_heading_kinds() -> None:
    assert (heading_kind("**Serving**"), heading_kind("__Fine-tuning__")) == ("serving", "training")
