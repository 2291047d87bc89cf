"""Expert review 13, R14/R16: a question about the GPU memory needed is read (memory_asked) and answered
with the engine's own memory estimate: per GPU and in all on the pick, the fewest GPUs that hold it and
the smallest card that holds it (tools.recommend.memory_answer). Memory said as a fact is no question."""

from __future__ import annotations

import re

import pytest

from advisor.api import ask
from advisor.extract.rules import RulesExtractor

R14 = (
    "LoRA on Qwen2.5 72B, 500M tokens, must finish within 5 days, EU only, cheapest option. "
    "Also tell me the GPU memory per card needed."
)
R16 = "how much VRAM do I need to run Llama 3.1 405B inference in FP8, and how many H200s?"


@pytest.mark.parametrize(
    "text",
    [
        R14,
        R16,
        "Serve Llama 3.1 70B to 20 users. What are the VRAM requirements?",
        "QLoRA Llama 3 70B on 100M tokens: how much GPU memory per card is needed?",
        "Fine-tune Llama 3 8B on 10M tokens with LoRA; what GPU memory do we need?",
    ],
)
def test_memory_questions_are_read(text: str) -> None:
    assert RulesExtractor().extract(text).memory_asked is True


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama 3.1 70B to 20 users on H100 80GB memory cards.",
        "Serve Llama 3.1 70B to 20 users; we have 512 GB of RAM per host. How much RAM does the host need?",
        "QLoRA uses less memory than LoRA. Fine-tune Llama 3 8B on 10M tokens.",
    ],
)
def test_memory_said_as_a_fact_is_no_question(text: str) -> None:
    assert RulesExtractor().extract(text).memory_asked is None


def _memory_line(text: str) -> str:
    reply = str(ask(text)["reply"])
    line = next((ln for ln in reply.splitlines() if "Memory needed: on the pick" in ln), "")
    assert line, reply
    return line


def test_r16_gives_the_total_and_the_fewest_cards() -> None:
    line = _memory_line(R16)
    # 405B parameters at 1 byte (FP8) = 377 GiB of weights alone (shared/references: FP8 1 B/param); the
    # estimate with KV cache and overhead is above it, for the pick and the fewest-GPU set-up
    totals = [float(t.replace(",", "")) for t in re.findall(r"([\d,]+\.\d) GiB in all", line)]
    assert totals and all(t > 377.0 for t in totals)
    # "how many H200s?" makes H200 the pick's card (review 12, R04's count answer): the pick is then itself
    # the fewest H200s that hold it, and the line names no other set-up
    assert "Fewest GPUs that hold it: 4x NVIDIA H200" in line or "on the pick, 4x NVIDIA H200" in line


def test_r14_gives_a_per_card_figure_for_a_smaller_card() -> None:
    line = _memory_line(R14)
    # since RunPod's EU data centres count under EU only (fix27), the cheapest EU pick is 8x L40S sharded
    # (28.4 GiB per GPU): the pick is the smallest card itself, so the line names the fewest GPUs instead
    assert "on the pick, 8x NVIDIA L40S" in line and "GiB in all" in line
    assert "Fewest GPUs that hold it: 1x NVIDIA B200" in line
    assert "Smallest card that holds it" not in line


def test_no_memory_line_unless_asked() -> None:
    reply = str(ask("LoRA on Qwen2.5 72B, 500M tokens, must finish within 5 days, EU only.")["reply"])
    assert "Memory needed" not in reply
