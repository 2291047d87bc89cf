"""Preference-tuning rules: the training objective (WorkloadProfile.training_objective) and a preference
data set's size in pairs (tools.preference).

- objective: "DPO", "direct preference optimization" -> dpo; "ORPO" -> orpo; "SimPO" -> simpo; "KTO" ->
  kto (stated). "preference tuning", "preference pairs", "RLHF-style preference pairs", "chosen and
  rejected" with no method named -> dpo (inferred: the common method on pairs, TRL's DPOTrainer).
  Near misses: a method after a negation ("not doing DPO") or deferred ("DPO later, SFT first", "then
  DPO next quarter") is not the job; when such a sentence says SFT comes first, the objective is sft.
- reference: "precompute(d) reference log-probs" -> ref_log_probs_precomputed true.
- pairs: "60k preference pairs" with lengths in the same or the next sentence -> dataset_tokens
  (inferred), the tokens both sequences of every pair run through the policy:
      pairs x (2 x prompt + chosen + rejected)   ("a 1k-token prompt with a 1k chosen and a 1k rejected")
      pairs x (chosen side + rejected side)      ("~1k tokens each side", "2k per chosen/rejected
                                                  response incl. prompt": a side is a whole sequence)
  and seq_len (inferred, unless stated): the longer sequence, prompt + the longer answer. A pair's
  prompt length read by the serving rules as prompt_tokens is dropped (it is not a served request).
  Pairs without lengths (expert review 19, R08: "a nightly DPO run on Qwen2.5 7B with 200k preference pairs"
  was sized on an assumed 100M tokens) are counted at tools.preference.PAIR_SIDE_TOKENS_ASSUMED a side,
  prompt included (an estimate: the evidence names the assumption, and a stated size replaces it).
"""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, Entry, Gated, I, negated, q
from advisor.extract.rules_text import APPROX, MULT, NUM, NUMBER, Sentence, parse_scaled
from tools.preference import PAIR_SIDE_TOKENS_ASSUMED, preference_tokens

_OBJECTIVES: tuple[tuple[str, Gated], ...] = (
    ("dpo", Gated(re.compile(r"\bdpo\b|\bdirect\s+preference\s+optimi[sz]ation\b", I), "dpo", "direct")),
    ("orpo", Gated(re.compile(r"\borpo\b|\bodds[\s-]ratio\s+preference", I), "orpo", "odds")),
    (
        "simpo",
        Gated(re.compile(r"\bsimpo\b|\bsimple\s+preference\s+optimi[sz]ation\b", I), "simpo", "simple"),
    ),
    ("kto", Gated(re.compile(r"\bkto\b|\bkahneman[\s-]tversky", I), "kto", "kahneman")),
)
_GENERIC = Gated(
    re.compile(
        r"\bpreference\s+(?:tuning|optimi[sz]ation|fine[\s-]?tun\w*|training|pairs|data(?:set)?)\b"
        r"|\bchosen\s*(?:and|/|&|vs\.?)\s*rejected\b|\brlhf[\s-]style\s+preference",
        I,
    ),
    "preference",
    "chosen",
)
_DEFER_AFTER = re.compile(
    r"^\W*(?:\w+\W+){0,3}?(?:later|afterwards?|eventually|next\s+(?:step|phase|quarter|month|year)"
    r"|down\s+the\s+road|in\s+(?:a|the)\s+(?:second|later|next)\s+(?:stage|phase|step)|phase\s*2)\b",
    I,
)
_DEFER_BEFORE = re.compile(
    r"\b(?:then|later|after\s+(?:that|it|sft)|afterwards|followed\s+by|eventually|maybe|might|possibly"
    r"|considering|future|next)\W+(?:\w+\W+){0,2}$",
    I,
)
_SFT_FIRST = re.compile(
    r"\b(?:sft|supervised\s+fine[\s-]?tun\w*)\s+(?:first|now|for\s+now|to\s+start)\b"
    r"|\b(?:first|start\s+with|starting\s+with|begin\s+with)\s+(?:an?\s+|the\s+)?(?:sft|supervised)\b",
    I,
)
_PRECOMPUTED = Gated(
    re.compile(
        r"\bprecomput\w*\s+(?:the\s+)?(?:ref(?:erence)?\s+)?(?:model\s+)?log[\s-]?probs?\b"
        # the log-probs first (evals v16): "Reference log-probs are computed in a first pass and cached"
        r"|\bref(?:erence)?\s+(?:model\s+)?log[\s-]?probs?\s+(?:are|were|get|will\s+be)\s+(?:pre-?computed"
        r"|cached|computed\s+(?:in\s+a\s+first\s+pass|ahead|beforehand|offline|up\s*front|once))\b",
        I,
    ),
    "precomput", "log",
)  # fmt: skip
# said as not precomputed (evals v16): "reference log-probs NOT precomputed (we compute them on the fly)"
_NOT_PRECOMPUTED = re.compile(
    r"\bref(?:erence)?\s+(?:model\s+)?log[\s-]?probs?\s+(?:are\s+|were\s+)?not\s+(?:pre-?computed|cached)\b"
    r"|\bref(?:erence)?\s+(?:model\s+)?log[\s-]?probs?\s+(?:are\s+)?computed\s+on\s+the\s+fly\b",
    I,
)
# a setting's value after its key: "precompute ref log probs: false", "precompute_ref_log_probs=False"
_SET_FALSE = re.compile(r"\s*[:=]\s*[\"']?(?:false|no|off|0|disabled)\b", I)
_PAIRS = Gated(
    re.compile(
        rf"{APPROX}(?P<count>{NUMBER})\s*(?P<mult>{MULT})?\s*(?:(?:rlhf[\s-]style|dpo|preference|comparison"
        r"|chosen[\s/-]rejected)\s+)*pairs\b",
        I,
    ),
    "pair",
)
_LEN = re.compile(rf"{APPROX}(?P<num>{NUM})\s*(?P<mult>k)?(?:[\s-]*(?:tokens?|toks?))?\b", I)
_ROLE_AFTER = re.compile(
    r"^[\s-]*(?:tokens?|toks?)?[\s-]*(?:long\s+)?(?:(?P<prompt>prompts?)|(?P<chosen>chosen)|(?P<rejected>rejected)"
    r"|(?P<both>(?:each|per|a)\s+(?:side|response|answer|completion|sequence)"
    r"|per\s+chosen\s*(?:/|and|or)\s*rejected|each\b))",
    I,
)
_ROLE_BEFORE = re.compile(
    r"(?:(?P<prompt>prompts?)|(?P<both>chosen\s*(?:and|&|/)\s*rejected(?:\s+(?:answers?|responses?|completions?))?)"
    r"|(?P<chosen>chosen(?:\s+(?:answers?|responses?))?)|(?P<rejected>rejected(?:\s+(?:answers?|responses?))?))"
    # "prompts average ~300 tokens", "prompts averaging 300", "prompts (mean) 300" (evals v16)
    r"\s*(?:are|is|of|at|around|about|average|averaging|avg\.?|mean|roughly|typically|:|=|\(|\)|\s)*$",
    I,
)
_INCLUDES_PROMPT = re.compile(r"^[^.;]{0,40}\b(?:incl\w*|with)\s+(?:the\s+)?prompts?\b", I)
_MIN_PAIRS = 100  # fewer: examples of what a pair holds, not a data set (advisor/extract/rules_data.py)


def _deferred(text: str, start: int, end: int) -> bool:
    """Whether the method at text[start:end] is for later ("DPO later", "then DPO"), not the job now."""
    return bool(
        _DEFER_AFTER.match(text[end : end + 40]) or _DEFER_BEFORE.search(text[max(0, start - 30) : start])
    )


def rule_preference(ctx: Ctx) -> None:
    """training_objective, ref_log_probs_precomputed, and dataset_tokens / seq_len from preference pairs."""
    named = False  # a method named for the job now
    generic: list[tuple[Sentence, re.Match[str]]] = []
    # each step needs one of these to match ("sft first" only after an objective)
    entries: tuple[Entry, ...] = (*(rx for _, rx in _OBJECTIVES), _GENERIC, _NOT_PRECOMPUTED, _PRECOMPUTED)
    for s in ctx.sentences_with(*entries):
        t = s.text
        later = False
        for name, rx in _OBJECTIVES:
            for m in rx.finditer(t):
                if negated(t, m.start()) or _deferred(t, m.start(), m.end()):
                    later = True
                    continue
                named = True
                ctx.add(s, "training_objective", name, q(m), "stated", m.start())
        first = _SFT_FIRST.search(t)
        if later and first is not None:
            ctx.add(s, "training_objective", "sft", q(first), "stated", first.start())
        generic += [(s, m) for m in _GENERIC.finditer(t) if not negated(t, m.start())]
        if (no := _NOT_PRECOMPUTED.search(t)) is not None:
            ctx.add(s, "ref_log_probs_precomputed", False, q(no), "stated", no.start())
            continue
        for m in _PRECOMPUTED.finditer(t):
            if (off := _SET_FALSE.match(t, m.end())) is not None:
                # a setting turned off: "precompute_ref_log_probs: false" (evals v18, a review suggestion)
                ctx.add(s, "ref_log_probs_precomputed", False, q(m) + off.group(0), "stated", m.start())
            elif not negated(t, m.start()):
                ctx.add(s, "ref_log_probs_precomputed", True, q(m), "stated", m.start())
    if not named and generic and not ctx.has("training_objective"):
        s, m = generic[0]
        why = f'"{q(m)}": DPO assumed (the usual method on preference pairs)'
        ctx.add(s, "training_objective", "dpo", why, "inferred", m.start())
    if named or generic:
        _pairs(ctx)


def _pairs(ctx: Ctx) -> None:
    sentences = ctx.sentences
    for i, s in enumerate(sentences):
        m = _PAIRS.search(s.text)
        if m is None or negated(s.text, m.start()):
            continue
        pairs = parse_scaled(m.group("count"), m.group("mult"))
        if pairs < _MIN_PAIRS:
            continue
        window = [s, *sentences[i + 1 : i + 2]]
        lengths = _lengths(window, s, m.end())
        if lengths is None:
            _assumed_lengths(ctx, s, m, pairs)
            return
        prompt, chosen, rejected, how = lengths
        tokens = preference_tokens(
            pairs=pairs, prompt_tokens=prompt, chosen_tokens=chosen, rejected_tokens=rejected
        )
        arithmetic = (
            f"{pairs:,.0f} pairs x (2 x {prompt:,.0f} prompt + {chosen:,.0f} chosen "
            f"+ {rejected:,.0f} rejected)"
            if prompt
            else f"{pairs:,.0f} pairs x ({chosen:,.0f} + {rejected:,.0f}) tokens, {how}"
        )
        end = window[-1].start + len(window[-1].text)  # after the item x size readings of these sentences
        # an items x size reading of the same pairs ("24,000 preference pairs" x "average ~300 tokens",
        # rules_data) counts one length per pair: this reading replaces it
        ctx.findings[:] = [
            f
            for f in ctx.findings
            if not (f.field == "dataset_tokens" and f.evidence.startswith(f'"{q(m)}" x '))
        ]
        ctx.add(
            s,
            "dataset_tokens",
            tokens,
            f'"{q(m)}": {arithmetic} = {tokens:,.0f} tokens',
            "inferred",
            rank=end,
        )
        if not ctx.has("seq_len"):
            seq = int(prompt + max(chosen, rejected))
            how_seq = (
                f"{how}: prompt {prompt:,.0f} + longer answer {max(chosen, rejected):,.0f}" if prompt else how
            )
            ctx.add(s, "seq_len", seq, f"longest pair sequence: {how_seq}", "inferred", rank=end)
        spans = [(w.start, w.start + len(w.text)) for w in window]
        ctx.findings[:] = [
            f
            for f in ctx.findings
            if f.field not in ("prompt_tokens", "output_tokens")
            or not any(a - 200 <= f.position < b for a, b in spans)  # 200: a quoted sentence's penalty
        ]
        return


def _lengths(
    window: list[Sentence], first: Sentence, after_pairs: int
) -> tuple[float, float, float, str] | None:
    """(prompt, chosen, rejected, how) tokens per pair read around the pairs, or None."""
    roles: dict[str, float] = {}
    quotes: list[str] = []  # the lengths' words, quoted so the input's accounting sees them read
    includes_prompt = False
    for w in window:
        t = w.text
        start = after_pairs if w is first else 0
        for m in _LEN.finditer(t, start):
            value = parse_scaled(m.group("num"), m.group("mult"))
            if value < 8:
                continue
            after, before = t[m.end() : m.end() + 40], t[max(0, m.start() - 40) : m.start()]
            r = _ROLE_AFTER.match(after) or _ROLE_BEFORE.search(before)
            if r is None:
                continue
            role = next(k for k, v in r.groupdict().items() if v)
            if role not in roles:
                roles[role] = value
                quotes.append(f'"{q(m)}"')
            includes_prompt = includes_prompt or bool(_INCLUDES_PROMPT.match(after))
    both = roles.get("both")
    chosen, rejected = roles.get("chosen", both), roles.get("rejected", both)
    if chosen is None or rejected is None:
        return None
    prompt = roles.get("prompt", 0.0)
    if prompt and not includes_prompt:
        return prompt, chosen, rejected, f"{'; '.join(quotes)}; prompt counted in both sequences"
    how = "each side a whole sequence, prompt included" + (
        "" if includes_prompt else " (no prompt length given)"
    )
    return 0.0, chosen, rejected, how


PAIR_SIDE_ASSUMED_HOW = "tokens a side assumed (prompt + answer, TRL's default max_length; say yours)"
"""Evidence of the assumed pair length: the reply lists the fields it set under 'Assumed' (templates)."""


def _assumed_lengths(ctx: Ctx, s: Sentence, m: re.Match[str], pairs: float) -> None:
    """dataset_tokens (and seq_len unless stated) of pairs said without lengths, at the assumed side length
    (module docstring), unless a size was read another way; estimates, so a size stated anywhere wins."""
    if ctx.has("dataset_tokens"):
        return  # a size read another way ("60k pairs, about 1.5k tokens per pair", a stated total) stands
    side = PAIR_SIDE_TOKENS_ASSUMED
    tokens = preference_tokens(pairs=pairs, chosen_tokens=side, rejected_tokens=side)
    how = f"{side:,} {PAIR_SIDE_ASSUMED_HOW}"
    ev = f'"{q(m)}": {pairs:,.0f} pairs x ({side:,} + {side:,}) tokens, {how} = {tokens:,.0f} tokens'
    ctx.add(s, "dataset_tokens", tokens, ev, "inferred", m.start(), estimate=True)
    if not ctx.has("seq_len"):
        ctx.add(s, "seq_len", side, f"longest pair sequence: {how}", "inferred", m.start(), estimate=True)
