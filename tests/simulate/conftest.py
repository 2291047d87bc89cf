"""Small architectures the simulator runs in about a second each (2 layers, hidden 256, vocab 1000)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest

from tools.catalog.schema import ModelArch


def make_arch(**overrides: Any) -> ModelArch:
    fields: dict[str, Any] = {
        "id": "tiny-llama",
        "name": "tiny llama",
        "family": "llama",
        "hf_architecture": "LlamaForCausalLM",
        "n_layers": 2,
        "hidden_size": 256,
        "n_heads": 4,
        "n_kv_heads": 2,
        "head_dim": 64,
        "intermediate_size": 512,
        "vocab_size": 1000,
        "max_context": 4096,
        "source": "test fixture",
        "as_of": dt.date(2026, 11, 22),
    }
    fields.update(overrides)
    return ModelArch(**fields)


@pytest.fixture(scope="session")
def arch_factory() -> Callable[..., ModelArch]:
    return make_arch


@pytest.fixture(scope="session")
def tiny() -> ModelArch:
    return make_arch()


@pytest.fixture(scope="session")
def tiny_tied() -> ModelArch:
    return make_arch(id="tiny-tied", tied_embeddings=True)


@pytest.fixture(scope="session")
def tiny_moe() -> ModelArch:
    return make_arch(
        id="tiny-mixtral",
        family="mixtral",
        hf_architecture="MixtralForCausalLM",
        n_experts=4,
        n_active_experts=2,
        moe_intermediate_size=384,
    )
