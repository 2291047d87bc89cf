"""Templated answers: the offline conversation's replies and the LLM fallback, from prompts/ templates.

No arithmetic happens here: values are the profile's and the recommender's, only worded for reading by
tools.present, as the report words them ("$1.26M", "10B tokens", "80%", "72 h (3.0 days)", "QLoRA").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import prompts
from advisor.extract.rules_horizon import BUY_OR_RENT_DEFAULT_HOW
from advisor.extract.rules_preference import PAIR_SIDE_ASSUMED_HOW
from reports.buy_rent import summary_line as buy_rent_summary
from reports.labels import field_value
from tools import present
from tools.preference import PAIR_SIDE_TOKENS_ASSUMED
from tools.profile import WorkloadProfile
from tools.units import ms_per_token_to_tokens_per_s

WORDED_FLAGS = (
    "latency_median",
    "serving_scheduled",
    "no_latency_target",
    "cannot_resume",
    "deadline_soft",
    "memory_asked",
    "count_asked",
    "buy_what_if",
    "buy_asked",
)
"""Yes/no fields said in words (reports/labels.py field_value holds the words, once)."""


def format_value(field: str, value: Any, workload: str | None = None) -> str:
    """A profile value for reading: '$5,000', '1B tokens', '80%', 'QLoRA', 'Fri 4 Dec, 120 h from now'
    (`workload` names the method of a pre-training job)."""
    if value is None:
        return "unknown"
    if field in WORDED_FLAGS or field in ("owned_fabric", "providers_excluded"):
        # the report's words: "latency target: none", "RoCE"; an excluded provider the catalog does not
        # price said to change nothing (fix34)
        return field_value(field, value, workload)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        if field == "pricing_excluded":  # 'on_demand' -> 'on-demand'
            return ", ".join(str(v).replace("_", "-") for v in value) or "none"
        return ", ".join(str(v) for v in value) or "none"
    if field in ("budget_usd", "purchase_usd_per_gpu"):
        return present.usd(value)
    if field == "current_usd_per_month":
        return f"{present.usd(value)}/month"
    if field == "reserved_months_asked":
        return present.months(value)
    if field == "current_pricing":
        return str(value).replace("_", "-")
    if field in ("dataset_tokens", "generation_tokens"):
        return f"{present.count(value)} tokens"
    if field in ("prompt_tokens", "output_tokens"):
        return f"{present.number(value)} tokens"
    if field == "power_price_usd_per_kwh":
        return present.usd_rate(value, "kWh")
    if field == "params_b":
        return f"{present.count(value * 1e9)} parameters"
    if field == "utilization":
        return present.pct(value)
    if field == "availability_target":
        return present.availability(value)
    if field == "deadline_hours":  # "by next Friday" reads back as its date: 'Fri 4 Dec, 190 h from now'
        return present.deadline(value)
    if field == "claimed_hours":
        return present.hours(value)
    if field == "dataset_gb":
        return present.gb(value)
    if field == "horizon_months":
        return f"{present.number(value)} months"
    if field == "owned_months_left":
        return present.months(value)
    if field in ("seq_len", "context_len"):
        return f"{present.number(value)} tokens"
    if field == "target_tokens_per_s":  # as the report writes it: '4,000 tokens/s', not '4,000'
        return f"{present.number(value)} tokens/s"
    if field == "latency_ms_per_token":
        return f"{present.number(value)} ms/token"
    if field == "ttft_target_s":
        return f"under {present.number(value)} s"
    if field == "response_target_s":
        return f"under {present.number(value)} s"
    if field == "latency_percentile":  # 'p95': the latency target holds for 95% of requests
        return f"p{present.number(value)}"
    if field == "method":
        return present.method_text(value, workload)
    if field == "claimed_gpu_bound":  # 'minimum' -> 'the minimum', 'too_few' -> 'too few'
        return "the minimum" if value == "minimum" else "too few"
    if field in ("workload", "data_location", "ops_capacity", "deployment_preference", "pricing"):
        return str(value).replace("_", " ")
    if isinstance(value, int | float):
        return present.number(value)
    return str(value)


def label(field: str) -> str:
    return prompts.sections("field_labels").get(field, field.replace("_", " "))


def _value_text(profile: WorkloadProfile, field: str) -> str:
    """format_value with the profile's workload (training all weights is not 'fine-tuning' when the
    workload is (continual) pre-training)."""
    return format_value(field, getattr(profile, field), profile.workload)


def _named_default(profile: WorkloadProfile, field: str) -> bool:
    """A value the reader set as a named default, not read from the user's words (the 36-month horizon of a
    'buy or rent?' said with none): listed under 'Assumed', never under 'I understood'."""
    prov = profile.provenance.get(field)
    evidence = prov.evidence or "" if prov is not None else ""
    # ... or the pair length a preference data set's size was counted at (expert review 19, R08)
    return BUY_OR_RENT_DEFAULT_HOW in evidence or PAIR_SIDE_ASSUMED_HOW in evidence


_LEAST = re.compile(r"\b(?:minimum|minimal|smallest|least|fewest)\b", re.I)


def _said_as(profile: WorkloadProfile, field: str) -> str | None:
    """The item for a field read from words the plain label would misreport (expert review 15, R09): the
    team's provider ("We are on CoreWeave") and the minimum set-up asked ("What's the minimum setup?")."""
    evidence = (p.evidence or "") if (p := profile.provenance.get(field)) else ""
    if field == "providers_required" and "the team's provider" in evidence:
        return f"your provider (only it is priced) {_value_text(profile, field)}"
    if field == "memory_asked" and _LEAST.search(evidence):
        return "you asked for the minimum set-up (the fewest GPUs that hold it)"
    if field in _REPORTED and profile.claim_source:
        # a claim someone else made is theirs, never 'you said' (expert review 18, R08: "My vendor says ...")
        said = prompts.fill(label(f"{field}_reported"), source=profile.claim_source)
        return f"{said} {_value_text(profile, field)}"
    return None


_REPORTED = ("claimed_gpu", "claimed_gpu_count", "claimed_gpu_bound", "claimed_hours")


def understood(profile: WorkloadProfile, fields: Sequence[str]) -> str:
    """'I understood: method QLoRA, model size 70B parameters.' for the fields set this turn."""
    items = [_said_as(profile, f) or f"{label(f)} {_value_text(profile, f)}" for f in fields
             if getattr(profile, f) not in (None, []) and not _named_default(profile, f)]  # fmt: skip
    if not items:
        return ""
    return prompts.fill(prompts.sections("summary")["understood"], items="; ".join(items))


def question(field: str, base: str | None = None) -> str:
    """The question for a field (prompts/questions.md), with what was assumed meanwhile."""
    qs = prompts.sections("questions")
    text = qs.get(field) or prompts.fill(qs["generic"], field=label(field))
    if base:
        text += " " + prompts.fill(qs["assumed_suffix"], base=base)
    return text


def assumptions(rec: Any) -> list[str]:
    """The profile fields the recommender assumed, as 'label value' strings (most relevant first)."""
    if rec is None:
        return []
    prof = rec.profile
    out = []
    bought = getattr(getattr(rec, "primary", None), "pricing", None) == "owned"
    for name, p in prof.provenance.items():
        if name == "deployment_preference" and bought and p.status == "assumed":
            continue  # 'rent unless a reason to own' read beside a pick to buy contradicts it
        if _named_default(prof, name) and getattr(prof, name, None) is not None:
            pairs = f" ({PAIR_SIDE_TOKENS_ASSUMED:,} tokens a side of each preference pair)" if (
                name == "dataset_tokens" and PAIR_SIDE_ASSUMED_HOW in (p.evidence or "")) else ""  # fmt: skip
            out.append(f"{label(name)} {format_value(name, getattr(prof, name), prof.workload)}{pairs}")
            continue
        weighed = _weighed_horizon(rec)
        if name == "horizon_months" and p.status == "assumed" and weighed is not None:
            # the horizon the buy-vs-rent block weighs, not the 12-month default beside a 36-month block
            # (expert review 13, R07: two horizons in one reply)
            out.append(f"{label(name)} {format_value(name, weighed, prof.workload)}")
            continue
        if p.status == "assumed" and getattr(prof, name, None) not in (None, []):
            if name == "latency_ms_per_token":  # the interactive floor (tools.defaults), as a speed
                out.append(per_user_floor_text(prof.latency_ms_per_token))
                continue
            in_flight = _planned_in_flight(rec)
            if name == "concurrency" and in_flight is not None and in_flight != prof.concurrency:
                # a stated rate sets the load the plan runs (tools.recommend.serving_plan), not the assumed
                # default: "concurrent requests 8" beside 13,800 tokens/s at 10 tokens/s per user read as
                # inconsistent per-user rates (expert review 7, R12)
                out.append(f"{label(name)} about {in_flight:,} in flight on the pick (the load it runs for "
                           "the stated rate)")  # fmt: skip
                continue
            out.append(f"{label(name)} {format_value(name, getattr(prof, name), prof.workload)}")
    return out


def _weighed_horizon(rec: Any) -> float | None:
    """The horizon of the buy-vs-rent block the reply shows (a purchase weighed), else None."""
    timeline = getattr(rec, "buy_vs_rent", None)
    if timeline is None or timeline.owned:
        return None
    return float(timeline.horizon_months)


def _planned_in_flight(rec: Any) -> int | None:
    """Sequences in flight on the pick when a stated rate set them (no concurrency stated): replicas x
    sequences per replica; None otherwise."""
    prof = rec.profile
    figures = getattr(getattr(rec, "primary", None), "serving", None)
    if figures is None or prof.target_tokens_per_s is None or figures.batch_job:
        return None
    return int(figures.replicas * figures.concurrency_per_replica)


def per_user_floor_text(latency_ms: float) -> str:
    """The assumed per-user floor in words: 'per-user speed at least 10 tokens/s (faster than reading; say
    yours)' (1000 ms / ms per token = tokens/s, tools.defaults.INTERACTIVE_LATENCY_MS_PER_TOKEN_DEFAULT)."""
    return prompts.fill(
        prompts.sections("summary")["per_user_floor"],
        tokens_per_s=present.number(ms_per_token_to_tokens_per_s(latency_ms)),
    )


def summary_reply(
    *,
    profile: WorkloadProfile,
    changed: Sequence[str],
    rec: Any,
    error: str | None,
    questions: Sequence[str],
    assumed: Sequence[str],
    report_ready: bool,
    defaults_ack: bool = False,
    note: str | None = None,
    include_body: bool = True,
    followup: bool = False,
    not_used: str = "",
    odd_values: Sequence[str] = (),
    report_requested: bool = False,
    lead: Sequence[str] = (),
) -> str:
    """The templated reply. With include_body=False only the parts that follow an LLM explanation
    (questions, report offer, note) are returned. followup: an earlier turn already described the
    workload (a message with no new facts then keeps the picture rather than 'understood nothing').
    not_used: what the input held that gave no fact (reports.input_account.not_used_text), right after
    what was understood, and first in the tail after a model's explanation.
    odd_values: amounts left out as impossible ('"-3 epochs" (epochs cannot be negative)').
    report_requested: the message asked for the report, which the front end now makes.
    lead: blocks that answer the message before any recommendation (the price of capacity the team rents
    now, advisor/capacity_answer.py), after an LLM explanation too."""
    s = prompts.sections("summary")
    parts: list[str] = []
    # a message that only asks for the report: the front end makes it (web, Slack), the reply says so
    making_report = report_requested and rec is not None and not understood(profile, changed)
    if include_body:
        if defaults_ack:
            parts.append(s["defaults_ack"])
        got = understood(profile, changed)
        if got:
            parts.append(got)
        elif making_report:
            parts.append(s["report_making"])
        elif not defaults_ack and not odd_values:
            parts.append(s["nothing_new"] if followup and rec is not None else s["nothing_understood"])
        if odd_values:
            parts.append(prompts.fill(s["not_used"], items="; ".join(odd_values)))
    if not_used:
        parts.append(not_used)
    parts.extend(lead)
    if include_body:
        if error:
            parts.append(prompts.fill(s["input_error"], message=error))
        if rec is not None:
            parts.extend(_recommendation_lines(rec))
        if assumed:
            parts.append(prompts.fill(s["assumptions"], items="; ".join(assumed)))
    if questions:
        parts.append(s["questions"] + "\n" + "\n".join(f"{i}. {q}" for i, q in enumerate(questions, 1)))
    if (include_body or questions or report_ready) and not making_report:
        parts.append(s["report_offer"] if report_ready else s["not_ready"])
    if note:
        parts.append(note)
    return "\n\n".join(p for p in parts if p)


EXAMPLE_JOB = "For one example job of the assumed size (say yours to size it):"


def _job_assumed(rec: Any) -> bool:
    """Whether the training job's size is the recommender's assumption (no dataset was given)."""
    prof = getattr(rec, "profile", None)
    if prof is None or prof.workload == "inference":
        return False
    return all(prof.status_of(f) in (None, "assumed") for f in ("dataset_tokens", "dataset_gb"))


def _buy_rent_line(rec: Any, timeline: Any) -> str:
    """The buy-vs-rent line, naming the horizon as the default when the user gave none and asked 'buy or
    rent?' (advisor/extract/rules_horizon.py; expert review 12, R05)."""
    line = buy_rent_summary(timeline)
    prov = getattr(getattr(rec, "profile", None), "provenance", {}).get("horizon_months")
    if prov is not None and BUY_OR_RENT_DEFAULT_HOW in (prov.evidence or ""):
        line += (
            f" No horizon was given: this weighs {present.months(timeline.horizon_months)}, the default "
            "horizon for a purchase; say yours to weigh it again."
        )
    return line


def _recommendation_lines(rec: Any) -> list[str]:
    s = prompts.sections("summary")
    # what the engine says before the pick: owned GPUs that cannot run it, a deadline nothing meets, no
    # feasible offer at a preferred provider (the report printed these; the chat reply had left them out)
    lines = [str(n) for n in getattr(rec, "notes", ())]
    checks = list(getattr(rec, "expectation_checks", ()))
    # a plain verdict on the claim asked about ("one L40S serves 2,000 users, true?") opens the answer, before
    # the pick (issue 14 / expert review 10, R04: it came last, after a recommendation of 16x B200)
    lines += [c.explanation for c in checks if getattr(c, "leads", False)]
    timeline = getattr(rec, "buy_vs_rent", None)
    sold = timeline is not None and not timeline.owned  # the answer to 'buy or rent?', reserved terms too
    example_job = rec.primary is not None and sold and _job_assumed(rec)
    if timeline is not None and example_job:
        # buy or rent asked with no job given (expert review 7, R20): the timeline is the answer, the job an
        # example of the assumed size, not a headline
        lines.append(_buy_rent_line(rec, timeline))
    if rec.primary is not None:
        primary = prompts.fill(s["primary"], summary=rec.primary.summary)
        lines.append(f"{EXAMPLE_JOB} {primary}" if example_job else primary)
        if getattr(rec, "time_basis", None):
            lines.append(rec.time_basis)
        if rec.primary.why:
            lines.append(prompts.fill(s["primary_reasons"], reasons="; ".join(rec.primary.why)))
        if timeline is not None and sold and not example_job:
            lines.append(_buy_rent_line(rec, timeline))
        if rec.alternatives:
            # three, and one more per GPU the user compared (each compared GPU's best option is asked for)
            shown = 3 + len(getattr(getattr(rec, "profile", None), "gpus_compared", None) or ())
            alts = [f"{o.label}: {o.summary}" for o in rec.alternatives[:shown]]
            lines.append(prompts.fill(s["alternatives"], items="; ".join(alts)))
    else:
        lines.append(s["infeasible"])
        if rec.infeasible_advice:
            items = "\n".join(f"- {a.rstrip('.')}" for a in rec.infeasible_advice)  # each its own line
            lines.append(prompts.fill(s["infeasible_advice"], items=items))
    for check in checks:
        if getattr(check, "leads", False):
            continue
        if check.verdict in ("tight", "cannot_hold") or (check.asked and check.verdict == "holds"):
            lines.append(prompts.fill(s["expectation"], text=check.explanation))
    return lines
