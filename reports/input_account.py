"""The input's accounting worded once (prompts/input_account.md) for the chat reply, the web page, Slack and
the report's workload section: what was not used, each named clause quoted (tools.present.quote), a
constraint or a question saying so, greetings and background grouped into a count."""

from __future__ import annotations

import prompts
from tools import present
from tools.input_account import NAMED_KINDS, InputAccount
from tools.profile import WorkloadProfile

MAX_LISTED = 8  # clauses quoted one by one in a reply; the report lists them all
MAX_CONTEXT_LISTED = 3  # background clauses quoted when this few; beyond, a count


def not_used_items(account: InputAccount | None, limit: int | None = MAX_LISTED) -> list[str]:
    """One worded line per clause that was not used and must be named (constraints, questions, providers,
    GPUs, numbers with units, ignored instructions), then background clauses when there are few, then a
    count of the rest. Decorative clauses (greetings, headings) only count. [] when all was used."""
    if account is None:
        return []
    s = prompts.sections("input_account")
    other = other_workload_line(account)
    named = [c for c in account.unused if c.kind in (*NAMED_KINDS, "instruction")]
    context = [c for c in account.unused if c.kind == "context"]
    shown = named + (context if len(context) <= MAX_CONTEXT_LISTED else [])
    grouped = len(account.unused) - len(named) - (len(context) if len(shown) > len(named) else 0)
    grouped += account.more_unused
    cut = shown if limit is None else shown[:limit]
    items = []
    for c in cut:
        key = c.kind if c.kind in ("constraint", "question", "instruction", "unreadable") else "plain"
        items.append(prompts.fill(s[key], quote=present.quote(c.text)))
    if len(cut) < len(shown):
        items.append(prompts.fill(s["more"], count=len(shown) - len(cut)))
    if grouped and (items or context):
        items.append(prompts.fill(s["grouped_one" if grouped == 1 else "grouped"], count=grouped))
    return [other, *items] if other else items


def workload_gist(profile: WorkloadProfile) -> str:
    """The few facts that name a workload: '300 users, 32,768-token context' for serving, 'LoRA,
    1.2B tokens, 2 epochs' for training; the model when nothing else is known."""
    if profile.generation_tokens is not None:
        facts = [
            f"{present.count(profile.generation_tokens)} tokens to generate",
            f"with {profile.model_id}" if profile.model_id else "",
        ]
    elif profile.workload == "inference":
        facts = [
            f"{present.count(profile.concurrency)} users" if profile.concurrency else "",
            f"{present.count(profile.context_len)}-token context" if profile.context_len else "",
            f"{present.count(profile.prompt_tokens)}-token prompts" if profile.prompt_tokens else "",
            f"{present.count(profile.output_tokens)}-token answers" if profile.output_tokens else "",
            f"{present.number(profile.latency_ms_per_token)} ms per token"
            if profile.latency_ms_per_token
            else "",
        ]
    else:
        facts = [
            present.method_text(profile.method, profile.workload) if profile.method else "",
            f"{present.count(profile.dataset_tokens)} tokens" if profile.dataset_tokens else "",
            f"{present.number(profile.epochs)} epochs" if profile.epochs else "",
        ]
    said = [f for f in facts if f]
    return ", ".join(said) or (profile.model_id or "no figures yet")


def other_workload_line(account: InputAccount | None) -> str:
    """'Your brief also describes serving (300 users, 32,768-token context): ... ask 'size the serving part'
    to get it.', or '' when the input held one workload."""
    other = account.other_workload if account is not None else None
    if other is None or (account is not None and account.other_sized):
        return ""  # both parts sized: the answer's both-parts line says so (expert review 20, R08; fix34)
    part = "serving" if other.workload == "inference" else "training"
    this = "training" if part == "serving" else "serving"
    if other.generation_tokens is not None:  # a batch job writing a volume, not an endpoint
        return prompts.fill(prompts.sections("input_account")["other_generation"], this=this,
                            gist=workload_gist(other), ask="size the generation job")  # fmt: skip
    return prompts.fill(prompts.sections("input_account")["other_workload"], part=part, this=this,
                        gist=workload_gist(other), ask=f"size the {part} part")  # fmt: skip


def not_used_heading() -> str:
    """'I did not use:'."""
    return prompts.sections("input_account")["heading"]


def not_used_text(account: InputAccount | None, limit: int | None = MAX_LISTED) -> str:
    """The reply's paragraph: the heading and one '- ' line per item; '' when nothing needs saying."""
    items = not_used_items(account, limit)
    if not items:
        return ""
    return "\n".join([not_used_heading(), *(f"- {i}" for i in items)])
