"""Conversation turn speed: process CPU time of one `Conversation.send` (rules backend, templated reply),
for realistic first turns and a second-turn correction.

Why: issue 5's web goal (50 concurrent sessions, p95 under 1 s per reply on 2 cores) needs a chat turn of
roughly 40 ms CPU or less. Each sample is a fresh Conversation (the correction turn: a conversation that has
had its first turn, timed on the second). Median of several runs; CPU time is the steadier figure on a shared
machine. The conversation's per-process caches (recommendations by profile, calculator results by their
inputs) are emptied at the start of every sample, so a timed turn reuses only what its own conversation's
earlier turns computed, as in a server that has seen nothing else; `--warm` keeps them, so a repeated
profile is served from the cache (a turn that changes nothing, e.g. "send me the PDF").
`--gc-freeze` calls gc.freeze() after start-up (what a server can do once its imports and catalog are
loaded: the collector then skips those objects), to show what the cyclic garbage collector costs.
Prints figures; asserts nothing.
Run: .venv/bin/python bench/turn_speed.py [--runs N] [--warm] [--gc-freeze]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

TURN_GOAL_MS = 40.0

TURNS: list[tuple[str, list[str]]] = [
    ("qlora 70B, S3, Friday, $5k", ["QLoRA Llama 3 70B on our 500 GB corpus in S3, need it by Friday, ~$5k"]),
    ("lora mistral 7B, 3 epochs, $500", ["LoRA Mistral 7B, 3 epochs, budget $500"]),
    (
        "serve 70B, 200 users, 8k, EU",
        ["serve Llama 3.1 70B to 200 concurrent users with 8k context, EU only"],
    ),
    (
        "correction: actually 8 epochs",
        ["LoRA Mistral 7B, 3 epochs, budget $500", "actually 8 epochs"],
    ),
    (  # bench/web_load.py's script: the second and third messages each change the profile
        "web_load: 8B LoRA 50M tok, then budget",
        [
            "We want to fine-tune a model for our support team",
            "Llama 3 8B with LoRA on 50M tokens, 2 epochs",
            "our budget is $2,000",
        ],
    ),
]


def _clear_caches() -> None:
    try:
        from advisor.service import recommending

        clear = getattr(recommending, "clear_recommendation_cache", None)
        if clear is not None:
            clear()
    except ImportError:  # pragma: no cover
        pass


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--warm", action="store_true", help="keep the recommendation cache between samples")
    ap.add_argument("--gc-freeze", action="store_true", help="gc.freeze() after start-up")
    args = ap.parse_args()

    from advisor.conversation import Conversation

    Conversation().send(TURNS[0][1][0])  # warm imports and the catalog
    if args.gc_freeze:
        gc.collect()
        gc.freeze()
    worst = 0.0
    cache = "warm" if args.warm else "cold"
    gc_note = ", gc.freeze() after start-up" if args.gc_freeze else ""
    print(f"per-turn CPU time, median of {args.runs} ({cache} recommendation cache{gc_note})")
    for name, messages in TURNS:
        cpu: list[float] = []
        wall: list[float] = []
        for _ in range(args.runs):
            if not args.warm:
                _clear_caches()
            conv = Conversation()
            for m in messages[:-1]:
                conv.send(m)
            w0, c0 = time.perf_counter(), time.process_time()
            conv.send(messages[-1])
            cpu.append((time.process_time() - c0) * 1000)
            wall.append((time.perf_counter() - w0) * 1000)
        med = statistics.median(cpu)
        worst = max(worst, med)
        print(
            f"  {name:34s} cpu {med:7.1f} ms (min {min(cpu):.1f}, max {max(cpu):.1f})  "
            f"wall {statistics.median(wall):7.1f} ms"
        )
    verdict = "meets" if worst < TURN_GOAL_MS else "misses"
    print(f"worst median {worst:.1f} ms: {verdict} the ~{TURN_GOAL_MS:.0f} ms per-turn goal")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
