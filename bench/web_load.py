"""Load on the web API: N concurrent chat sessions against a server on loopback.

Starts its own server (uvicorn, rules backend, a throwaway SQLite database, rate limits raised for
the run) unless --url points at one, drives `--sessions` concurrent sessions with an httpx async
client, each sending a short scripted conversation, and prints reply latency percentiles (p50, p95,
p99), errors and the server's CPU seconds per reply (user + system time of the server process and its
children, the turn workers, over the measured part; psutil, or /proc on Linux; only for a server it
started). Bounded: at most sessions x messages requests, and everything stops after --max-seconds
(requests not sent by then are reported as not run; about a minute with the defaults on 2 cores).
Report rendering is excluded (no report is requested).

Goal (issue 5): no errors and p95 under 1 s per reply with the rules backend.

The started server computes turns as `gpu-advisor serve` does: in GPU_ADVISOR_TURN_PROCESSES worker
processes per uvicorn worker (default one per CPU; set it to 0 to compute them in the web process).

    .venv/bin/python bench/web_load.py                       # 50 sessions x 3 messages, no think time
    .venv/bin/python bench/web_load.py --think-s 5 --workers 2
    .venv/bin/python bench/web_load.py --url http://127.0.0.1:8000 --sessions 10
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

MODELS = ("Llama 3 8B", "Mistral 7B", "Llama 3 70B", "Qwen2.5 14B", "Llama 3.1 8B")
METHODS = ("LoRA", "QLoRA", "full fine-tuning")


def script(i: int) -> list[str]:
    """A short conversation, different per session so no two profiles are the same."""
    rng = random.Random(i)
    model, method = MODELS[i % len(MODELS)], METHODS[(i // len(MODELS)) % len(METHODS)]
    tokens = rng.choice((20, 50, 100, 200, 500))
    return [
        "We want to fine-tune a model for our support team",
        f"{model} with {method} on {tokens}M tokens, {rng.randint(1, 4)} epochs",
        f"our budget is ${rng.randint(5, 60) * 100:,}",
    ]


@dataclass
class Results:
    latencies_s: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    not_run: int = 0


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(-(-q * len(ordered) // 100))))
    return ordered[rank - 1]


async def one_session(
    client: httpx.AsyncClient, i: int, think_s: float, deadline: float, out: Results
) -> None:
    messages = script(i)
    if time.monotonic() > deadline:
        out.not_run += len(messages)
        return
    try:
        r = await client.post("/api/sessions")
        r.raise_for_status()
    except Exception as exc:
        out.errors.append(f"session {i}: create: {exc!r}"[:200])
        out.not_run += len(messages)
        return
    sid, token = r.json()["session_id"], r.json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    rng = random.Random(1000 + i)
    for n, text in enumerate(messages):
        if think_s > 0:
            await asyncio.sleep(rng.uniform(0.5, 1.5) * think_s)
        if time.monotonic() > deadline:
            out.not_run += len(messages) - n
            return
        t0 = time.perf_counter()
        try:
            r = await client.post(f"/api/sessions/{sid}/messages", json={"text": text}, headers=headers)
        except Exception as exc:
            out.errors.append(f"session {i} message {n}: {exc!r}"[:200])
            continue
        elapsed = time.perf_counter() - t0
        if r.status_code != 200 or not r.json().get("reply"):
            out.errors.append(f"session {i} message {n}: HTTP {r.status_code} {r.text[:120]}")
        else:
            out.latencies_s.append(elapsed)


async def drive(url: str, sessions: int, think_s: float, max_seconds: float) -> tuple[Results, float]:
    out = Results()
    deadline = time.monotonic() + max_seconds
    limits = httpx.Limits(max_connections=sessions + 5, max_keepalive_connections=sessions + 5)
    async with httpx.AsyncClient(base_url=url, timeout=max_seconds, limits=limits) as client:
        t0 = time.perf_counter()
        tasks = [asyncio.create_task(one_session(client, i, think_s, deadline, out)) for i in range(sessions)]
        done, pending = await asyncio.wait(tasks, timeout=max_seconds + 5)
        for task in pending:  # stop ourselves: whatever is still running is abandoned
            task.cancel()
        wall = time.perf_counter() - t0
    return out, wall


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(workers: int, data_dir: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = dict(os.environ)
    env.update(
        GPU_ADVISOR_DATA_DIR=str(data_dir),
        GPU_ADVISOR_BACKEND="rules",
        GPU_ADVISOR_RATE_SESSION="100000",
        GPU_ADVISOR_RATE_CLIENT="100000",
        GPU_ADVISOR_RATE_NEW_SESSIONS="100000",
        GPU_ADVISOR_LOG_LEVEL="warning",
    )
    env.pop("DATABASE_URL", None)
    cmd = [sys.executable, "-m", "uvicorn", "advisor.web.app:app_from_env", "--factory",
           "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers), "--log-level", "warning"]
    proc = subprocess.Popen(cmd, env=env, cwd=Path(__file__).resolve().parents[1])
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited with {proc.returncode}")
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    proc.terminate()
    raise SystemExit("server did not start in 60 s")


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of process `pid` and all its living descendants (psutil if installed,
    else /proc on Linux); None where neither can say."""
    try:
        import psutil  # lazy: optional, only this bench needs it

        root = psutil.Process(pid)
        total = 0.0
        for proc in [root, *root.children(recursive=True)]:
            try:
                t = proc.cpu_times()
                total += t.user + t.system
            except psutil.Error:  # a child that exited meanwhile
                continue
        return total
    except ImportError:
        return _proc_cpu_seconds(pid)
    except Exception:  # the server itself is gone
        return None


def _proc_cpu_seconds(pid: int) -> float | None:
    """The /proc fallback of cpu_seconds: utime + stime of `pid` and its descendants (Linux)."""
    proc = Path("/proc")
    if not proc.is_dir():
        return None
    tick = os.sysconf("SC_CLK_TCK")
    parent: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for d in proc.iterdir():
        if not d.name.isdigit():
            continue
        try:
            fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(d.name)] = int(fields[1])
        ticks[int(d.name)] = int(fields[11]) + int(fields[12])
    tree, frontier = {pid}, [pid]
    while frontier:
        p = frontier.pop()
        for child, par in parent.items():
            if par == p and child not in tree:
                tree.add(child)
                frontier.append(child)
    if pid not in ticks:
        return None
    return sum(ticks.get(p, 0) for p in tree) / tick


def warm_up(url: str, workers: int) -> None:
    """One conversation per worker first, so imports and catalog loading are not measured."""
    with httpx.Client(base_url=url, timeout=60) as c:
        for i in range(workers * 2):
            s = c.post("/api/sessions").json()
            h = {"Authorization": f"Bearer {s['token']}"}
            for text in script(10_000 + i):
                c.post(f"/api/sessions/{s['session_id']}/messages", json={"text": text}, headers=h)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--url", help="an already running server (default: start one)")
    p.add_argument("--sessions", type=int, default=50, help="concurrent sessions (default 50)")
    p.add_argument("--think-s", type=float, default=0.0, help="mean pause before each message (default 0)")
    p.add_argument("--workers", type=int, default=1, help="uvicorn workers of the started server")
    p.add_argument("--max-seconds", type=float, default=90.0, help="stop after this long (default 90)")
    args = p.parse_args(argv)
    if not 1 <= args.sessions <= 500:
        p.error("--sessions must be 1..500")

    proc = None
    tmp = tempfile.TemporaryDirectory(prefix="gpu-advisor-load-")
    try:
        url = args.url
        if url is None:
            proc, url = start_server(args.workers, Path(tmp.name))
        warm_up(url, args.workers)
        cpu_before = cpu_seconds(proc.pid) if proc is not None else None
        client_before = resource.getrusage(resource.RUSAGE_SELF)
        out, wall = asyncio.run(drive(url, args.sessions, args.think_s, args.max_seconds))
        client_after = resource.getrusage(resource.RUSAGE_SELF)
        cpu_after = cpu_seconds(proc.pid) if proc is not None else None
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        tmp.cleanup()

    lat = out.latencies_s
    print(f"sessions {args.sessions}, messages per session {len(script(0))}, think {args.think_s:g} s, "
          f"server workers {args.workers if args.url is None else '?'}, cpus {os.cpu_count()}")
    print(f"replies ok {len(lat)}, errors {len(out.errors)}, not run (time bound) {out.not_run}, "
          f"wall {wall:.1f} s, {len(lat) / wall if wall else 0:.1f} replies/s")
    if lat:
        ms = {q: percentile(lat, q) * 1000 for q in (50, 95, 99)}
        print(f"reply latency: p50 {ms[50]:.0f} ms, p95 {ms[95]:.0f} ms, p99 {ms[99]:.0f} ms, "
              f"max {max(lat) * 1000:.0f} ms")
        if cpu_before is not None and cpu_after is not None:
            cpu_s = cpu_after - cpu_before
            print(f"server CPU: {cpu_s:.1f} s over the run, {cpu_s / len(lat) * 1000:.0f} ms per reply "
                  f"(server process and its turn workers, user + system)")
        else:
            print("server CPU: not measured (a server this bench did not start)")
        client_s = sum(getattr(client_after, f) - getattr(client_before, f) for f in ("ru_utime", "ru_stime"))
        print(f"load generator CPU: {client_s:.1f} s (this process, on the same cores as the server)")
        goal = not out.errors and percentile(lat, 95) < 1.0
        print(f"goal (no errors, p95 < 1 s): {'met' if goal else 'not met'}")
    for e in out.errors[:5]:
        print("error:", e)
    return 0 if not out.errors else 1


if __name__ == "__main__":
    raise SystemExit(main())
