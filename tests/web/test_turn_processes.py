"""Turns computed in worker processes (GPU_ADVISOR_TURN_PROCESSES) answer exactly as the web process does.

Why: a turn is CPU-bound Python and one process computes one at a time under the interpreter lock, so
`gpu-advisor serve` computes the rules backend's turns in one worker process per CPU (issue 5's load
goal). Moving the computation must change nothing a user sees or the database keeps.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from advisor.web.settings import WebSettings
from advisor.web.turn_workers import TurnProcesses

from .conftest import new_api

SCRIPT = [
    "We want to fine-tune a model for our support team",
    "Llama 3 8B with LoRA on 50M tokens, 2 epochs",
    "our budget is $2,000",
]


def _turns(client: Any) -> list[dict[str, Any]]:
    api = new_api(client)
    out = []
    for text in SCRIPT:
        r = api.say(text)
        assert r.status_code == 200, r.text
        view = r.json()
        out.append({k: v for k, v in view.items() if k not in ("message_id", "reply_to")})
    stored = api.get("/recommendation").json()
    out.append(stored)
    return out


def test_turns_in_worker_processes_match_the_web_process(make_client: Callable[..., Any]) -> None:
    here = make_client(settings=WebSettings(render_in_subprocess=False, turn_processes=0))
    assert here.app.state.turn_processes is None
    pooled = make_client(settings=WebSettings(render_in_subprocess=False, turn_processes=2))
    assert isinstance(pooled.app.state.turn_processes, TurnProcesses)
    assert _turns(pooled) == _turns(here)


def test_turn_processes_default_one_per_cpu_for_the_rules_backend() -> None:
    import os

    assert WebSettings.from_env({}).turn_processes == (os.cpu_count() or 1)
    assert WebSettings.from_env({"GPU_ADVISOR_TURN_PROCESSES": "0"}).turn_processes == 0
    assert WebSettings.from_env({"GPU_ADVISOR_BACKEND": "openai"}).turn_processes == 0
    assert WebSettings().turn_processes == 0  # an app built in code computes turns in-process


def test_sessions_stay_with_their_worker_unless_it_is_far_busier() -> None:
    from types import SimpleNamespace

    pool = TurnProcesses(2, "rules")  # no process started: _pick reads queue lengths only
    pool._workers = [SimpleNamespace(queued=0), SimpleNamespace(queued=0)]  # type: ignore[list-item]
    home = pool._pick("session-a")
    assert pool._pick("session-b") == 1 - home  # new sessions alternate between equally busy workers
    assert pool._pick("session-a") == home and pool._pick("session-b") == 1 - home
    pool._workers[home].queued = TurnProcesses.REBALANCE_AFTER - 1  # type: ignore[union-attr]
    assert pool._pick("session-a") == home
    pool._workers[home].queued = TurnProcesses.REBALANCE_AFTER  # type: ignore[union-attr]
    assert pool._pick("session-a") == 1 - home
    pool._workers[home].queued = 0  # type: ignore[union-attr]
    assert pool._pick("session-a") == 1 - home  # its caches are now on the worker of its last turn


def test_a_worker_that_died_is_started_again(make_client: Callable[..., Any]) -> None:
    client = make_client(settings=WebSettings(render_in_subprocess=False, turn_processes=1))
    pool = client.app.state.turn_processes
    api = new_api(client)
    assert api.say(SCRIPT[0]).status_code == 200
    worker = pool._workers[0]
    worker.proc.kill()
    worker.proc.join(5)
    r = api.say(SCRIPT[1])
    assert r.status_code == 200, r.text
    assert r.json()["recommendation"]["primary"] is not None
    assert pool._workers[0] is not worker
