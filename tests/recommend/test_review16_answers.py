"""Expert review 16: replies on the review's own phrasing (R16 a 7B pretrain on 2T tokens in 60 days, R13 a
reservation written as an instance type, R05 a claim comparing two GPUs, R01 an explicit '~12h' beside a
vague deadline), each with variants in a team's own words and a near miss."""

from __future__ import annotations

import re

import pytest

from advisor.api import ask

R16 = "We want to pretrain a 7B model on 2T tokens and want it done in 60 days. How many H100s"


def _line(reply: str, head: str) -> str:
    return next(line for line in reply.splitlines() if line.startswith(head))


def _usd(text: str) -> list[float]:
    return [float(x.replace(",", "")) for x in re.findall(r"\$([\d,]+)", text)]


@pytest.mark.parametrize(
    "text",
    [
        R16,
        R16.replace("2T tokens", "2 trillion tokens"),
        "pre-train a 7B model on 2000B tokens and we have 60 days; how many H100s do we need?",
    ],
)
def test_r16_sizes_the_stated_two_trillion_tokens_on_h100(text: str) -> None:
    reply = str(ask(text)["reply"])
    assert "dataset 2T tokens" in reply and "I did not use" not in reply
    head = _line(reply, "Recommended:")
    # 6 x 7e9 x 2e12 = 8.4e22 FLOP = ~67k H100-hours at MFU 0.35 (review 16, R16): 48-64 H100 at the
    # expected MFU; the tools add margin for the low-MFU end (P16b "2000B tokens": 128x H100, $215-481k)
    count = int(re.search(r"Recommended: (\d+)x NVIDIA H100", head).group(1))  # type: ignore[union-attr]
    assert 48 <= count <= 128
    low_usd, high_usd = _usd(head)[:2]
    assert 150_000 <= low_usd <= 400_000 and high_usd <= 600_000  # review: ~$260-400k at MFU 0.35


def test_r16_near_miss_without_a_data_size_sizes_a_default() -> None:
    reply = str(ask("We want to pretrain a 7B model and want it done in 60 days. How many H100s")["reply"])
    assert "dataset 140B tokens" in reply  # the Chinchilla default (20 tokens per parameter) is assumed


R13 = (
    "We have a 1-year AWS reservation for one p5.48xlarge (8x H100). Could it also serve Llama 3.1 70B to "
    "200 concurrent users at 15 tok/s"
)


@pytest.mark.parametrize(
    "text",
    [
        R13,
        "our reserved p5.48xlarge on AWS has 10 months left - can it serve Llama 3.1 70B to 200 concurrent "
        "users at 15 tok/s?",
        "We hold a 1-year reservation of a p5.48xlarge. Serve Llama 3.1 70B to 200 concurrent users at 15 "
        "tok/s on it?",
    ],
)
def test_r13_is_answered_on_the_reserved_instance(text: str) -> None:
    reply = str(ask(text)["reply"])
    # 141 GB weights + 200 x 4k x 320 KiB KV = ~250 GiB of 640 GB: fits (review 16, R13: "Yes, on the
    # reservation, $0 extra", as P13a "8x H100 SXM reserved on AWS" gives 25-38 tok/s per user)
    head = _line(reply, "Recommended:")
    assert "Recommended: 8x NVIDIA H100 SXM5 80GB at your hardware (your reservation)" in head
    assert "$0 per month" in head
    assert "I did not use" not in reply


def test_r13_near_miss_a_quoted_reservation_is_rented() -> None:
    reply = str(ask(R13.replace("We have a", "We got a quote for a"))["reply"])
    assert "your reservation" not in _line(reply, "Recommended:")


R05 = "is it true that an H200 is 2x faster than an H100 for serving Llama 3.3 70B? ~40 concurrent users"


@pytest.mark.parametrize(
    "text",
    [
        R05,
        "our CTO says the H200 is twice as fast as the H100 for serving Llama 3.3 70B to 40 concurrent users."
        " true?",
        "Llama 3.3 70B, 40 concurrent users: is H200 really 2x quicker than H100?",
    ],
)
def test_r05_answers_no_about_one_and_a_half_per_gpu(text: str) -> None:
    reply = str(ask(text)["reply"])
    # decode is memory-bound: H200 4.8 vs H100 SXM 3.35 TB/s = 1.43x (tools/catalog/gpus.yaml); the tools'
    # own serving figures give 1.4-1.5x per GPU (review 16, R05 via P05a: 4x H100 vs 2x H200)
    verdict = re.search(r"No: about (\d\.\d)x per GPU", reply)
    assert verdict is not None and 1.3 <= float(verdict.group(1)) <= 1.6
    assert "not 2x" in reply
    assert "I did not use" not in reply


def test_r05_near_miss_a_claim_within_the_band_holds() -> None:
    reply = str(ask(R05.replace("2x faster", "1.5x faster"))["reply"])
    assert re.search(r"Yes: about 1\.\dx per GPU", reply) is not None


R01 = (
    "hey, need to LoRA finetune Mistral 7B on ~40k instruction pairs (avg 800 tokens each), 3 epochs. "
    "cheapest thing that's done by tomorrow morning (~12h)? no spot pls"
)


def test_r01_meets_the_stated_twelve_hours() -> None:
    reply = str(ask(R01)["reply"])
    # 40k x 800 x 3 = 96M tokens; 4 x 7.2e9 x 96e6 = 2.8e18 FLOP: a 4090 at MFU 0.3 takes ~15 h (misses 12 h),
    # an L40S ~7 h at $0.79/h (review 16, R01; P01 "within 12 hours" -> 1x L40S 6-9 h)
    assert "12 h from now" in reply
    head = _line(reply, "Recommended:")
    hours_high = float(re.search(r"– ([\d.]+) h,", head).group(1))  # type: ignore[union-attr]
    assert hours_high <= 12.0
    assert "12h" not in _unused(reply)


def _unused(reply: str) -> str:
    """The reply's "I did not use" list (empty when every clause was used)."""
    head = reply.split("Recommended:")[0]
    return head.split("I did not use", 1)[1] if "I did not use" in head else ""


R15 = "cost to LoRA fine-tune Llama 3.1 8B on 100M tokens on H100 vs A100 vs RTX 4090? Just want the numbers"


@pytest.mark.parametrize(
    ("text", "names"),
    [
        (R15, ["H100", "A100", "RTX 4090"]),
        ("LoRA Llama 3.1 8B, 100M tokens: H100 vs A100 vs RTX 4090 - what does each cost?",
         ["H100", "A100", "RTX 4090"]),
        ("Compare L40S vs A100 vs H100 for a LoRA of Llama 3.1 8B on 100M tokens, numbers only",
         ["L40S", "A100", "H100"]),
    ],
)  # fmt: skip
def test_r15_one_like_for_like_line_per_named_card(text: str, names: list[str]) -> None:
    reply = str(ask(text)["reply"])
    # review 16, R15: 1x H100 ~3-5.7 h $8-15, 1x A100 80GB ~8-14 h $11-20, 1x 4090 ~15-22 h $5-7.5 (the
    # cost of a compute-bound run barely moves with the count, so each card's cheapest offer is shown)
    line = next(x for x in reply.splitlines() if "is cheapest per run, on the cheapest offer of each" in x)
    parts = line.split(": ", 1)[1].split("; ")
    assert len(parts) == len(names)
    for name, part in zip(names, parts, strict=True):
        assert name in part and "(on demand)" in part and "$" in part and "takes" in part


def test_r15_near_miss_two_cards_keep_the_which_is_cheaper_answer() -> None:
    reply = str(ask(R15.replace(" vs RTX 4090", ""))["reply"])
    assert "is cheaper per run, on the cheapest offer of each" in reply
    assert "is cheapest per run" not in reply


R06 = (
    "We want make QLoRA of Llama 3.3 70B on our support tickets, around 20 millions tokens. We have only 2x "
    "RTX 4090 in office. It is possible? How long it will take?"
)


@pytest.mark.parametrize(
    "text",
    [
        R06,
        "We have 2x RTX 4090 at the office. How long would a QLoRA of Llama 3.3 70B on 20M tokens take on "
        "them?",
        "QLoRA Llama 3.3 70B, 20M tokens, on our own 2x RTX 4090 - how long?",
    ],
)
def test_r06_times_the_compute_on_the_teams_cards(text: str) -> None:
    reply = str(ask(text)["reply"])
    # 6 x 70.6e9 x 20e6 = 8.5e18 FLOP; 2x 4090 at MFU 0.25: ~29 h before offload overhead (review 16, R06;
    # Answer.AI FSDP+QLoRA on two 24 GB cards, answer.ai/posts/2024-03-06-fsdp-qlora)
    m = re.search(r"the compute alone takes (\d+) – (\d+) h on them", reply)
    assert m is not None
    assert int(m.group(1)) <= 29 <= int(m.group(2))
    # the fewest rental is named with its own time, not "listed below" beside an 8x H100 at the same cost
    # (review 16, R06); or it is the pick itself (a single GPU is ranked over 8 doing the job for about the
    # same money: tools.recommend.score.MULTI_GPU_TRAINING_SETUP)
    note = next(x for x in reply.splitlines() if "The fewest GPUs to rent that fit: 1x " in x)
    assert "(listed below)" not in note
    assert re.search(r"\$[\d.]+ – \$[\d.]+, [\d.]+ – [\d.]+ h\.", note) or "(the pick below)" in note
    if "(the pick below)" in note:
        assert "Recommended: 1x " in reply


def test_r06_near_miss_cards_that_hold_it_need_no_offload_time() -> None:
    reply = str(ask("QLoRA Llama 3.1 8B, 20M tokens, on our own 2x RTX 4090 - how long?")["reply"])
    assert "the compute alone takes" not in reply
    assert "at your hardware" in reply
