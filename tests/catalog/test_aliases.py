"""Alias resolution and closest-id suggestions."""

from __future__ import annotations

import pytest

from tools.catalog.load import Catalog, normalize_name
from tools.errors import InputError


@pytest.mark.parametrize(
    ("name", "model_id"),
    [
        ("Llama 3 70B", "llama-3-70b"),
        ("llama-3-70b", "llama-3-70b"),
        ("Meta-Llama-3-70B", "llama-3-70b"),
        ("meta-llama/Meta-Llama-3-70B", "llama-3-70b"),
        ("meta-llama/Meta-Llama-3-70B-Instruct", "llama-3-70b"),
        ("LLAMA_3_70B", "llama-3-70b"),
        ("Llama 3.1 8B", "llama-3.1-8b"),
        ("meta-llama/Llama-3.1-8B-Instruct", "llama-3.1-8b"),
        ("Meta-Llama-3.1-8B", "llama-3.1-8b"),
        ("Llama-2-7b-chat-hf", "llama-2-7b"),
        ("Qwen/Qwen2.5-7B-Instruct", "qwen2.5-7b"),
        ("qwen2.5 0.5b", "qwen2.5-0.5b"),
        ("mistralai/Mistral-7B-Instruct-v0.3", "mistral-7b-v0.3"),
        ("Mistral 7B", "mistral-7b-v0.3"),
        ("google/gemma-2-9b-it", "gemma-2-9b"),
        ("gemma-3-27b-it", "gemma-3-27b"),
        ("microsoft/Phi-3-mini-4k-instruct", "phi-3-mini"),
        ("deepseek-ai/DeepSeek-V3", "deepseek-v3"),
        ("Mixtral-8x7B-Instruct-v0.1", "mixtral-8x7b"),
        ("tiiuae/falcon-40b", "falcon-40b"),
        ("Qwen3-30B-A3B", "qwen3-30b-a3b"),
        ("unsloth/Meta-Llama-3.1-8B-bnb-4bit", "llama-3.1-8b"),  # quantised variants share the architecture
        ("TheBloke/Llama-2-70B-Chat-AWQ", "llama-2-70b"),
        ("70B Llama 3", "llama-3-70b"),
    ],
)
def test_model_aliases(catalog: Catalog, name: str, model_id: str) -> None:
    assert catalog.model(name).id == model_id
    assert catalog.has_model(name)


@pytest.mark.parametrize(
    ("name", "gpu_id"),
    [
        ("H100", "h100-sxm"),
        ("NVIDIA H100 80GB HBM3", "h100-sxm"),
        ("h100 sxm5", "h100-sxm"),
        ("H100 PCIe", "h100-pcie"),
        ("A100 80GB", "a100-80gb-sxm"),
        ("A100 40GB", "a100-40gb-sxm"),
        ("a100-pcie-40gb", "a100-40gb-pcie"),
        ("RTX 4090", "rtx-4090"),
        ("GeForce RTX 4090", "rtx-4090"),
        ("L40S", "l40s"),
        ("AMD MI300X", "mi300x"),
        ("Gaudi 3", "gaudi3"),
        ("B200 192GB", "b200"),
        ("A100 80GB PCIe", "a100-80gb-pcie"),  # word order forgiven
        ("SXM5 H100", "h100-sxm"),
    ],
)
def test_gpu_aliases(catalog: Catalog, name: str, gpu_id: str) -> None:
    assert catalog.gpu(name).id == gpu_id


def test_normalize_name() -> None:
    assert normalize_name("meta-llama/Meta-Llama-3-70B-Instruct") == "llama370b"
    assert normalize_name("  Llama 3.1 8B ") == "llama318b"
    assert normalize_name("NVIDIA H100") == "h100"
    assert normalize_name("instruct") == "instruct"  # never normalised to nothing


def test_unknown_model_lists_closest(catalog: Catalog) -> None:
    with pytest.raises(InputError) as exc:
        catalog.model("llama-3-7b")
    msg = str(exc.value)
    assert msg.startswith("unknown model 'llama-3-7b'; closest: ")
    closest = msg.split("closest: ")[1].split(" (")[0].split(", ")
    assert 1 <= len(closest) <= 3
    assert "llama-3-8b" in closest
    assert "\n" not in msg


def test_unknown_gpu_lists_closest(catalog: Catalog) -> None:
    with pytest.raises(InputError, match=r"unknown gpu 'H10'; closest: .*h100"):
        catalog.gpu("H10")


def test_garbage_still_lists_some_ids(catalog: Catalog) -> None:
    with pytest.raises(InputError, match=r"closest: \S+"):
        catalog.model("zzzz")


def test_every_alias_resolves_to_its_record(catalog: Catalog) -> None:
    for m in catalog.models:
        for a in (m.id, m.name, *m.aliases):
            assert catalog.model(a).id == m.id, a
    for g in catalog.gpus:
        for a in (g.id, g.name, *g.aliases):
            assert catalog.gpu(a).id == g.id, a
