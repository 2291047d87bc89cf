"""Shared fixtures for the catalog tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.catalog.load import Catalog, load_catalog


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture
def write(tmp_path: Path):  # type: ignore[no-untyped-def]
    """write(name, text) -> Path of a file with that text in a temp folder."""

    def _write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return _write
