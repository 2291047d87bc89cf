"""Block Kit messages for Slack: the recommendation summary (primary pick, cost range, wall time, memory),
alternatives, open questions, assumptions and the report button.

Input is the design.md JSON (`recommendation_json(rec)`), so this module depends on no engine class.
No arithmetic happens here: the numbers are the recommender's, only rounded for reading. Everything that
comes from the user (profile values, model ids) is escaped for mrkdwn, so `<!channel>` in a message stays
text and never pings anyone.

Slack limits respected: section text <= 3000 characters, header <= 150, at most 10 fields per section,
at most 50 blocks per message, fallback `text` (notifications, screen readers) always set.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from reports.input_account import not_used_heading
from tools import present
from tools.ranges import Range

REPORT_ACTION_ID = "gpu_advisor_report"
MAX_SECTION_CHARS = 3000
MAX_HEADER_CHARS = 150
MAX_BLOCKS = 50
MAX_ALTERNATIVES = 3
MAX_ASSUMPTIONS = 8

Block = dict[str, Any]
_MD_BOLD = re.compile(r"\*\*(.+?)\*\*")


def escape(text: str) -> str:
    """Slack's mrkdwn escaping: only &, < and > are control characters."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _clip(text: str, limit: int = MAX_SECTION_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _section(text: str) -> Block:
    return {"type": "section", "text": {"type": "mrkdwn", "text": _clip(text)}}


def _context(text: str) -> Block:
    return {"type": "context", "elements": [{"type": "mrkdwn", "text": _clip(text)}]}


def _range(rng: Mapping[str, Any] | None) -> Range | None:
    """A design.md {low, high} object as a Range; None when an end is missing."""
    if not rng or rng.get("low") is None or rng.get("high") is None:
        return None
    return Range(low=float(rng["low"]), high=float(rng["high"]))


def money_range(rng: Mapping[str, Any] | None) -> str:
    """'$77 – $257' from a {low, high} range, as the report writes it (tools.present)."""
    return present.usd_range(_range(rng))


def hours_range(rng: Mapping[str, Any] | None) -> str:
    """'9.3 – 31 h', with days from two days: '72 – 225 h (3.0 – 9.4 days)' (tools.present)."""
    return present.hours_range(_range(rng))


def _pricing(pricing: str | None) -> str:
    return (pricing or "").replace("_", " ")


def option_title(opt: Mapping[str, Any]) -> str:
    """'8× NVIDIA H100 SXM5 80GB' (escaped)."""
    name = opt.get("gpu_name") or opt.get("gpu") or "GPU"
    return escape(f"{opt.get('total_gpus', '?')}× {name}")


def option_where(opt: Mapping[str, Any]) -> str:
    """'spheron, spot, $1.03/GPU-h' (escaped)."""
    parts = [str(opt.get("provider") or "")]
    if opt.get("region"):
        parts[0] += f" ({opt['region']})"
    parts.append(_pricing(opt.get("pricing")))
    if opt.get("usd_per_gpu_hour") is not None:
        parts.append(present.usd_rate(opt["usd_per_gpu_hour"]))
    return escape(", ".join(p for p in parts if p))


def _cost_label(opt: Mapping[str, Any]) -> str:
    basis = opt.get("cost_basis")
    if basis == "per_job" and opt.get("serving"):  # a batch generation job
        return "Cost per job"
    return {"per_job": "Cost per run", "per_month": "Cost per month"}.get(str(basis), "Cost range")


def _memory_text(opt: Mapping[str, Any]) -> str:
    peak, usable = opt.get("peak_gib_per_gpu"), opt.get("vram_gib_per_gpu")
    if peak is None:
        return present.UNKNOWN
    text = present.gib(peak)
    if usable is not None:
        text += f" of {present.gib(usable)} usable"
    return text


def _layout(opt: Mapping[str, Any]) -> str:
    nodes, per_node = opt.get("nodes"), opt.get("gpus_per_node")
    if nodes is None or per_node is None:
        return f"{opt.get('total_gpus', '?')} GPUs"
    return f"{nodes} node{'s' if nodes != 1 else ''} × {per_node} GPUs"


def _time_field(opt: Mapping[str, Any]) -> str:
    """Wall time of a job; for a month of serving (its wall time is the month) the throughput and what
    each user sees at the stated load."""
    serving = opt.get("serving") or {}
    if opt.get("cost_basis") != "per_month" or not serving:
        return f"*Wall time*\n{hours_range(opt.get('wall_hours'))}"
    total = present.tokens_per_s_range(_range(opt.get("decode_tokens_per_s")))
    user = present.tokens_per_s_range(_range(serving.get("per_user_tokens_per_s")))
    ms = present.ms_range(_range(serving.get("ms_per_output_token")))
    return f"*Throughput*\n{total}; per user {user} ({ms} per token)"


def primary_blocks(opt: Mapping[str, Any]) -> list[Block]:
    """The primary pick: title, where, and the four figures a buyer looks at first."""
    fields = [
        f"*{_cost_label(opt)}*\n{money_range(opt.get('cost_usd'))}",
        _time_field(opt),
        f"*Peak memory per GPU*\n{_memory_text(opt)}",
        f"*Layout*\n{_layout(opt)}",
    ]
    blocks: list[Block] = [
        {
            "type": "section",
            "text": {
                "type": "mrkdwn",
                "text": _clip(f"*Primary pick:* {option_title(opt)}\n{option_where(opt)}"),
            },
            "fields": [{"type": "mrkdwn", "text": f} for f in fields],
        }
    ]
    why = [escape(str(w)) for w in opt.get("why") or []]
    if why:
        blocks.append(_section("*Why:* " + "; ".join(why)))
    risks = [escape(str(r)) for r in opt.get("risks") or []]
    if risks:
        blocks.append(_context(":warning: " + "; ".join(risks)))
    return blocks


def alternative_line(opt: Mapping[str, Any]) -> str:
    label = escape(str(opt.get("label") or "alternative"))
    if opt.get("cost_basis") == "per_month":  # serving: its rate, not the month it is up
        rate = present.tokens_per_s_range(_range(opt.get("decode_tokens_per_s")))
        cost = money_range(opt.get("cost_usd"))
        return f"• *{label}:* {option_title(opt)} at {option_where(opt)}: {cost} per month, {rate}"
    return (
        f"• *{label}:* {option_title(opt)} at {option_where(opt)}: "
        f"{money_range(opt.get('cost_usd'))}, {hours_range(opt.get('wall_hours'))}"
    )


def summary_blocks(
    recommendation: Mapping[str, Any] | None,
    *,
    questions: Sequence[str] = (),
    understood: Sequence[str] = (),
    not_used: Sequence[str] = (),
    assumptions: Sequence[str] = (),
    error: str | None = None,
    report_ready: bool = False,
    note: str | None = None,
    explanation: str | None = None,
) -> list[Block]:
    """The Block Kit summary of one conversation turn.

    recommendation: the design.md `recommendation` object (or None when none could be computed);
    questions: the advisor's open questions, most decision-relevant first; understood: 'label value'
    strings of what the user told us; not_used: worded lines of what the message held that gave no fact
    (reports.input_account.not_used_items); assumptions: 'label value' strings of the defaults applied;
    error: why no recommendation (a user-facing message); note: a line shown first (e.g. a brief that
    could not be read); explanation: the language model's number-checked explanation (LLM backend), shown
    before the figures, its Markdown bold turned into Slack's.
    """
    blocks: list[Block] = [
        {"type": "header", "text": {"type": "plain_text", "text": "GPU Advisor"[:MAX_HEADER_CHARS]}}
    ]
    if note:
        blocks.append(_section(f":information_source: {escape(note)}"))
    if understood:
        blocks.append(_context("*Understood:* " + escape("; ".join(understood))))
    if not_used:
        blocks.append(
            _section(f"*{escape(not_used_heading())}*\n" + "\n".join(f"• {escape(i)}" for i in not_used))
        )
    if explanation:
        blocks.append(_section(_MD_BOLD.sub(r"*\1*", escape(explanation.strip()))))
    primary = (recommendation or {}).get("primary")
    if primary:
        blocks.extend(primary_blocks(primary))
        basis = (recommendation or {}).get("time_basis")
        if basis:
            blocks.append(_context(escape(str(basis))))
        alts = list((recommendation or {}).get("alternatives") or [])[:MAX_ALTERNATIVES]
        if alts:
            blocks.append(_section("*Alternatives*\n" + "\n".join(alternative_line(a) for a in alts)))
    elif recommendation is not None:
        advice = [escape(str(a)) for a in recommendation.get("infeasible_advice") or []]
        text = "*Nothing in the catalog fits this workload as described.*"
        if advice:
            text += "\nWhat would make it fit:\n" + "\n".join(f"• {a}" for a in advice[:5])
        blocks.append(_section(text))
    elif error:
        blocks.append(_section(f"*No recommendation yet:* {escape(error)}"))
    if questions:
        blocks.append({"type": "divider"})
        numbered = "\n".join(f"{i}. {escape(q)}" for i, q in enumerate(questions, 1))
        blocks.append(_section("*Open questions* (answer in this thread)\n" + numbered))
    if assumptions:
        shown = list(assumptions[:MAX_ASSUMPTIONS])
        more = len(assumptions) - len(shown)
        text = "*Assumed* (say so if wrong): " + escape("; ".join(shown))
        if more > 0:
            text += f"; and {more} more in the report"
        blocks.append(_context(text))
    if primary and report_ready:
        blocks.append(report_button_block())
    elif primary:
        blocks.append(_context("Say `report` in this thread to get the PDF with what I have so far."))
    return blocks[:MAX_BLOCKS]


def report_button_block() -> Block:
    return {
        "type": "section",
        "text": {"type": "mrkdwn", "text": "This is enough for a report with the full calculation trace."},
        "accessory": {
            "type": "button",
            "action_id": REPORT_ACTION_ID,
            "text": {"type": "plain_text", "text": "Get the PDF report"},
            "style": "primary",
            "value": "report",
        },
    }


def fallback_text(
    recommendation: Mapping[str, Any] | None, questions: Sequence[str] = (), error: str | None = None
) -> str:
    """The message's plain `text`: what notifications and screen readers show."""
    primary = (recommendation or {}).get("primary")
    if primary:
        text = (
            f"Primary pick: {option_title(primary)} at {option_where(primary)}: "
            f"{money_range(primary.get('cost_usd'))}, {hours_range(primary.get('wall_hours'))}"
        )
    elif recommendation is not None:
        text = "Nothing in the catalog fits this workload as described."
    elif error:
        text = f"No recommendation yet: {escape(error)}"
    else:
        text = "GPU Advisor"
    if questions:
        text += f" ({len(questions)} open question{'s' if len(questions) != 1 else ''})"
    return _clip(text)


def text_blocks(text: str) -> list[Block]:
    """A plain notice (errors, progress) as one escaped section."""
    return [_section(escape(text))]
