"""Workload profiles from what a user gives: free text and/or a brief file, or a profile YAML file.

Text and briefs go through an extractor (rules by default, `openai` for the model: rules first, the model
fills and corrects); instruction-like lines in a brief are data, never facts. A profile file holds the
WorkloadProfile fields at the top level (optionally under `profile:`), plus an optional `settings:`
mapping of recommender knobs (tools.recommend.models.RecommendSettings) and a free-text `description:`.
`provenance:` maps a field to {status: stated|inferred|assumed, evidence: "user's words"}; fields given
without provenance count as stated.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from advisor.extract import get_extractor
from advisor.extract.accounting import account_for
from advisor.extract.workloads import swap, switch_request
from advisor.ingest import read_brief
from advisor.llm.extractor import drop_instructed
from tools.errors import InputError
from tools.input_account import InputAccount
from tools.profile import PROFILE_FIELDS, Provenance, WorkloadProfile
from tools.recommend.models import RecommendSettings

BACKENDS = ("rules", "openai")
_META_KEYS = ("settings", "description", "name", "title")

DESCRIPTION_CHARS = 600
"""How much of a brief the workload section quotes as the user's words (the full brief is the user's file)."""


def check_backend(backend: str) -> None:
    """InputError unless `backend` names an extraction backend."""
    if backend not in BACKENDS:
        raise InputError(f"unknown backend {backend!r}: use one of {', '.join(BACKENDS)}")


def brief_text(brief: str | Path | None) -> str | None:
    """The brief file's plain text (pdf, docx, md, txt, html), or None without one."""
    if brief is None:
        return None
    return read_brief(brief)


def _profile_from_texts(text: str | None, brief: str | None, backend: str) -> WorkloadProfile:
    message = (text or "").strip()
    if not message and not brief:
        raise InputError('describe the workload: give "TEXT" or --brief FILE')
    extractor: Any = get_extractor(backend)
    if brief is not None and hasattr(extractor, "extract_parts"):
        profile: WorkloadProfile = extractor.extract_parts(message, brief, None)
    else:
        profile = extractor.extract("\n\n".join(p for p in (message, brief) if p), None)
    full = "\n\n".join(p for p in (message, brief) if p)
    return drop_instructed(profile, full, None)


def profile_from_text_or_brief(
    text: str | None, brief: str | Path | None = None, backend: str = "rules"
) -> WorkloadProfile:
    """The workload profile read from free text and/or a brief file (pdf, docx, md, txt, html).

    One model call at most with the openai backend (rules first; the model fills and corrects).
    Instruction-like lines in the brief are data, never facts. Raises InputError when neither is given,
    for an unreadable brief, or for an unknown backend.
    """
    check_backend(backend)
    return _profile_from_texts(text, brief_text(brief), backend)


def describe_request(text: str | None, brief: str | None, brief_name: str | None = None) -> str | None:
    """The user's own words for the report's workload section: the request text, then the brief's first
    lines (whitespace collapsed, cut at a word boundary after DESCRIPTION_CHARS characters)."""
    parts: list[str] = []
    if text and text.strip():
        parts.append(" ".join(text.split()))
    if brief and brief.strip():
        words = " ".join(brief.split())
        if len(words) > DESCRIPTION_CHARS:
            cut = words[:DESCRIPTION_CHARS].rsplit(" ", 1)[0]
            words = f"{cut} …"
        parts.append(f"[brief {brief_name}] {words}" if brief_name else words)
    return " ".join(parts) or None


def profile_from_request(
    text: str | None, brief: Path | None, backend: str
) -> tuple[WorkloadProfile, str | None]:
    """Free text and/or a brief -> (profile, description for the report). Unreadable brief -> InputError."""
    profile, description, _account = read_request(text, brief, backend)
    return profile, description


def read_request(
    text: str | None, brief: Path | None, backend: str
) -> tuple[WorkloadProfile, str | None, InputAccount]:
    """profile_from_request plus the input's account (what gave no fact, for the report's workload
    section). A brief with a training and a serving part gives the training part, its account naming the
    serving one; text asking for "the serving part" gives that one instead."""
    if brief is not None and brief.is_dir():
        raise InputError(f"--brief {brief} is a folder: give a .pdf, .docx, .md, .txt or .html file")
    check_backend(backend)
    read = brief_text(brief)
    part, text = switch_request(text or "")  # "size the serving part" of a two-workload brief
    profile = _profile_from_texts(text, read, backend)
    full = "\n\n".join(p for p in ((text or "").strip(), read) if p)
    account = account_for(full, profile)
    swapped = swap(profile, account, part) if part is not None else None
    if swapped is not None:
        profile, account = swapped
        if text.strip():
            profile = get_extractor(backend).extract(text, profile)
    return profile, describe_request(text, read, brief.name if brief is not None else None), account


def _closest_hint(name: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(name, choices, n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _validation_message(exc: ValidationError, where: str) -> str:
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
                "it is not a WorkloadProfile field"
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
