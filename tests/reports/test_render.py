"""Report rendering: the PDF's text carries the engine's figures, user text is escaped, every format
carries the same numbers, and an infeasible workload gets a report that says what would make it work."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from reports.html import render_html
from reports.json_report import report_json
from reports.labels import option_title
from reports.markdown import render_markdown
from reports.render import render_report
from reports.view import build_context
from tools import present as f
from tools.errors import InputError
from tools.input_account import InputAccount, UnusedClause
from tools.profile import Provenance
from tools.recommend.models import Recommendation, recommendation_json


def pdf_text(path: Path) -> str:
    from pypdf import PdfReader

    text = " ".join(page.extract_text() or "" for page in PdfReader(str(path)).pages)
    return " ".join(text.split())


def flat(s: str) -> str:
    return " ".join(s.split())


def test_infeasible_pdf_says_so_and_what_would_help(
    infeasible_handmade: Recommendation, tmp_path: Path
) -> None:
    text = pdf_text(render_report(infeasible_handmade, "pdf", tmp_path / "inf.pdf"))
    assert "no feasible configuration" in text.lower()
    assert "Nothing in the catalog can run this workload as described" in text
    for advice in infeasible_handmade.infeasible_advice:
        assert flat(advice) in text
    assert "needs 1,953 GiB per GPU" in text


def test_html_escapes_user_text(handmade_rec: Recommendation) -> None:
    evil = "<script>alert('x')</script> & <b>bold</b>"
    prof = handmade_rec.profile
    prov = dict(prof.provenance)
    prov["workload"] = Provenance(status="stated", evidence=evil)
    rec = handmade_rec.model_copy(update={"profile": prof.model_copy(update={"provenance": prov})})
    html = render_html(rec)
    assert "<script>" not in html
    assert "&lt;script&gt;" in html and "&lt;b&gt;bold&lt;/b&gt;" in html
    md = render_markdown(rec)
    assert "<script>" not in md


def test_markdown_carries_the_same_numbers(handmade_rec: Recommendation) -> None:
    md = render_markdown(handmade_rec)
    p = handmade_rec.primary
    assert p is not None
    assert f"**Recommended configuration: {option_title(p)}**" in md
    assert f.usd_range(p.cost_usd) in md
    for scenario in p.tco:
        assert f.usd_range(scenario.total_usd) in md
    assert "## 8. Calculation appendix" in md
    assert "flops = 6 × params × tokens × epochs" in md
    # every table row has as many cells as its header
    for block in re.findall(r"((?:^\|.*\|\n)+)", md, flags=re.M):
        lines = [ln for ln in block.splitlines() if ln.strip()]
        widths = {len(re.split(r"(?<!\\)\|", ln)) for ln in lines}
        assert len(widths) == 1, block


def test_json_is_recommendation_json_plus_profile_and_trace(
    handmade_rec: Recommendation, tmp_path: Path
) -> None:
    out = render_report(handmade_rec, "json", tmp_path / "r.json")
    data = json.loads(out.read_text())
    assert data["recommendation"] == json.loads(json.dumps(recommendation_json(handmade_rec)))
    assert data["profile"]["model_id"] == "llama-3-70b"
    assert data["profile"]["provenance"]["dataset_tokens"]["status"] == "inferred"
    assert [s["step"] for s in data["trace"]] == [s.step for s in handmade_rec.trace]
    assert data["trace"][0]["output"] == pytest.approx(1.26e21)  # unrounded
    assert {a["name"] for a in data["assumptions"]} == {"headroom_fraction", "egress_usd_per_gb"}
    assert report_json(handmade_rec)["recommendation"]["primary"]["cost_usd"]["low"] == pytest.approx(991.2)


def test_context_lists_each_assumption_once_and_flags_pick_changers(handmade_rec: Recommendation) -> None:
    dup = handmade_rec.model_copy(update={"assumptions": handmade_rec.assumptions * 2})
    ctx = build_context(dup)
    names = [a["name"] for a in ctx["assumptions"]]
    assert len(names) == len(set(names)) == 2
    assert ctx["sensitivity"][0]["changes"] is True  # pick-changers first
    assert "aws-sagemaker" in ctx["what_changes"][0]
    assert "1× H100 SXM 80GB" in ctx["what_changes"][0]  # an option key shown as words
    statuses = {r["key"]: r["status"] for r in ctx["profile_rows"]}
    assert statuses["seq_len"] == "assumed" and statuses["dataset_tokens"] == "inferred"


def test_charts_are_well_formed_svg(handmade_rec: Recommendation) -> None:
    rec = handmade_rec.model_copy(
        update={"profile": handmade_rec.profile.model_copy(update={"deadline_hours": 500})}
    )
    ctx = build_context(rec)
    assert "deadline 500 h" in ctx["time_chart"]  # the limit line is labelled
    assert build_context(handmade_rec)["time_chart"] == ""  # no deadline: the table says it all
    for key in ("memory_chart", "cost_chart", "time_chart"):
        root = ET.fromstring(ctx[key])
        assert root.tag.endswith("svg")
        assert root.findall(".//{http://www.w3.org/2000/svg}text"), key  # direct labels


def test_bad_format_and_missing_folder(handmade_rec: Recommendation, tmp_path: Path) -> None:
    with pytest.raises(InputError, match="unknown report format"):
        render_report(handmade_rec, "docx", tmp_path / "r.docx")
    with pytest.raises(InputError, match="does not exist"):
        render_report(handmade_rec, "md", tmp_path / "nope" / "r.md")


def test_appendix_leaves_out_steps_of_gpus_not_shown(handmade_rec: Recommendation) -> None:
    from tools.trace import TraceStep

    extra = (
        TraceStep(step="owned a100-40gb: usd_per_gpu_hour", formula="capex / hours + power", output=1.1),
        TraceStep(step="owned h100-sxm: usd_per_gpu_hour", formula="capex / hours + power", output=2.2),
    )
    rec = handmade_rec.model_copy(update={"trace": handmade_rec.trace + extra})
    ctx = build_context(rec)
    steps = [r["step"] for r in ctx["trace"]]
    assert "owned h100-sxm: usd_per_gpu_hour" in steps  # the shown GPU keeps its steps
    assert "owned a100-40gb: usd_per_gpu_hour" not in steps and ctx["trace_left_out"] == 1
    assert ctx["trace"][-1]["n"] == len(rec.trace)  # numbered as in the JSON trace
    assert len(report_json(rec)["trace"]) == len(rec.trace)  # the JSON keeps every step


def test_serving_profile_gets_a_serving_class_whatever_the_engine_says(handmade_rec: Recommendation) -> None:
    """A recommendation for an inference profile that carries a training class (older engines did) is
    still summarised as serving, without the training-class thresholds in the assumptions."""
    from tools.trace import Assumption

    prof = handmade_rec.profile.model_copy(update={"workload": "inference"})
    rec = handmade_rec.model_copy(
        update={
            "profile": prof,
            "workload_class": "fine-tuning (fine-tuning-class infrastructure)",
            "assumptions": (
                *handmade_rec.assumptions,
                Assumption(name="fine_tuning_max_tokens", value=1e10, unit="tokens", source="seed 000"),
            ),
        }
    )
    ctx = build_context(rec)
    assert ctx["workload_class"] == "inference (serving)"
    assert all("fine tuning max" not in a["name"] for a in ctx["assumptions"])
    trained = build_context(
        handmade_rec.model_copy(update={"workload_class": "fine-tuning (fine-tuning-class infrastructure)"})
    )
    assert trained["workload_class"] == "fine-tuning (fine-tuning-class infrastructure)"


def test_workload_section_lists_what_the_request_did_not_use(
    handmade_rec: Recommendation, tmp_path: Path
) -> None:
    spot = "no <b>spot</b> instances ever"
    account = InputAccount(
        used=("QLoRA Llama 3 70B",),
        unused=(UnusedClause(text=spot, kind="constraint"), UnusedClause(text="Thanks!", kind="decorative")),
    )
    md = render_markdown(handmade_rec, input_account=account)
    section = md.split("The workload as understood", 1)[1].split("| Field |", 1)[0]
    assert "I did not use:" in section and "instances ever': it looks like a constraint" in section
    assert "- 1 other sentence with no workload facts" in section
    html = render_html(handmade_rec, input_account=account)
    assert "no &lt;b&gt;spot&lt;/b&gt; instances ever&#39;: it looks like a constraint" in html
    out = render_report(handmade_rec, "json", tmp_path / "r.json", input_account=account)
    assert json.loads(out.read_text())["input_account"]["unused"][0] == {"text": spot, "kind": "constraint"}
    assert "did not use" not in render_markdown(handmade_rec)
