"""A job that cannot resume from a checkpoint (expert review 13, R01: "no spot instances pls, our jobs
can't checkpoint well"): an interruption loses the whole run, so it must not be placed on capacity that
can be taken away or that has no uptime commitment. Read as cannot_resume (the pick says why it is
placed where it is), spot excluded (pricing_excluded) and the price catalog's community and marketplace
hosts excluded (providers_excluded), with the user's words as the reason. Forms: "can't checkpoint
(well)", "no checkpointing", "checkpointing doesn't work for us",
"can't resume", "can't restart from a checkpoint", "has to run start to finish without interruption"; since
fix32 (issue 12) also "the job is not restartable", "isn't resumable", "non-restartable", "we can't restart
it if it dies", "it has to run in one go", "must run without interruption", "a crash means starting over",
"if the job dies we lose everything", "doesn't support resuming", "can't be paused".
Near misses: a checkpoint said to work ("we checkpoint every hour"), a checkpoint as a model ("the
Llama 3 checkpoint"), checkpoint size ("checkpoints are 140 GB"), a past loss ("we lost everything when the
server crashed"), a wish to batch ("we'd like to process everything in one go"), a question ("can it be
resumed?")."""

from __future__ import annotations

import re

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I, negated, q
from advisor.extract.rules_list_leads import community_providers

_NO = (
    r"(?:can't|cannot|can\s+not|don't|do\s+not|doesn't|does\s+not|won't|unable\s+to|couldn't"
    r"|aren't\s+able\s+to)"
)
_STOPS = (
    r"(?:dies|die|died|crash(?:es|ed)?|fails?|failed|interrupted|interruption|pre-?empt(?:ed|ion)|killed"
    r"|reclaimed|evicted)"
)
_LOSES = (
    r"(?:lose|loses|losing)\s+(?:everything|all\s+(?:the\s+)?(?:progress|work)|the\s+(?:whole|entire)\s+run)\b"
    r"|(?:have|has)\s+to\s+(?:start|restart|begin)\s+(?:over|again|from\s+scratch|from\s+the\s+beginning)\b"
)
_CANNOT_RESUME = keyed(
    rf"\b{_NO}\s+(?:really\s+|reliably\s+|easily\s+)?(?:checkpoint|resume|restart\s+from\s+(?:a\s+)?checkpoints?"
    r"|pick\s+up\s+where\s+(?:it|they|we)\s+left\s+off|survive\s+(?:a\s+)?restarts?)\b"
    r"|\bno\s+(?:way\s+to\s+)?(?:checkpointing|checkpoint/resume|resum(?:e|ing)|checkpoints?)\b(?!\s+(?:size|format))"
    r"|\bcheckpointing\s+(?:doesn't|does\s+not|won't|isn't|is\s+not)\s+(?:work|reliable|supported|possible|an\s+option)"
    r"|\b(?:has|have|needs?)\s+to\s+run\s+(?:from\s+)?start\s+to\s+finish\b"
    r"|\b(?:must\s+not|mustn't|can't|cannot|can\s+not)\s+be\s+(?:resumed|restarted|checkpointed)\b"
    # the job said not to resume (fix32): "the job is not restartable", "it isn't resumable", "a
    # non-restartable job", "we can't restart it if it dies", "it has to run in one go", "in a single
    # uninterrupted run", "a crash means starting over"
    r"|\b(?:is|are|it's|they're|was)\s+not\s+(?:really\s+)?(?:restartable|resumable|resumeable)\b"
    r"|\b(?:isn't|aren't|wasn't)\s+(?:really\s+)?(?:restartable|resumable|resumeable)\b"
    r"|\bnon[\s-]?(?:restartable|resumable|resumeable)\b"
    rf"|\b{_NO}\s+(?:restart|resume)\s+(?:it|them|the\s+(?:job|run|training|pipeline))\b"
    r"|\b(?:(?:has|have|needs?)\s+to|must)\s+(?:run|finish|complete|be\s+done|go)\s+(?:through\s+)?"
    r"(?:in\s+(?:one|a\s+single)\s+(?:uninterrupted\s+)?(?:go|run|pass|shot|sitting|session)"
    r"|without\s+(?:any\s+)?(?:interruptions?|stopping|restarts?)|uninterrupted)\b"
    r"|\b(?:means|meaning)\s+(?:starting|restarting|we\s+start)\s+(?:over|again|from\s+scratch)\b"
    # a lost host loses the run: "if the job dies we lose everything", "a preemption would kill the run and
    # we'd have to start from scratch", "we lose all progress if it gets interrupted"
    rf"|\b{_STOPS}\b[^.;!?]{{0,60}}?\b(?:{_LOSES})"
    rf"|\b(?:{_LOSES})[^.;!?]{{0,30}}?\b(?:if|when|whenever|once)\s+(?:it|the\s+\w+|a\s+\w+|we)\s+(?:\w+\s+)?{_STOPS}"
    rf"|\b{_NO}\s+support\s+(?:resuming|resumption|resume|restarts?|checkpointing)\b"
    r"|\b(?:can't|cannot|can\s+not)\s+be\s+(?:paused|stopped)(?:\s+and\s+(?:resumed|restarted))?\b",
    I,
)


def rule_cannot_resume(ctx: Ctx) -> None:
    """spot and community / marketplace hosts excluded for a job that cannot resume (module docstring).
    Every wording of it in the sentence is evidence ("not restartable, and it has to run in one go": the
    second clause is no constraint left not understood)."""
    for s in ctx.sentences_with(_CANNOT_RESUME):  # a finding needs it to match
        found = list(_CANNOT_RESUME.finditer(s.text))
        if not found:
            continue
        m = found[0]
        why = f'"{q(m)}": a run that cannot resume must not be interrupted'
        for each in found:
            ctx.add(s, "cannot_resume", True, q(each), "stated", each.start())
        ctx.add(s, "pricing_excluded", ["spot"], f"{why} (no spot)", "inferred", m.start())
        if ids := community_providers():
            ev = f"{why} (no community or marketplace hosts: no uptime commitment)"
            ctx.add(s, "providers_excluded", ids, ev, "inferred", m.start())
        return


# The opposite (expert review 20, R09/P09): the job resumes, so a lost host costs minutes, not the run.
# "Spot is fine since the job is restartable", "the job checkpoints every few minutes, so losing a host
# only loses minutes of work", "it can resume from its last checkpoint", "the job is resumable".
# Near misses: a checkpoint as a model ("the Llama 3 checkpoint"), a size ("checkpoints are 140 GB"), a
# negation ("not restartable", handled above as cannot_resume).
_CAN_RESUME = keyed(
    r"\b(?:is|are|it's|they're|being|fully|easily)\s+(?:fully\s+|easily\s+)?(?:restartable|resumable|resumeable)\b"
    r"|\b(?:(?:can|could|will)\s+(?:be\s+)?(?:easily\s+)?(?:resume[ds]?|restart(?:ed)?)|resumes|restarts)\s+from\s+"
    r"(?:(?:the|a|its|our)\s+)?(?:last\s+|latest\s+|most\s+recent\s+)?checkpoints?\b"
    # "it can be resumed at any time", "the run can be restarted safely", "it supports resuming" (fix32)
    r"|\bcan\s+(?:always\s+|safely\s+|easily\s+)?be\s+(?:safely\s+|easily\s+)?(?:resumed|restarted)\b(?!\s*\?)"
    r"|(?<!n't\s)(?<!not\s)\bsupports?\s+(?:resuming|resumption|restarts?|checkpoint(?:ing|/resume|\s+and\s+resume))\b"
    # "we can resume if it crashes", "if it crashes we just resume from the last shard"
    r"|\b(?:we|it|they)\s+(?:can|could|will)\s+(?:always\s+|just\s+|simply\s+)?resume\b(?![^.;!?]*\?)"
    r"|\b(?:just|simply)\s+resume\s+from\s+(?:the|a|its|our)\s+(?:last|latest)\s+\w+"
    r"|\bcheckpoints?\s+every\s+(?:few\s+|couple\s+(?:of\s+)?|\d+\s*|one\s+|an?\s+)?(?:minutes?|mins?|hours?|hrs?|steps?)\b"
    r"|\b(?:losing|lose|a\s+lost)\s+(?:a\s+|one\s+|the\s+)?(?:host|node|machine|instance|gpu|box)\s+(?:only\s+)?"
    r"(?:loses|costs|means)\s+(?:only\s+|just\s+)?(?:a\s+few\s+)?(?:minutes|the\s+in[\s-]flight)",
    I,
)


def rule_can_resume(ctx: Ctx) -> None:
    """cannot_resume False: the user says the job resumes after a lost host (see _CAN_RESUME)."""
    if ctx.has("cannot_resume"):
        return
    for s in ctx.sentences:
        m = _CAN_RESUME.search(s.text)
        if m is None or negated(s.text, m.start()) or re.search(r"\bnot\s+(?:\w+\s+)?$", s.text[: m.start()]):
            continue
        ev = f'"{q(m)}": the job resumes after a lost host'
        ctx.add(s, "cannot_resume", False, ev, "stated", m.start())
        return
