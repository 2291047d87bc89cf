"""A real PostgreSQL server for the store tests, started from Debian's postgresql binaries."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """postgresql+psycopg URL of a throwaway server; skips (with the reason) when it cannot start."""
    bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not bins:
        pytest.skip(
            "PostgreSQL server binaries not installed (Debian package 'postgresql'; make test installs it)"
        )
    bindir = Path(bins[-1]).parent
    # Not under pytest's tmp dir: that is private to root, and the server runs as 'postgres'.
    root = Path(tempfile.mkdtemp(prefix="gpu-advisor-pg-"))
    datadir, sockdir = root / "data", root / "sock"
    sockdir.mkdir()
    prefix: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root: run it as the postgres user
        if shutil.which("runuser") is None:
            pytest.skip("running as root without runuser: cannot start PostgreSQL as another user")
        prefix = ["runuser", "-u", "postgres", "--"]
        shutil.chown(root, "postgres")
        shutil.chown(sockdir, "postgres")
    port = _free_port()
    init = subprocess.run(
        [*prefix, str(bindir / "initdb"), "-D", str(datadir), "-A", "trust", "-U", "postgres", "--no-sync"],
        capture_output=True,
        text=True,
    )
    if init.returncode != 0:
        pytest.skip(f"initdb failed: {init.stderr.strip()[:200]}")
    opts = f"-p {port} -k {sockdir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
    start = subprocess.run(
        [
            *prefix,
            str(bindir / "pg_ctl"),
            "-D",
            str(datadir),
            "-o",
            opts,
            "-l",
            str(root / "log"),
            "-w",
            "start",
        ],
        capture_output=True,
        text=True,
    )
    if start.returncode != 0:
        pytest.skip(f"PostgreSQL did not start: {start.stderr.strip()[:200]}")
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*prefix, str(bindir / "pg_ctl"), "-D", str(datadir), "-m", "immediate", "stop"],
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)
