"""Slack shorthand for the training knobs ("bs 8", "seq 4k", "3 eps", "num_train_epochs=3"), "CPT", "cap at
N GPUs", and the near misses."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    ("text", "knobs"),
    [
        ("fine tunning llama 3 8b w/ lora, bs 8, seq 4k, 3 epochs, dataset: 6M tokens", (8, 4096, 3, 6e6)),
        ("lora gemma 3 12b: bs=8, seq=2048, r=16, 3 eps, 6M-token dataset", (8, 2048, 3, 6e6)),
        ("qlora llama 3 8b, num_train_epochs=3, per_device_train_batch_size=4, max_seq_len 4096, 6m tokens",
         (4, 4096, 3, 6e6)),
        ("lora on mistral 7b - 3 passes over the data, batch size 16, seq len 2048, dataset ~6M tokens",
         (16, 2048, 3, 6e6)),
    ],
)  # fmt: skip
def test_training_knobs_in_shorthand(extract: Extract, text: str, knobs: tuple) -> None:
    p = extract(text)
    assert (p.batch_size, p.seq_len, p.epochs, p.dataset_tokens) == knobs, text
    assert p.workload == "fine_tuning"


@pytest.mark.parametrize(
    "text",
    [
        "continual pretraining of llama 3.1 8b on 30B tokens, on H100s, cap at 32 GPUs",
        "cpt llama 3.1 8b 30B toks on h100s pls, cap at 32 gpus",
        "continued pre training for llama 3.1 8b, 30B tokens, H100s only, max 32 GPUs",
        "continuous pretraining llama 3.1 8b on 30B tokens; H100 only; capped to 32 GPUs",
    ],
)
def test_continual_pretraining_on_h100s_capped(extract: Extract, text: str) -> None:
    p = extract(text)
    assert p.workload == "continual_pretraining" and p.max_gpus == 32 and p.dataset_tokens == 30e9, text
    assert set(p.gpus_wanted) == {"h100-sxm", "h100-pcie", "h100-nvl"}, text


def test_cpt_does_not_override_pretraining_from_scratch(extract: Extract) -> None:
    assert extract("Pretraining a 1B model from scratch on 100B tokens. A CPT run comes later.").workload == (
        "pretraining"
    )


@pytest.mark.parametrize(
    "text",
    [
        "We process a seq of 4 steps; LoRA Llama 3 8B on 5M tokens.",  # no length
        "LoRA Llama 3 8B on 5M tokens, the bs on this is unreal.",  # no batch size
    ],
)
def test_shorthand_near_misses(extract: Extract, text: str) -> None:
    p = extract(text)
    assert p.seq_len is None and p.batch_size is None, text
