"""A time question about the GPUs the team owns, asked a sentence or two later ("How long on those 16
GPUs?"), names them as the configuration to answer (advisor/extract/rules_claims.py)."""

from __future__ import annotations

from collections.abc import Callable

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
OWNED = (
    "We own 16x H100 (two HGX nodes with InfiniBand). We want to full fine-tune Llama 3.1 8B on 5B tokens. "
)


def test_how_long_on_those_owned_gpus_is_asked_about_all_of_them(extract: Extract) -> None:
    for question in ("How long on those 16 GPUs?", "how long would it take on all of them?",
                     "How many days on our 16 cards?"):  # fmt: skip
        p = extract(OWNED + question)
        assert (p.claimed_gpu, p.claimed_gpu_count, p.claimed_hours) == ("h100-sxm", 16, None), question


def test_a_share_of_them_or_no_question_is_not_that(extract: Extract) -> None:
    assert extract(OWNED + "How long on those 8?").claimed_gpu_count != 16
    assert extract(OWNED + "How long will the data prep take on the CPU nodes.").claimed_gpu is None
