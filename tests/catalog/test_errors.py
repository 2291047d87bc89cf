"""Malformed catalog files fail with one line naming the file, the record and the field."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tools.catalog.load import (
    COSTS_FILE,
    GPUS_FILE,
    MODELS_FILE,
    PRICES_FILE,
    load_catalog,
    load_catalog_files,
)
from tools.errors import InputError

Write = Callable[[str, str], Path]

GPU_OK = """
  - id: test-gpu
    name: Test GPU
    vendor: nvidia
    memory_gb: 80
    usable_memory_gib: 79.6
    memory_bandwidth_tb_per_s: 3.35
    bf16_dense_tflops: 989
    scale_up_link: nvlink4
    form_factor: SXM5
    source: "test"
    as_of: 2026-11-01
"""


def _load_gpus(write: Write, body: str) -> None:
    path = write("gpus.yaml", "gpus:\n" + body)
    load_catalog_files(gpus_file=path, models_file=MODELS_FILE, prices_file=write("p.yaml", ""),
                       costs_file=COSTS_FILE)


def _one_line(exc: pytest.ExceptionInfo[InputError]) -> str:
    msg = str(exc.value)
    assert "\n" not in msg
    return msg


def test_well_formed_minimal_gpu_file_loads(write: Write) -> None:
    _load_gpus(write, GPU_OK)


def test_negative_memory_names_file_record_field(write: Write) -> None:
    with pytest.raises(InputError) as exc:
        _load_gpus(write, GPU_OK.replace("memory_gb: 80", "memory_gb: -80"))
    msg = _one_line(exc)
    assert "gpus.yaml" in msg and "test-gpu" in msg and "'memory_gb'" in msg and "greater than 0" in msg


def test_missing_field_is_named(write: Write) -> None:
    with pytest.raises(InputError) as exc:
        _load_gpus(write, GPU_OK.replace("    form_factor: SXM5\n", ""))
    msg = _one_line(exc)
    assert "'form_factor'" in msg and "missing" in msg and "record 1" in msg


def test_missing_source_is_rejected(write: Write) -> None:
    with pytest.raises(InputError, match="'source'"):
        _load_gpus(write, GPU_OK.replace('    source: "test"\n', ""))


def test_unknown_field_is_named(write: Write) -> None:
    with pytest.raises(InputError) as exc:
        _load_gpus(write, GPU_OK.replace("form_factor: SXM5", "form_factor: SXM5\n    memroy_gb: 3"))
    assert "'memroy_gb'" in _one_line(exc) and "unknown field" in str(exc.value)


def test_bad_date_and_bad_enum(write: Write) -> None:
    with pytest.raises(InputError, match="'as_of'"):
        _load_gpus(write, GPU_OK.replace("as_of: 2026-11-01", "as_of: last week"))
    with pytest.raises(InputError, match="'scale_up_link'"):
        _load_gpus(write, GPU_OK.replace("nvlink4", "nvlink9"))


def test_second_record_is_identified(write: Write) -> None:
    second = GPU_OK.replace("test-gpu", "other-gpu")
    second = second.replace("bf16_dense_tflops: 989", "bf16_dense_tflops: lots")
    with pytest.raises(InputError) as exc:
        _load_gpus(write, GPU_OK + second)
    msg = _one_line(exc)
    assert "record 2" in msg and "other-gpu" in msg and "'bf16_dense_tflops'" in msg


def test_duplicate_ids_and_aliases_rejected(write: Write) -> None:
    with pytest.raises(InputError, match="duplicate"):
        _load_gpus(write, GPU_OK + GPU_OK)
    clash = GPU_OK.replace("test-gpu", "other-gpu")
    clash = clash.replace("name: Test GPU", "name: Other\n    aliases: [test gpu]")
    with pytest.raises(InputError, match="also names 'test-gpu'"):
        _load_gpus(write, GPU_OK + clash)


def test_yaml_syntax_error_names_line(write: Write) -> None:
    with pytest.raises(InputError) as exc:
        _load_gpus(write, GPU_OK + "  - id: [unclosed\n")
    assert "gpus.yaml" in _one_line(exc) and "line" in str(exc.value)


def test_model_kv_heads_must_divide_heads(write: Write) -> None:
    text = MODELS_FILE.read_text().replace("n_kv_heads: 8\n    head_dim: 128\n    intermediate_size: 14336\n"
                                          "    vocab_size: 128256\n    max_context: 8192",
                                          "n_kv_heads: 7\n    head_dim: 128\n    intermediate_size: 14336\n"
                                          "    vocab_size: 128256\n    max_context: 8192", 1)
    path = write("models.yaml", text)
    with pytest.raises(InputError) as exc:
        load_catalog_files(
            gpus_file=GPUS_FILE, models_file=path, prices_file=PRICES_FILE, costs_file=COSTS_FILE
        )
    assert "llama-3-8b" in _one_line(exc) and "'n_kv_heads'" in str(exc.value)


def test_user_price_file_errors(write: Write) -> None:
    bad_gpu = write("mine.yaml", """
prices:
  - {provider: acme, gpu: h1000, pricing: on_demand, usd_per_gpu_hour: 2.0, tier: x,
     source: me, as_of: 2026-11-01}
""")
    with pytest.raises(InputError) as exc:
        load_catalog(bad_gpu)
    msg = _one_line(exc)
    assert "mine.yaml" in msg and "'gpu'" in msg and "acme" in msg and "h100" in msg  # closest ids offered

    bad_price = write("mine2.yaml", """
prices:
  - {provider: acme, gpu: h100-sxm, pricing: on_demand, usd_per_gpu_hour: 0, tier: x,
     source: me, as_of: 2026-11-01}
""")
    expected = r"mine2\.yaml: prices record 1 \(provider='acme'.*'usd_per_gpu_hour'"
    with pytest.raises(InputError, match=expected):
        load_catalog(bad_price)

    bad_pricing = write("mine3.yaml", """
prices:
  - {provider: acme, gpu: h100-sxm, pricing: monthly, usd_per_gpu_hour: 2, tier: x,
     source: me, as_of: 2026-11-01}
""")
    with pytest.raises(InputError, match="'pricing'"):
        load_catalog(bad_pricing)

    with pytest.raises(InputError, match="unknown section"):
        load_catalog(write("mine4.yaml", "price:\n  - {}\n"))
    with pytest.raises(InputError, match="file not found"):
        load_catalog("/nonexistent/prices.yaml")


def test_egress_tiers_must_ascend(write: Write) -> None:
    path = write("e.yaml", """
egress:
  - cloud: aws
    tiers: [{up_to_gb: 5000, usd_per_gb: 0.09}, {up_to_gb: 1000, usd_per_gb: 0.08}, {usd_per_gb: 0.05}]
    source: me
    as_of: 2026-11-01
""")
    with pytest.raises(InputError, match="'tiers'"):
        load_catalog(path)
