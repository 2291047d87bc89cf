"""Expert review 15, R04 and R14: a claim someone made about named cards ("a vendor told us we can do a full
fine-tune of a 7B model on a single 24GB RTX 4090. is that actually true?", "Our ML lead says serving
Mixtral 8x7B in fp16 needs only 2x A100 40GB. Is that right?") is a claim to check on those cards, and the
reply opens with the verdict; a plan stated as a fact is no claim."""

from __future__ import annotations

import pytest

from advisor.api import ask
from advisor.extract.rules import RulesExtractor

R04 = (
    "a vendor told us we can do a full fine-tune of a 7B model on a single 24GB RTX 4090. is that actually "
    "true?"
)
A100, R4090 = "a100-40gb-sxm", "rtx-4090"
R14 = "Our ML lead says serving Mixtral 8x7B in fp16 needs only 2x A100 40GB. Is that right?"


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        (R04, "rtx-4090", 1),
        ("our infra guy says we could train Mistral 7B full-parameter on one 24GB RTX 4090, true?", R4090, 1),
        ("the reseller swears a 7B full finetune runs fine on one 4090 24GB, can that be right?", R4090, 1),
        (R14, A100, 2),
        ("Consultant claims Mixtral 8x7B fp16 only needs 2 A100 40GB cards for serving. Correct?", A100, 2),
    ],
)
def test_a_reported_claim_names_its_cards(text: str, gpu: str, count: int) -> None:
    p = RulesExtractor().extract(text)
    assert (p.claimed_gpu, p.claimed_gpu_count) == (gpu, count)


@pytest.mark.parametrize(
    "text",
    [
        "We will train Llama 3.1 8B on 8x H100 next month.",  # a plan, no one's claim
        "Our ML lead says serving Mixtral needs a lot of memory; we have budget for 2x A100 40GB.",
    ],
)
def test_near_misses_are_no_claim(text: str) -> None:
    assert RulesExtractor().extract(text).claimed_gpu is None


def test_r04_reply_opens_with_no_and_says_what_fits() -> None:
    reply = str(ask(R04)["reply"])
    first = reply.split("\n\n")[1]  # after "I understood: ..."
    # 16 B/param full 7B with mixed Adam: 108.7 GiB in review 15, 105.9 since mem16's allocator reserve
    # the claim is the vendor's ("a vendor told us ..."): theirs after the verdict (expert review 18, R08);
    # 104.7 GiB since fit is judged on tensors + CUDA context, as the card shows it (fix27)
    verdict = "No, not on 1x NVIDIA GeForce RTX 4090 (a vendor's claim): it does not fit: 104.7 GiB"
    assert first.startswith(verdict)
    assert "What does fit on it: LoRA" in first and "QLoRA" in first
    assert "'single 24GB RTX 4090'" not in reply and "is that actually true?" not in reply


def test_r14_reply_opens_with_no() -> None:
    reply = str(ask(R14)["reply"])
    first = reply.split("\n\n")[1]
    # 46.7B x 2 B = 93 GB of weights > 2 x 39.8 GiB usable (review 15)
    assert first.startswith("No (your ML lead's claim): on 2x NVIDIA A100 40GB SXM4 it does not fit")
    assert "With FP8 weights it fits" in first
    assert "Is that right?" not in reply
