"""`gpu-advisor report`: profile YAML errors are one line naming the field (exit 2); the command writes
the report file in the asked format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.cli import main
from advisor.service.profiles import load_profile, profile_from_mapping
from advisor.service.reports import resolve_format
from tools.errors import InputError


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("yaml_text", "field"),
    [
        ("model_id: llama-3-70b\nepochs: three\n", "epochs"),
        ("model_id: llama-3-70b\nepoch: 3\n", "epoch"),
        ("model_id: llama-3-70b\nmethod: qlora4\n", "method"),
        ("profile:\n  eu_only: maybe\n", "eu_only"),
        ("model_id: x\nprovenance:\n  epochs: {status: guessed}\n", "provenance.epochs"),
        ("settings:\n  headroom_fraction: 2\nmodel_id: x\n", "headroom_fraction"),
    ],
)
def test_bad_profile_exits_2_naming_the_field(
    yaml_text: str, field: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prof = tmp_path / "p.yaml"
    prof.write_text(yaml_text)
    code, _out, err = run(["report", "--profile", str(prof), "-o", str(tmp_path / "r.pdf")], capsys)
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1, err  # one line, no traceback
    assert field in err
    assert not (tmp_path / "r.pdf").exists()


def test_unknown_field_suggests_the_closest(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"unknown field 'epoch' \(did you mean 'epochs'\?\)"):
        profile_from_mapping({"epoch": 3})


def test_missing_profile_and_yaml_syntax(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _o, err = run(
        ["report", "--profile", str(tmp_path / "none.yaml"), "-o", str(tmp_path / "r.pdf")], capsys
    )
    assert code == 2 and "not found" in err
    bad = tmp_path / "bad.yaml"
    bad.write_text("model_id: [unclosed\n")
    with pytest.raises(InputError, match="YAML syntax error at line"):
        load_profile(bad)
    code, _o, err = run(["report", "-o", str(tmp_path / "r.pdf")], capsys)
    assert code == 2 and "--profile" in err


def test_profile_fields_without_provenance_count_as_stated() -> None:
    prof, settings = profile_from_mapping(
        {
            "model_id": "llama-3-70b",
            "epochs": 3,
            "provenance": {"epochs": {"status": "inferred", "evidence": "3x"}},
        }
    )
    assert prof.status_of("model_id") == "stated"
    assert prof.status_of("epochs") == "inferred"
    assert settings is None


def test_format_from_suffix_or_flag() -> None:
    assert resolve_format(None, Path("a.md")) == "md"
    assert resolve_format(None, Path("a.out")) == "pdf"
    assert resolve_format("JSON", Path("a.pdf")) == "json"
    with pytest.raises(InputError, match="--format"):
        resolve_format("docx", Path("a.pdf"))


def test_cli_writes_the_report(
    example_profile: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.json"
    code, stdout, err = run(["report", "--profile", str(example_profile), "-o", str(out)], capsys)
    assert code == 0, err
    assert f"wrote {out}" in stdout
    data = json.loads(out.read_text())
    assert data["recommendation"]["primary"]["gpu"]
    assert data["trace"]
    md = tmp_path / "r.txt"
    argv = ["report", "--profile", str(example_profile), "-o", str(md), "--format", "md", "--no-appendix"]
    code, _o, err = run(argv, capsys)
    assert code == 0, err
    text = md.read_text()
    assert text.startswith("# GPU recommendation")
    assert "Left out of this copy" in text and "## 9. Catalog dates and sources" in text


def test_missing_price_file_exits_2(
    example_profile: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [
        "report",
        "--profile",
        str(example_profile),
        "-o",
        str(tmp_path / "r.md"),
        "--prices",
        "nope.yaml",
    ]
    code, _o, err = run(argv, capsys)
    assert code == 2 and "price file nope.yaml not found" in err


# --- report "TEXT" / --brief FILE (issue 4's command-line forms) ---------------------------------------


def pdf_text(path: Path) -> str:
    from pypdf import PdfReader

    return " ".join(" ".join(p.extract_text() or "" for p in PdfReader(str(path)).pages).split())


REQUEST = "QLoRA fine-tune Llama 3 70B on 1B tokens for 3 epochs; the data sits in S3 us-east-1"


def _primary_title(text: str | None, brief: Path | None = None) -> str:
    """The primary pick the engine makes for the same words (the report must name this one)."""
    from advisor.service.profiles import profile_from_text_or_brief
    from advisor.service.recommending import recommend_for
    from reports.labels import option_title

    rec, _catalog = recommend_for(profile_from_text_or_brief(text, brief, "rules"))
    assert rec.primary is not None
    return option_title(rec.primary)


def test_report_from_text_names_the_primary_pick(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "text.pdf"
    code, stdout, err = run(["report", REQUEST, "-o", str(out)], capsys)
    assert code == 0, err
    assert f"wrote {out}" in stdout
    text = pdf_text(out)
    assert _primary_title(REQUEST) in text
    assert "As described:" in text and "QLoRA fine-tune Llama 3 70B" in text  # the user's words, quoted
    assert "Llama 3 70B" in text or "Llama-3 70B" in text


def test_report_from_markdown_brief(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    brief = tmp_path / "brief.md"
    brief.write_text(
        "# Fine-tuning brief\n\nWe want to fine-tune Llama 3 8B with LoRA on 200M tokens, 2 epochs.\n"
        "Budget under $2,000. Data in GCS.\n"
    )
    out = tmp_path / "brief.pdf"
    code, _stdout, err = run(["report", "--brief", str(brief), "-o", str(out), "--backend", "rules"], capsys)
    assert code == 0, err
    text = pdf_text(out)
    assert _primary_title(None, brief) in text
    assert "[brief brief.md] # Fine-tuning brief" in text  # the brief's first lines as the user's words


def test_text_and_brief_together(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    brief = tmp_path / "brief.txt"
    brief.write_text("Dataset: 1B tokens of support tickets, 3 epochs.\n")
    out = tmp_path / "both.json"
    code, _o, err = run(["report", "QLoRA Llama 3 70B", "--brief", str(brief), "-o", str(out)], capsys)
    assert code == 0, err
    data = json.loads(out.read_text())
    assert data["profile"]["method"] == "qlora"  # from the text
    assert data["profile"]["epochs"] == 3  # from the brief
    assert data["description"].startswith("QLoRA Llama 3 70B [brief brief.txt] Dataset: 1B tokens")


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("empty.md", b"", "empty"),
        ("fake.pdf", b"Just some plain text pretending to be a PDF.\n", "fake.pdf"),
    ],
)
def test_broken_brief_exits_2_with_one_line(
    name: str, content: bytes, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    brief = tmp_path / name
    brief.write_bytes(content)
    out = tmp_path / "r.pdf"
    code, _o, err = run(["report", "--brief", str(brief), "-o", str(out)], capsys)
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert expected in err
    assert not out.exists()


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        ([], "describe the workload"),
        (["   "], "TEXT is empty"),
        (["QLoRA 70B", "--profile", "PROFILE"], "not both"),
        (["--brief", "BRIEF", "--profile", "PROFILE"], "not both"),
        (["--profile", "PROFILE", "--backend", "openai"], "--backend"),
        (["QLoRA 70B", "--backend", "claude"], "unknown backend"),
        (["--brief", "nowhere.md"], "not found"),
        (["QLoRA 70B", "--format", "docx"], "--format"),
    ],
)
def test_wrong_input_combinations_exit_2(
    argv: list[str],
    expected: str,
    example_profile: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    brief = tmp_path / "b.md"
    brief.write_text("LoRA Llama 3 8B on 10M tokens\n")
    argv = [str(example_profile) if a == "PROFILE" else str(brief) if a == "BRIEF" else a for a in argv]
    out = tmp_path / "r.pdf"
    code, _o, err = run(["report", *argv, "-o", str(out)], capsys)
    assert code == 2, err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert expected in err
    assert not out.exists()
