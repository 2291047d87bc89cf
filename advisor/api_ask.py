"""`ask()`: one turn of the advisor as the design.md JSON contract, and the one-shot text/brief -> profile
step that `gpu-advisor report "TEXT"` / `--brief FILE` share.

The lead re-exports `ask` from advisor/api.py (`from advisor.api_ask import ask`), beside H2's `size()`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from tools.errors import InputError

if TYPE_CHECKING:
    from advisor.conversation import Turn
    from tools.profile import WorkloadProfile

BACKENDS = ("rules", "openai")


def _check_backend(backend: str) -> None:
    if backend not in BACKENDS:
        raise InputError(f"unknown backend {backend!r}: use one of {', '.join(BACKENDS)}")


def _brief_text(brief: str | Path | None) -> str | None:
    if brief is None:
        return None
    from advisor.ingest import read_brief

    return read_brief(brief)


def profile_from_text_or_brief(
    text: str | None, brief: str | Path | None = None, backend: str = "rules"
) -> WorkloadProfile:
    """The workload profile read from free text and/or a brief file (pdf, docx, md, txt, html).

    One model call at most with the openai backend (rules first; the model fills and corrects).
    Instruction-like lines in the brief are data, never facts. Raises InputError when neither is given,
    for an unreadable brief, or for an unknown backend.
    """
    from advisor.extract import get_extractor
    from advisor.llm.extractor import drop_instructed

    _check_backend(backend)
    message = (text or "").strip()
    brief_text = _brief_text(brief)
    if not message and not brief_text:
        raise InputError('describe the workload: give "TEXT" or --brief FILE')
    extractor: Any = get_extractor(backend)
    if brief_text is not None and hasattr(extractor, "extract_parts"):
        profile: WorkloadProfile = extractor.extract_parts(message, brief_text, None)
    else:
        profile = extractor.extract("\n\n".join(p for p in (message, brief_text) if p), None)
    full = "\n\n".join(p for p in (message, brief_text) if p)
    return drop_instructed(profile, full, None)


def ask_turn(
    text: str | None,
    brief: str | Path | None = None,
    backend: str = "rules",
    *,
    explain: bool = False,
    recommender: Any | None = None,
) -> Turn:
    """One conversation turn on `text` (+ a brief file). explain=True adds the model's checked
    explanation with the openai backend (a second model call); the JSON contract does not need it."""
    from advisor.conversation import Conversation

    _check_backend(backend)
    message = (text or "").strip()
    brief_text = _brief_text(brief)
    if not message and not brief_text:
        raise InputError('describe the workload: give "TEXT" or --brief FILE')
    conv = Conversation(backend=backend, explain=explain, recommender=recommender)
    return conv.send(message, brief_text=brief_text)


def turn_json(turn: Turn) -> dict[str, Any]:
    """The design.md `ask --format json` object: profile, recommendation, questions (+ a few extras)."""
    return turn.to_dict()


def ask(text: str | None, brief: str | Path | None = None, backend: str = "rules") -> dict[str, Any]:
    """What `gpu-advisor ask "TEXT" [--brief FILE] [--backend B] --format json` prints, as a dict:
    {"profile", "recommendation", "questions", ...}. User errors raise tools.errors.InputError."""
    return turn_json(ask_turn(text, brief, backend))
