"""A brief with a training and a serving section (issue 12): the profile is the training part, the reply
and the report name the serving part and how to ask for it, and "now the serving part" switches to it
with the serving section's own facts (advisor/extract/workloads.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.conversation import Conversation
from advisor.extract.workloads import part_of, switch_request
from advisor.ingest import read_brief
from advisor.service.profiles import read_request
from advisor.service.reports import write_report
from tools.input_account import InputAccount

BRIEFS = Path(__file__).resolve().parents[2] / "evals" / "cases_v2" / "dev" / "briefs"
ATLAS = BRIEFS / "atlas_two_workloads.pdf"  # training: LoRA 70B, 1.2B tokens; serving: 300 users, 32k
SERVING_LINE = "Your brief also describes serving (300 users, 32,768-token context)"
TRAINING_LINE = "Your brief also describes training (LoRA, 1.2B tokens, 2 epochs)"


@pytest.mark.parametrize(
    ("text", "part", "rest"),
    [
        ("now the serving part", "serving", ""),
        ("size the serving part", "serving", ""),
        ("What about the inference side?", "serving", ""),
        ("ok, back to the training part please", "training", "ok"),
        ("now the serving part, with 8k context", "serving", "with 8k context"),
        ("we serve 300 users", None, "we serve 300 users"),
        ("the serving section says 300 users", None, "the serving section says 300 users"),  # a fact
        ("the serving part?", "serving", ""),
    ],
)
def test_switch_requests(text: str, part: str | None, rest: str) -> None:
    assert switch_request(text) == (part, rest)


def test_a_two_workload_brief_sizes_training_and_names_serving() -> None:
    conv = Conversation()
    turn = conv.send("", brief_text=read_brief(ATLAS))
    p = turn.profile
    assert (p.workload, p.method, p.seq_len, p.concurrency, p.context_len) == (
        "fine_tuning", "lora", 4096, None, None)  # fmt: skip
    assert SERVING_LINE in turn.reply and "ask 'size the serving part'" in turn.reply
    other = turn.input_account.other_workload if turn.input_account else None
    assert other is not None and part_of(other) == "serving"
    assert (other.concurrency, other.context_len, other.model_id) == (300, 32768, "llama-3.1-70b")
    assert other.provenance["model_id"].status == "inferred"  # the trained model, said so
    assert other.method is None and other.dataset_tokens is None
    # the serving clauses were read (for the other workload): not listed as unused numbers
    assert not any("300 concurrent users" in c.text for c in turn.input_account.unused)


def test_now_the_serving_part_switches_and_back_again() -> None:
    conv = Conversation()
    conv.send("", brief_text=read_brief(ATLAS))
    state = json.loads(json.dumps(conv.state))  # persisted between requests (web, Slack)
    conv = Conversation.from_state(state)
    serving = conv.send("now the serving part")
    p = serving.profile
    assert (p.workload, p.concurrency, p.context_len, p.seq_len, p.method) == (
        "inference", 300, 32768, None, None)  # fmt: skip
    assert serving.recommendation is not None and serving.recommendation.primary is not None
    assert "Now sizing the serving part" in serving.reply and TRAINING_LINE in serving.reply
    assert "concurrent requests 300" in serving.reply  # 'I understood' lists the serving facts
    back = conv.send("back to the training part")
    b = back.profile
    assert (b.workload, b.seq_len, b.concurrency) == ("fine_tuning", 4096, None)
    assert SERVING_LINE in back.reply


def test_a_switch_with_no_other_part_says_so() -> None:
    conv = Conversation()
    conv.send("LoRA Llama 3.1 8B on 50M tokens")
    turn = conv.send("now the serving part")
    assert "no separate serving part" in turn.reply and turn.profile.workload == "fine_tuning"


def test_the_report_names_the_other_part_or_sizes_it(tmp_path: Path) -> None:
    profile, description, account = read_request(None, ATLAS, "rules")
    assert profile.workload == "fine_tuning" and account.other_workload is not None
    out = write_report(profile, tmp_path / "r.md", description=description, input_account=account)
    text = out.read_text()
    assert SERVING_LINE in text and "ask 'size the serving part'" in text
    profile, description, account = read_request("size the serving part", ATLAS, "rules")
    assert (profile.workload, profile.concurrency, profile.context_len) == ("inference", 300, 32768)
    text = write_report(profile, tmp_path / "s.md", input_account=account).read_text()
    assert "inference" in text.splitlines()[0] and TRAINING_LINE in text


def test_one_workload_briefs_are_read_as_before() -> None:
    conv = Conversation()
    turn = conv.send("", brief_text=read_brief(BRIEFS / "claims_copilot_serving.docx"))
    assert turn.profile.workload == "inference" and turn.profile.concurrency == 120
    assert isinstance(turn.input_account, InputAccount) and turn.input_account.other_workload is None
    assert "also describes" not in turn.reply


def test_a_generation_job_then_training_on_its_output_is_two_workloads() -> None:
    c = Conversation(explain=False)
    t = c.send(
        "We'd like to distill Llama 3.1 405B into an 8B student: generate 50M tokens of synthetic data with "
        "the 405B first (in under 3 days), then full fine-tune the 8B on it for 3 epochs."
    )
    p = t.profile
    assert (p.workload, p.method, p.params_b, p.epochs) == ("fine_tuning", "full", 8.0, 3.0)
    assert p.dataset_tokens == 50e6  # trained "on it": the generated output
    assert "a batch generation job (50M tokens to generate, with llama-3.1-405b)" in t.reply
    t = c.send("size the generation job")
    g = t.profile
    assert (g.workload, g.model_id, g.generation_tokens) == ("inference", "llama-3.1-405b", 50e6)
    assert g.deadline_hours == 72.0


def test_generating_then_serving_is_not_split_as_training() -> None:
    c = Conversation(explain=False)
    t = c.send("Generate 20M tokens of product copy with Llama 3.1 70B, then we'll review it by hand.")
    assert t.profile.workload == "inference" and t.profile.generation_tokens == 20e6
