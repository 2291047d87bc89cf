"""`gpu-advisor report`: a workload profile -> the recommendation report (pdf, html, md, json).

The workload comes from exactly one of: `--profile FILE.yaml`, free text (`report "TEXT"`), a brief
(`--brief FILE`: pdf, docx, md, txt, html), or text and a brief together. Text and briefs go through
`advisor.api_ask.profile_from_text_or_brief` (rules extractor by default, `--backend openai` for the
model); every input form ends in `write_report`, which runs the recommender and renders.

Profile YAML: the WorkloadProfile fields at the top level (optionally under `profile:`), plus an optional
`settings:` mapping of recommender knobs (tools.recommend.models.RecommendSettings) and a free-text
`description:`. `provenance:` maps a field to {status: stated|inferred|assumed, evidence: "user's words"};
fields given without provenance count as stated.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from advisor.cli.app import app
from tools.errors import InputError

if TYPE_CHECKING:
    from tools.profile import WorkloadProfile
    from tools.recommend.models import Recommendation, RecommendSettings

FORMATS = ("pdf", "html", "md", "json")
_SUFFIX_FORMAT = {
    ".pdf": "pdf",
    ".html": "html",
    ".htm": "html",
    ".md": "md",
    ".markdown": "md",
    ".json": "json",
}
_META_KEYS = ("settings", "description", "name", "title")


def _closest_hint(name: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(name, choices, n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _validation_message(exc: Any, where: str) -> str:
    """First pydantic error as one line naming the field."""
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err.get("loc", ())) or "(top level)"
    if err.get("type") == "extra_forbidden":
        return f"{where}: unknown field '{loc}'"
    got = err.get("input")
    got_text = f" (got {got!r})" if got is not None and not isinstance(got, dict | list) else ""
    return f"{where}: field '{loc}': {err.get('msg', 'invalid value')}{got_text}"


def profile_from_mapping(
    data: Any, where: str = "profile"
) -> tuple[WorkloadProfile, RecommendSettings | None]:
    """A parsed YAML document -> (profile, settings). Raises InputError naming the bad field."""
    from pydantic import ValidationError

    from tools.profile import PROFILE_FIELDS, Provenance, WorkloadProfile
    from tools.recommend.models import RecommendSettings

    if not isinstance(data, dict):
        raise InputError(
            f"{where}: expected a mapping of profile fields (e.g. 'model_id: llama-3-70b'), "
            f"got {type(data).__name__}"
        )
    body = data
    if "profile" in data:
        extra = [k for k in data if k != "profile" and k not in _META_KEYS]
        if extra:
            raise InputError(
                f"{where}: unknown top-level key '{extra[0]}' beside 'profile' "
                f"(allowed: {', '.join(_META_KEYS)})"
            )
        body = data["profile"]
        if not isinstance(body, dict):
            raise InputError(f"{where}: 'profile' must be a mapping of profile fields")
    fields = {k: v for k, v in body.items() if k not in _META_KEYS}
    known = [*PROFILE_FIELDS, "provenance"]
    for key in fields:
        if not isinstance(key, str) or key not in known:
            raise InputError(
                f"{where}: unknown field '{key}'{_closest_hint(str(key), known)}; "
                f"see tools/profile.py for the field names"
            )
    prov_raw = fields.pop("provenance", None) or {}
    if not isinstance(prov_raw, dict):
        raise InputError(f"{where}: field 'provenance' must map field names to {{status, evidence}}")
    try:
        profile = WorkloadProfile.model_validate(fields)
    except ValidationError as exc:
        raise InputError(_validation_message(exc, where)) from None
    provenance: dict[str, Provenance] = {}
    for name, raw in prov_raw.items():
        if name not in PROFILE_FIELDS:
            raise InputError(
                f"{where}: provenance for unknown field '{name}'{_closest_hint(str(name), known)}"
            )
        try:
            provenance[name] = Provenance.model_validate({"status": raw} if isinstance(raw, str) else raw)
        except ValidationError as exc:
            raise InputError(_validation_message(exc, f"{where}: provenance.{name}")) from None
    for name in fields:  # given in the file without provenance: the user stated it
        provenance.setdefault(name, Provenance(status="stated"))
    profile = profile.model_copy(update={"provenance": provenance})
    settings = None
    raw_settings = data.get("settings", body.get("settings"))
    if raw_settings is not None:
        if not isinstance(raw_settings, dict):
            raise InputError(f"{where}: 'settings' must be a mapping of recommender settings")
        try:
            settings = RecommendSettings.model_validate(raw_settings)
        except ValidationError as exc:
            raise InputError(_validation_message(exc, f"{where}: settings")) from None
    return profile, settings


def load_profile(path: str | Path) -> tuple[WorkloadProfile, RecommendSettings | None]:
    """Read a profile YAML file. Missing file, YAML syntax, wrong types, unknown fields -> InputError."""
    profile, settings, _title, _description = read_profile_file(path)
    return profile, settings


def read_profile_file(
    path: str | Path,
) -> tuple[WorkloadProfile, RecommendSettings | None, str | None, str | None]:
    """load_profile plus the file's optional `title` and `description` (shown in the report)."""
    import yaml

    p = Path(path)
    if not p.is_file():
        raise InputError(
            f"profile file {p} not found: give the path of a YAML profile (see advisor/examples/)"
        )
    try:
        data = yaml.safe_load(p.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise InputError(f"profile {p}: not a UTF-8 text file") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" at line {mark.line + 1}" if mark is not None else ""
        raise InputError(f"profile {p}: YAML syntax error{line}: fix the file") from None
    profile, settings = profile_from_mapping(data, where=f"profile {p}")
    title = data.get("title") if isinstance(data.get("title"), str) else None
    description = data.get("description") if isinstance(data.get("description"), str) else None
    return profile, settings, title, description


def resolve_format(fmt: str | None, out: Path) -> str:
    """--format if given, else from the output file's suffix, else pdf."""
    if fmt is not None:
        f = fmt.lower().strip()
        if f not in FORMATS:
            raise InputError(f"unknown --format {fmt!r}: use one of {', '.join(FORMATS)}")
        return f
    return _SUFFIX_FORMAT.get(out.suffix.lower(), "pdf")


def recommend_for(
    profile: WorkloadProfile, *, prices: str | Path | None = None, settings: RecommendSettings | None = None
) -> tuple[Recommendation, Any]:
    """Run the recommender on a profile against the bundled catalog (+ a user price file)."""
    from tools.catalog.load import load_catalog
    from tools.recommend import recommend

    if prices is not None and not Path(prices).is_file():
        raise InputError(f"price file {prices} not found: give a YAML or CSV price file")
    catalog = load_catalog(prices)
    kwargs: dict[str, Any] = {"profile": profile, "catalog": catalog}
    if settings is not None:
        kwargs["settings"] = settings
    return recommend(**kwargs), catalog


def write_report(
    profile: WorkloadProfile,
    out: str | Path,
    *,
    fmt: str | None = None,
    prices: str | Path | None = None,
    settings: RecommendSettings | None = None,
    title: str | None = None,
    description: str | None = None,
    appendix: bool = True,
) -> Path:
    """Profile -> recommendation -> report file; returns the path written. The one step every input
    form (profile file, text, brief) ends in. `description` is the user's own words (a profile file's
    description, the text of a request or brief), printed in the workload section."""
    from reports.render import render_report

    out_path = Path(out)
    f = resolve_format(fmt, out_path)
    rec, catalog = recommend_for(profile, prices=prices, settings=settings)
    return render_report(
        rec, f, out_path, catalog=catalog, title=title, description=description, appendix=appendix
    )


DESCRIPTION_CHARS = 600
"""How much of a brief the workload section quotes as the user's words (the full brief is the user's file)."""


def describe_request(text: str | None, brief_text: str | None, brief_name: str | None = None) -> str | None:
    """The user's own words for the report's workload section: the request text, then the brief's first
    lines (whitespace collapsed, cut at a word boundary after DESCRIPTION_CHARS characters)."""
    parts: list[str] = []
    if text and text.strip():
        parts.append(" ".join(text.split()))
    if brief_text and brief_text.strip():
        words = " ".join(brief_text.split())
        if len(words) > DESCRIPTION_CHARS:
            cut = words[:DESCRIPTION_CHARS].rsplit(" ", 1)[0]
            words = f"{cut} …"
        parts.append(f"[brief {brief_name}] {words}" if brief_name else words)
    return " ".join(parts) or None


def profile_from_request(
    text: str | None, brief: Path | None, backend: str
) -> tuple[WorkloadProfile, str | None]:
    """Free text and/or a brief -> (profile, description for the report). Unreadable brief -> InputError."""
    from advisor.api_ask import profile_from_text_or_brief

    if brief is not None and brief.is_dir():
        raise InputError(f"--brief {brief} is a folder: give a .pdf, .docx, .md, .txt or .html file")
    profile = profile_from_text_or_brief(text, brief, backend)
    brief_text = None
    if brief is not None:
        from advisor.ingest import read_brief

        brief_text = read_brief(brief)
    return profile, describe_request(text, brief_text, brief.name if brief is not None else None)


_NO_INPUT = (
    'describe the workload: gpu-advisor report "TEXT" -o out.pdf, --brief FILE, or --profile FILE.yaml '
    "(examples in advisor/examples/)"
)


@app.command()
def report(
    text: str = typer.Argument(
        None, help='the workload in your words, e.g. "QLoRA Llama 3 70B on 1B tokens, 3 epochs"'
    ),
    profile: Path = typer.Option(
        None, "--profile", "-p", help="workload profile YAML (see advisor/examples/)"
    ),
    brief: Path = typer.Option(
        None, "--brief", "-b", help="a brief to read: .pdf, .docx, .md, .txt, .html (with or without TEXT)"
    ),
    backend: str = typer.Option(
        None, "--backend", help="extractor for TEXT / --brief: rules (offline, default) | openai"
    ),
    out: Path = typer.Option(..., "--out", "-o", help="output file (report.pdf, report.html, report.md ...)"),
    fmt: str = typer.Option(
        None, "--format", "-f", help="pdf | html | md | json (default: from -o's suffix)"
    ),
    prices: Path = typer.Option(
        None, "--prices", help="your own price file (YAML or CSV) overriding the catalog"
    ),
    appendix: bool = typer.Option(
        True, "--appendix/--no-appendix", help="include the calculation appendix (pdf, html, md)"
    ),
) -> None:
    """Write the recommendation report for a workload (PDF by default): from TEXT, --brief or --profile."""
    has_text = text is not None and bool(text.strip())
    if text is not None and not has_text and brief is None and profile is None:
        raise InputError('TEXT is empty: describe the workload, e.g. "QLoRA Llama 3 70B, 1B tokens"')
    if profile is not None and (has_text or brief is not None):
        raise InputError("give one workload: --profile FILE.yaml, or TEXT and/or --brief FILE, not both")
    if profile is None and not has_text and brief is None:
        raise InputError(_NO_INPUT)
    resolve_format(fmt, out)  # a bad --format fails before any extraction work
    if profile is not None:
        if backend is not None:
            raise InputError("--backend reads TEXT or --brief; a --profile file needs no extractor")
        prof, settings, title, description = read_profile_file(profile)
    else:
        prof, description = profile_from_request(text if has_text else None, brief, backend or "rules")
        settings, title = None, None
    path = write_report(
        prof,
        out,
        fmt=fmt,
        prices=prices,
        settings=settings,
        title=title,
        description=description,
        appendix=appendix,
    )
    typer.echo(f"wrote {path}")
