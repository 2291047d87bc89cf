"""Number of LLM requests per user-visible task with the openai backend (goal: a one-shot brief -> report
in at most 2 calls).

Runs offline: the requests go to advisor.llm.testing.FakeOpenAIServer on 127.0.0.1, which answers
structured-output requests with an extraction and chat requests with a short explanation, and counts
them. The real openai client, langchain-openai, extractor, recommender and report renderer run.

    .venv/bin/python bench/llm_calls.py
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

GOAL_ONE_SHOT_CALLS = 2
BRIEF = """# Fine-tuning brief: contract-review assistant

We want to QLoRA fine-tune Llama 3.1 70B on 1B tokens of contracts, 3 epochs, 4k context.
The data sits in S3 (us-east-1). Budget: $5k. We need it within two weeks.
"""


def _answer(body: dict[str, Any]) -> Any:
    from advisor.llm.testing import json_reply, kind_of, text

    if kind_of(body) == "structured":
        return json_reply(
            {"data_region": "us-east-1", "evidence": [{"field": "data_region", "quote": "us-east-1"}]}
        )
    return text("The primary pick fits the workload; the alternatives trade speed for price.")


def main() -> int:
    from advisor.llm.testing import FakeOpenAIServer

    os.environ.pop("OPENAI_API_KEY", None)
    os.environ["GPU_ADVISOR_LLM_MAX_RETRIES"] = "0"
    rows: list[tuple[str, int, float]] = []
    with FakeOpenAIServer(default=_answer) as server, tempfile.TemporaryDirectory() as tmp:
        os.environ["OPENAI_BASE_URL"] = server.url
        brief = Path(tmp) / "brief.md"
        brief.write_text(BRIEF, encoding="utf-8")

        def measure(label: str, fn: Any) -> None:
            before = len(server.requests)
            t0 = time.perf_counter()
            fn()
            rows.append((label, len(server.requests) - before, time.perf_counter() - t0))

        from advisor.api import ask, ask_turn
        from advisor.conversation import Conversation
        from advisor.service.profiles import profile_from_text_or_brief
        from advisor.service.reports import write_report

        def one_shot_report() -> None:
            profile = profile_from_text_or_brief(None, brief, "openai")
            write_report(profile, Path(tmp) / "report.pdf")

        measure("report --brief FILE -> PDF (one shot)", one_shot_report)
        measure('ask "TEXT" --format json', lambda: ask(BRIEF, backend="openai"))
        measure(
            'ask "TEXT" (text, with explanation)', lambda: ask_turn(BRIEF, backend="openai", explain=True)
        )

        def chat_turns() -> None:
            conv = Conversation(backend="openai")
            conv.send(BRIEF)
            conv.send("actually 2 epochs")

        measure("chat: two turns", chat_turns)

    print(f"{'task':<42} {'LLM calls':>9} {'seconds':>8}")
    for label, calls, secs in rows:
        print(f"{label:<42} {calls:>9} {secs:>8.2f}")
    one_shot = rows[0][1]
    ok = one_shot <= GOAL_ONE_SHOT_CALLS
    verdict = "met" if ok else "NOT met"
    print(f"one-shot brief -> report: {one_shot} LLM call(s) (goal <= {GOAL_ONE_SHOT_CALLS}: {verdict})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
