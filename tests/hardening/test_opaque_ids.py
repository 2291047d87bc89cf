"""Issue 17: message ids were one global counter (a user could read how many messages everyone sent);
every id the API shows is now opaque: 16 URL-safe characters, unrelated to the database's counter or the
order, valid in its own session only."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from advisor.store import open_repository
from advisor.web.app import create_app
from advisor.web.settings import WebSettings
from tests.web.conftest import new_api

OPAQUE = re.compile(r"^[A-Za-z0-9_-]{16}$")


def test_message_ids_reveal_nothing_and_work_in_their_session_only(tmp_path: Path) -> None:
    repo = open_repository(f"sqlite:///{tmp_path / 'db.sqlite'}")
    settings = WebSettings(render_in_subprocess=False, turn_processes=0)
    with TestClient(create_app(repo=repo, reports_dir=tmp_path / "reports", settings=settings)) as client:
        first, second = new_api(client), new_api(client)
        turn = first.say("LoRA Llama 3 8B on 20M tokens").json()
        first.say("3 epochs")
        second.say("QLoRA Llama 3 70B")
        shown = first.get("/messages").json()
        ids = [m["id"] for m in shown] + [m["id"] for m in second.get("/messages").json()]
        assert all(isinstance(i, str) and OPAQUE.match(i) and not i.isdigit() for i in ids), ids
        assert len(set(ids)) == len(ids) == 6
        assert (turn["reply_to"], turn["message_id"]) == (shown[0]["id"], shown[1]["id"])
        assert shown[1]["reply_to"] == shown[0]["id"]
        internal = [m.id for m in repo.messages(first.session_id)]
        assert not set(map(str, internal)) & set(ids)  # the counter shows nowhere
        assert first.get().json()["turn"]["reply_to"] == shown[2]["id"]
        # a stored, unanswered message retried by its public id; another session's id is not found
        lost_id, _snap = repo.add_user_message_snapshot(first.session_id, "4 epochs")
        lost = first.get("/messages").json()[-1]
        assert lost["answered"] is False and lost["id"] != str(lost_id)
        assert second.post(f"/messages/{lost['id']}/retry").status_code == 404
        assert first.post(f"/messages/{lost_id}/retry").status_code in (404, 422)  # the counter: no
        retried = first.post(f"/messages/{lost['id']}/retry")
        assert retried.status_code == 200 and retried.json()["reply_to"] == lost["id"]
