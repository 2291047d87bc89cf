"""Issue 17: a bad database setting or GPU_ADVISOR_* variable stops `serve` (and `slack`) with one line
naming the variable and what to fix, exit 2, no password and no traceback; the SQLite file is 0600."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.store import open_repository
from tools.errors import InputError

ROOT = Path(__file__).resolve().parents[2]


def _serve(env_extra: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "GPU_ADVISOR_"))}
    env.update({"PYTHONPATH": str(ROOT), "GPU_ADVISOR_DATA_DIR": str(tmp_path / "data"), **env_extra})
    return subprocess.run(
        [sys.executable, "-m", "advisor", "serve", "--port", "1"],
        capture_output=True, text=True, env=env, timeout=60, cwd=tmp_path,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("env", "names", "hint"),
    [
        ({"DATABASE_URL": "not a url"}, "DATABASE_URL", "set it to e.g. postgresql://"),
        ({"DATABASE_URL": "foo://x/y"}, "DATABASE_URL", "does not know (foo)"),
        ({"DATABASE_URL": "mysql://u:pw@h/db"}, "DATABASE_URL", "driver MySQLdb, which is not installed"),
        ({"DATABASE_URL": "postgresql://u:s3cretpw@127.0.0.1:1/db"}, "DATABASE_URL", "check the host, port"),
        ({"DATABASE_URL": "sqlite:////proc/none/x.db"}, "DATABASE_URL", "point it at a writable folder"),
        ({"GPU_ADVISOR_DATA_DIR": "/proc/none"}, "GPU_ADVISOR_DATA_DIR", "point it at a writable folder"),
        ({"GPU_ADVISOR_TURN_CONCURRENCY": "lots"}, "GPU_ADVISOR_TURN_CONCURRENCY", "whole number"),
        ({"GPU_ADVISOR_BACKEND": "gpt5"}, "GPU_ADVISOR_BACKEND", "rules, openai"),
    ],
)
def test_a_bad_setting_stops_serve_with_one_line_and_exit_2(
    env: dict[str, str], names: str, hint: str, tmp_path: Path
) -> None:
    done = _serve(env, tmp_path)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert names in lines[0] and hint in lines[0]
    assert "s3cretpw" not in done.stderr and "Traceback" not in done.stderr


def test_open_repository_names_database_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://u:topsecret@127.0.0.1:1/db")
    with pytest.raises(InputError, match=r"^DATABASE_URL: cannot connect to .*u:\*\*\*@127.0.0.1:1") as info:
        open_repository()
    assert "topsecret" not in str(info.value)


def test_the_sqlite_file_is_owner_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("GPU_ADVISOR_DATA_DIR", str(tmp_path / "data"))
    repo = open_repository()
    repo.create_session()
    files = list((tmp_path / "data").glob("gpu-advisor.db*"))
    assert files, "no database file"
    for f in files:
        assert stat.S_IMODE(f.stat().st_mode) == 0o600, f
    assert stat.S_IMODE((tmp_path / "data").stat().st_mode) == 0o700
