"""Shared fixtures of the memory tests: catalog architectures and a small hand-built one."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest

from tools.catalog.load import Catalog, load_catalog
from tools.catalog.schema import ModelArch


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="session")
def llama70b(catalog: Catalog) -> ModelArch:
    return catalog.model("llama-3-70b")


@pytest.fixture(scope="session")
def llama7b(catalog: Catalog) -> ModelArch:
    return catalog.model("llama-2-7b")


def build_arch(**fields: Any) -> ModelArch:
    """A Llama-like ModelArch with overridable fields (8 layers, hidden 1024 by default)."""
    base: dict[str, Any] = {
        "id": "test-arch",
        "name": "Test arch",
        "family": "llama",
        "n_layers": 8,
        "hidden_size": 1024,
        "n_heads": 8,
        "n_kv_heads": 4,
        "head_dim": 128,
        "intermediate_size": 2816,
        "vocab_size": 32000,
        "max_context": 8192,
        "source": "test",
        "as_of": dt.date(2026, 1, 1),
    }
    base.update(fields)
    return ModelArch(**base)


@pytest.fixture(scope="session")
def make_arch() -> Callable[..., ModelArch]:
    """Factory of small Llama-like architectures (see build_arch)."""
    return build_arch
