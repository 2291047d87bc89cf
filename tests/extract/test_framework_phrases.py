"""The training framework as teams name it (issue 13: the time model's efficiency band depends on it),
each with the words as evidence, and phrases that must NOT set it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
JOB = " LoRA Llama 3 8B on 50M tokens."


@pytest.mark.parametrize(
    ("text", "framework", "evidence"),
    [
        ("We use axolotl for all our fine-tunes.", "axolotl", "axolotl"),
        ("Planning to do it with Unsloth on a single card.", "unsloth", "Unsloth"),
        ("Our Megatron-LM setup handles the parallelism.", "megatron", "Megatron-LM"),
        ("The team runs NeMo on the cluster.", "nemo", "NeMo"),
        ("We train with DeepSpeed ZeRO-3 and gradient checkpointing.", "deepspeed", "DeepSpeed ZeRO-3"),
        ("Our pipeline is TRL's SFTTrainer with PEFT.", "hf", "PEFT"),
        ("Plain HF Trainer, nothing fancy.", "hf", "HF Trainer"),
        ("We fine-tune using the PEFT library.", "hf", "PEFT"),
        ("Config is a LLaMA-Factory yaml.", "llama-factory", "LLaMA-Factory"),
        ("Recipes from torchtune.", "torchtune", "torchtune"),
        ("We pretrain with torchtitan and FSDP2.", "torchtitan", "torchtitan"),
    ],
)
def test_framework_is_read_with_its_words(extract: Extract, text: str, framework: str, evidence: str) -> None:
    p = extract(text + JOB)
    assert p.framework == framework
    assert p.status_of("framework") == "stated"
    assert evidence in (p.provenance["framework"].evidence or "")


def test_the_launcher_wins_over_the_engine_it_drives(extract: Extract) -> None:
    assert extract("Axolotl with DeepSpeed ZeRO-3 on 8 GPUs." + JOB).framework == "axolotl"
    assert extract("HF Trainer plus DeepSpeed stage 3." + JOB).framework == "deepspeed"
    assert extract("NeMo Megatron recipes." + JOB).framework == "nemo"
    assert extract("We are moving from Axolotl to torchtune." + JOB).framework == "torchtune"


def test_a_later_sentence_corrects_an_earlier_one(extract: Extract) -> None:
    p = extract("We tried Axolotl last year. Now we use torchtune." + JOB)
    assert p.framework == "torchtune"


@pytest.mark.parametrize(
    "text",
    [
        "Serve Mistral NeMo 12B to our users.",  # a model, not NVIDIA's framework
        "Fine-tune Mistral-Nemo-12B with LoRA.",
        "We don't use DeepSpeed.",
        "Any parameter-efficient method (PEFT) is fine.",  # the method family, not the library
        "Our transformer models are small.",
    ],
)
def test_phrases_that_name_no_framework(extract: Extract, text: str) -> None:
    assert extract(text + JOB).framework is None
