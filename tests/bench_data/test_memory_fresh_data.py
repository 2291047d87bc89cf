"""The fresh memory-measurement set (bench/data/memory_measurements_fresh.yaml) loads and validates."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from bench.memory_fresh_data import (
    MEMORY_FRESH_FILE,
    MemoryFreshDataError,
    MemoryFreshRow,
    load_memory_fresh_rows,
)

MIN_ROWS = 15
MIN_FAMILIES = 4


@pytest.fixture(scope="module")
def rows() -> list[MemoryFreshRow]:
    return load_memory_fresh_rows()


def test_file_loads_with_enough_rows_and_families(rows: list[MemoryFreshRow]) -> None:
    assert len(rows) >= MIN_ROWS
    assert len({r.family for r in rows}) >= MIN_FAMILIES


def test_ids_unique(rows: list[MemoryFreshRow]) -> None:
    ids = [r.id for r in rows]
    assert len(ids) == len(set(ids))


def test_every_row_has_source_url_and_positive_value(rows: list[MemoryFreshRow]) -> None:
    for r in rows:
        assert r.source.url.startswith("https://"), r.id
        assert r.measured.value > 0, r.id
        assert r.measured.gib() > 0, r.id


def test_every_row_states_batch_or_sequence(rows: list[MemoryFreshRow]) -> None:
    for r in rows:
        assert r.batch_size is not None or r.seq_len is not None, r.id


def test_mix_of_methods(rows: list[MemoryFreshRow]) -> None:
    assert {"full", "lora", "qlora"} <= {r.method for r in rows}


def test_no_fitted_source_is_used(rows: list[MemoryFreshRow]) -> None:
    # the memory model's fitting sources (tools/memory_calibration.py) and the seed article must stay out
    banned = ("torchtune", "QwenLM/Qwen", "LLaMA-Factory", "LlamaFactory")
    for r in rows:
        assert not any(b.lower() in r.source.url.lower() for b in banned), r.id


def _write(tmp_path: Path, rows: list[dict[str, object]]) -> Path:
    p = tmp_path / "m.yaml"
    p.write_text(yaml.safe_dump({"rows": rows}))
    return p


def _raw_first_row() -> dict[str, object]:
    with MEMORY_FRESH_FILE.open() as f:
        data = yaml.safe_load(f)
    row: dict[str, object] = data["rows"][0]
    return row


def test_extra_key_refused(tmp_path: Path) -> None:
    row = _raw_first_row()
    row["surprise"] = 1
    with pytest.raises(MemoryFreshDataError):
        load_memory_fresh_rows(_write(tmp_path, [row]))


@pytest.mark.parametrize(("field", "value"), [("unit", "GiBs"), ("basis", "peak")])
def test_unknown_unit_or_basis_refused(tmp_path: Path, field: str, value: str) -> None:
    row = _raw_first_row()
    measured = dict(row["measured"])  # type: ignore[call-overload]
    measured[field] = value
    row["measured"] = measured
    with pytest.raises(MemoryFreshDataError):
        load_memory_fresh_rows(_write(tmp_path, [row]))


def test_duplicate_id_refused(tmp_path: Path) -> None:
    row = _raw_first_row()
    with pytest.raises(MemoryFreshDataError):
        load_memory_fresh_rows(_write(tmp_path, [row, dict(row)]))


def test_gib_conversion() -> None:
    row = _raw_first_row()
    row["measured"] = {"value": 1024, "unit": "MiB", "basis": "reserved", "per_gpu": True}
    r = MemoryFreshRow.model_validate(row)
    assert r.measured.gib() == pytest.approx(1.0)
