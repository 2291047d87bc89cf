"""Provider rules: each clause's cue (an exclusion, a preference, a requirement) applied to the providers
it names; hyperscalers or the community / marketplace tier excluded as a class. Moved out of
rules_constraints (module size) with the asides read apart (provider_asides.py, fix32)."""

from __future__ import annotations

import re
from collections.abc import Callable

from advisor.extract.provider_asides import CHOICE_OPEN, only, own_cue_asides, up_to, without
from advisor.extract.regex_keys import Keyed, keyed
from advisor.extract.rules_ctx import QUOTED_PENALTY, Ctx, I, negated, q
from advisor.extract.rules_list_leads import COMMUNITY_OUT, community_providers
from advisor.extract.rules_list_leads import names_only as names_only_clause
from advisor.extract.rules_models import HYPERSCALERS, find_providers
from advisor.extract.rules_text import Sentence
from advisor.extract.scan import HeadCues, Spans, comma_clauses, last_match, live_patterns
from advisor.extract.withdrawn_choice import after_withdrawal, inside, withdrawn_spans

_PREFER = keyed(
    r"\b(?:prefer\w*|first choices?|would like to use|we'd like to use|like to use|favou?r|have credits"
    r"|credits (?:on|with)|happy with|our (?:usual|current) provider|if we rent"
    # a wish, not a rule: "staying on GCP would be nice", "ideally on Azure", "nice to have: Lambda"
    r"|(?<!to )(?<!must )stay(?:ing)? on|stick(?:ing)? (?:with|to)|ideally(?: on)?|would be nice|nice to have"
    r"|(?:would|'d) like to stay|want to stay|stay there|stay with them"
    r"|would be ideal|already\s+(?:on|using|with|at|in)\b"  # "we're already on runpod" (reviews 7, 9)
    # capacity the team can get there: "we can get H100s on CoreWeave", "CoreWeave can give us 64 H100s"
    r"|(?:we|i)\s+(?:can|could)\s+get|(?:can|could)\s+(?:give|offer|lend)\s+us|have\s+access\s+to"
    # money already committed there: "a GCP commitment we need to burn down", "our AWS EDP", "Azure credits"
    r"|(?:spend\s+)?commitments?|committed\s+(?:spend|use)|burn\s+(?:down|through)|edp|credits"
    # where the money was approved: "budget got approved for H100s on Lambda"
    r"|(?:approved|signed\s+off|cleared|green[\s-]?lit)\s+(?:for|on)\s+(?:[\w-]+\s+){0,3}?(?:on|at|with|from)"
    # a contract already signed there: "we already have a contract with Nebius", "Nebius (we have an MSA)"
    r"|(?:have|has|signed)\s+(?:already\s+)?(?:a|an|the|our)\s+(?:contract|agreement|msa|framework(?:\s+agreement)?)"
    # the agreement named first (rd15): "our enterprise agreement is with Microsoft", "our EA/MSA is with AWS"
    r"|(?:(?:enterprise|master|framework|cloud|volume)\s+(?:services\s+)?agreement|\bea|\bmsa|contract)\s+"
    r"(?:is\s+|sits\s+|runs\s+)?with|\bhave\s+an?\s+(?:ea|msa|baa)\s+with|(?:we|i)\s+can\s+use"
    # the second rank of a priority table or list (MoSCoW): "Should: Nebius", "Nice to have: Lambda"
    r"|(?:should|could)(?:[\s-]haves?)?\s*:|nice[\s-]to[\s-]haves?\s*:|preferred\s*:|preferences?\s*:"
    # the name as the option kept among any: "RunPod or anything else is ok"
    r"|(?:or|and)\s+(?:anything|any\s*one|whatever|any\s+other)(?:\s+else)?\s+(?:is|would\s+be|works)\b"
    r"|(?:is|are|would\s+be)\s+(?:also\s+)?(?:fine|ok|okay|acceptable)"
    # where the team is going: "we're moving to GCP for everything new", "please plan on Azure"
    r"|shop\b|keep\s+(?:it|everything|this|things|the\s+\w+)\s+(?:in|on|with)"
    r"|(?:moving|migrating|switching|move|migrate|switch|moved|migrated|switched)\s+(?:\w+\s+){0,2}?(?:to|onto)"
    r"|plan\s+(?:on|for)"
    r")\b",
    I,
)
_EXCLUDE = keyed(
    r"\b(?:not|no|anything but|except|avoid|excluding|exclude|can't use|cannot use|can not use"
    r"|not allowed to use|won't use|will not use|don't want|never|without|ban(?:ned)?|other than"
    r"|(?:don't|do not|please don't|please do not)\s+(?:suggest|recommend|propose|pick|offer)"
    # a request not to use it (evals v18): "don't use Azure", "just don't use Vast ya", "stay away from GCP"
    r"|(?:don't|dont|do\s+not)\s+(?:use|go\s+(?:with|to)|run\s+(?:it\s+|this\s+)?on|put\s+(?:it|this)\s+on)"
    r"|stay\s+away\s+from"
    r"|excluded|exclusions?|blacklist\w*|rule[sd]? out|rather than|instead of|over|is out|are out"
    # a sign-off refused (rd15): "security won't approve Azure", "procurement will not sign off on GCP"
    r"|(?:won't|will\s+not|wouldn't|doesn't|does\s+not|didn't|never)\s+(?:approve|sign\s+off\s+on|allow)"
    # a party that will not have it (evals v16): "Customer refuses AWS", "legal rejected GCP"
    r"|(?:refus(?:es|e|ed)|reject(?:s|ed)?)(?:\s+to\s+(?:use|touch|go\s+with|run\s+on))?(?=\s*$)"
    # taken back (rd15): "actually scratch Lambda", "forget about Azure", "cross off CoreWeave"
    r"|(?<!from\s)scratch(?!\s+(?:disk|space|storage|bucket|dir))|forget\s+about|cross\s+(?:out|off)|skip(?=\s*$)"
    # after the name: "Vast.ai is a no-go", "Azure is off the table", "CoreWeave is not an option"
    r"|(?:is|are)\s+(?:a\s+)?(?:no[\s-]?go|non[\s-]?starter|off\s+the\s+table|out\s+of\s+the\s+question"
    r"|not\s+(?:an\s+)?option|not\s+allowed|not\s+permitted|banned|forbidden|prohibited)"
    # the last rank of a priority table (MoSCoW): "Won't: Vast.ai"
    r"|won'?t(?:[\s-]haves?)?\s*:)(?=\W|$)",
    I,
)
# A hard requirement before a provider name: "must be on AWS", "only AWS", "company policy: AWS"
_REQUIRE = keyed(
    r"\b(?:must\s+(?:\w+\s+){0,3}?(?:on|in|with|use|using|through|via)|(?:has|have|need|needs)\s+to\s+"
    r"(?:\w+\s+){0,2}?(?:on|in|with|use)|only(?:\s+(?:use|on|in|with|through|via))?"
    # the object between: "we need it on AWS", "we need everything in Azure" (fix32)
    r"|(?<!don't\s)(?<!not\s)(?:need|needs)\s+(?:it|this|them|everything|all\s+of\s+it)\s+"
    r"(?:to\s+(?:be|run|stay)\s+)?(?:on|in)"
    r"|exclusively(?:\s+(?:on|in|with|use))?|(?:required|mandated|obliged) to (?:use|run on|be on)"
    # a rule as its verb (evals v12 grant text): "policy requires that funded cloud usage go through the
    # institution's existing Google Cloud or AWS agreements", "the contract mandates that we use Azure"
    r"|(?:requires?|mandates?|stipulates?|dictates?)\s+that\s+(?:[\w'\u2019-]+\s+){0,5}?(?:(?:go|goes|run|runs"
    r"|be|is|stay|stays)\s+)?(?:on|in|with|use|using|through|via)"
    r"|mandatory|(?:company|corporate|security|it|procurement) policy|policy(?: says| is)?:"
    r"|standardi[sz]ed on|all[\s-]in on|locked in(?:to)?"
    # "Must be AWS", a priority table's first rank "Must: AWS", "Hard requirements from infra: in AWS"
    r"|must\s+be(?=\s*$)|(?:has|have|needs?)\s+to\s+be(?=\s*$)|must(?:[\s-]haves?)?\s*:"
    r"|(?:hard\s+)?requirements?\b[^:.;]{0,30}:"
    # a list of approved vendors: "the approved list, which today is AWS", "our approved suppliers: AWS"
    r"|approved[\s-](?:(?:vendors?|suppliers?|providers?|clouds?)(?:[\s-]list)?|list)"
    r"|(?:allowed|permitted|whitelisted|sanctioned)\s+(?:clouds?|providers?|vendors?)\s*:)(?=\W|$)",
    I,
)
# a double negative that leaves one provider: "we can't use anything but AWS", "nothing other than Azure"
_ONLY_THIS_BEFORE = keyed(
    r"\b(?:(?:can'?t|cannot|can\s+not|won'?t|mustn'?t|(?:are\s+)?not\s+allowed\s+to|don'?t|may\s+not)\s+"
    r"(?:use|go\s+(?:to|with)|run\s+(?:on|in)|touch|consider)\s+(?:anything|any(?:one|\s+\w+)?)|nothing"
    r"|no\s+(?:other\s+)?(?:cloud|provider|vendor)s?)\s+(?:but|except|other\s+than|besides|apart\s+from"
    r"|outside(?:\s+of)?)\s*$",
    I,
)
# ... or after it: "we're an AWS shop and can't use anything else", "on Azure and cannot use other clouds"
_ONLY_THIS_AFTER = keyed(
    r"^(?:(?!\b(?:but|though|although|however)\b)[^.;!?]){0,60}?\b(?:(?:can'?t|cannot|can\s+not|won'?t|mustn'?t|(?:are\s+)?not\s+allowed\s+to|may\s+not)"
    r"\s+(?:use|go\s+(?:to|with)|run\s+(?:on|in)|touch|consider)\s+(?:anything|any\s*(?:thing|one|other)"
    r"|other|another|a\s+different|different)\b(?:\s+else)?|nothing\s+else\b|no\s+other\s+(?:cloud|provider"
    r"|vendor)s?\b)(?!\s*(?:else|other)?\s*(?:than|but|except|besides)\s+(?:spot|on[\s-]demand|reserved|preemptible))",
    I,
)
_NOT_REQUIRED = re.compile(
    r"\s+(?:mandatory|required|a\s+must|necessary|essential|needed|a\s+(?:hard\s+)?requirement|strict"
    r"|a\s+deal[\s-]?breaker)\b",
    I,
)
_COMMITTED = re.compile(r"(?:spend\s+)?commitments?|committed", I)
_NO_BEFORE = re.compile(r"\b(?:no|not|without|never|n't)\b[\w\s-]{0,25}$", I)
_OTHER_OBJECT = re.compile(
    r"\s+(?:anything|any\s*(?:thing|one|other)|other|another|something|a\s+different)\b", I
)
# ... or right after it: "AWS only." (not "AWS only once"), "AWS-only", "our AWS account"
_REQUIRE_AFTER = keyed(
    r"^(?:-only\b|\s+only(?=\s*(?:[,.;:!?()\-–—]|$|please\b|for\b|as\b))|\s+exclusively\b"
    r"|\s+(?:account|org(?:ani[sz]ation)?|tenant|subscription|project|vpc|landing\s+zone"
    r"|enterprise agreement)s?\b"
    # the requirement after the name (evals v18): "Processor: Nebius (required; ...)", "Nebius is mandatory"
    r"|\s*\(\s*(?:required|mandatory|compulsory|obligatory|a\s+must)\b"
    r"|\s+(?:is|are)\s+(?:required|mandatory|compulsory|obligatory|a\s+must)\b(?!\s+(?:for|to)\b))",
    I,
)
HYPER = keyed(
    r"\b(?:no|not|avoid|without|anything but|except)\s+(?:on\s+)?(?:any\s+|the\s+)?(?:(?:us|u\.s\.|american"
    r"|big|three|major)\s+)*"
    r"hyperscalers?\b"
    r"|\bno big (?:three|3) clouds?\b"
    # "none of the big clouds", "nothing from the big three", "not on any of the major clouds" (rd12)
    r"|\b(?:none\s+of|nothing\s+(?:from|on)|not\s+(?:on\s+)?(?:any\s+of)?)\s+the\s+(?:big|major|large)\s+"
    r"(?:three|3|clouds?|cloud\s+providers|hyperscalers|providers)\b",
    I,
)


def rule_providers(ctx: Ctx, s: Sentence) -> None:
    """providers_preferred / _required / _excluded: the cue of each clause applies to its providers."""
    t = s.text
    hyper = HYPER.search(t)
    if hyper:
        ctx.add(s, "providers_excluded", list(HYPERSCALERS), q(hyper), "stated", hyper.start())
    if (crowd := COMMUNITY_OUT.search(t)) is not None and (ids := community_providers()):
        ctx.add(s, "providers_excluded", ids, q(crowd), "stated", crowd.start())
    named = find_providers(t)
    if not named:
        return
    _read_view(ctx, s, t, named)


def _read_view(
    ctx: Ctx, s: Sentence, t: str, named: list[tuple[str, int, int]], within: int | None = None
) -> None:
    """The providers `named` in `t` (the sentence or a view of it), an aside with its own names and cue read
    apart: "AWS, GCP or Azure (not Oracle)" (provider_asides.py). `within`: where the aside `t` shows
    begins (an aside inside it, "- must run on AWS, GCP or Azure (not Oracle)", is read apart in turn)."""
    asides = own_cue_asides(t, named, _own_cue, within)
    if not asides:
        _read_names(ctx, s, t, named)
        return
    _read_names(ctx, s, without(t, asides), [n for n in named if not any(a <= n[1] < b for a, b in asides)])
    shift = s.start - (QUOTED_PENALTY if s.quoted else 0)  # a finding's position: Ctx.add
    for a, b in asides:
        inner = [n for n in named if a <= n[1] < b]
        seen = len(ctx.findings)
        _read_view(ctx, s, only(t, a, b), inner, a)  # "(use AWS, GCP or Azure)", "(Lambda is fine)": its own
        got = {f.position - shift for f in ctx.findings[seen:] if f.field.startswith("providers_")}
        rest = [n for n in inner if n[1] not in got]
        if rest and CHOICE_OPEN.match(t[a:b]):  # "No Oracle (use AWS, GCP or Azure)": the ones to use
            for pid, at, _ in rest:
                ctx.add(s, "providers_preferred", [pid], s.text[a:b], "stated", at)
            continue
        # the names the aside alone gives no cue: read with the words before ("approved vendors (AWS, Azure;
        # not Oracle)" keeps AWS and Azure required)
        _read_names(ctx, s, up_to(t, b), rest)


# a few words between a cue and the name it leads: "not on Oracle", "no use of the Oracle cloud"
_TO_NAME = re.compile(r"\s*(?:(?:on|in|at|with|of|the|using|use|any|cloud)\s+){0,3}", I)


def _leads_a_name(rest: str, end: int) -> bool:
    """Whether the cue ending at `end` of `rest` (the words after a provider name) stands before another
    provider's name, so it is that name's cue: "AWS, Azure; not Oracle" does not exclude AWS (fix32)."""
    at = _TO_NAME.match(rest, end)
    start = at.end() if at else end
    return any(a == start for _, a, _ in find_providers(rest[: start + 40]))


def _own_cue(words: str) -> bool:
    return any(rx.search(words) for rx in (_EXCLUDE, _PREFER, _REQUIRE))


def _read_names(ctx: Ctx, s: Sentence, t: str, named: list[tuple[str, int, int]]) -> None:
    """The cue of each clause of `t` (the sentence, or a view of it with stretches made spaces) applied
    to the providers `named` in it; the evidence is quoted from the sentence itself."""
    # clauses: a cue applies to the providers of its own clause (lists in parentheses stay together)
    data_like = re.compile(r"\b(?:s3|gcs|blob|bucket|data|dataset|corpus|stored|sits|lives)\b", I)
    clauses = comma_clauses(t)
    kept: tuple[str, ...] = ()  # the lists the sentence's last provider went to
    kept_at = 0  # where the words that put it there begin
    spans = Spans(named)  # each clause's names by bisection (advisor/extract/scan.py), read linearly
    after_live: bool | None = None  # whether _ONLY_THIS_AFTER's words occur after the first name: asked once
    withdrawn = withdrawn_spans(t)  # "Scratch the Nebius preference: ..." (withdrawn_choice.py)
    # names in clauses of names alone that no cue reached yet: a cue after the list's last names is theirs
    # too ("AWS, GCP and Azure are out" excluded GCP and Azure only; fix32)
    pending: list[tuple[str, int, int]] = []
    last_end = -1  # where the name before ends: "Must be AWS/GCP/Azure" joins them with no clause between
    for n, (idx, clause) in enumerate(clauses):
        names_only: bool | None = None  # the clause is nothing but names and joiners: asked once
        first, live = -1, frozenset[Keyed]()  # the clause this one continues; the cues its words allow
        here = spans.starting_in(idx, idx + len(clause))
        if not here:
            pending = []
        for pid, a, b in here:
            if inside(withdrawn, a):
                continue
            if first < 0:
                first = _reach_back(clauses, n)
                live = live_patterns(_HEAD_CUES, t[clauses[first][0] : idx + len(clause)])  # asked once
                cues = HeadCues(t, idx + len(clause))  # the last cue before each name: one pass (scan.py)
            if after_live is None:
                after_live = _ONLY_THIS_AFTER.may_match(t[a:])
            joined = last_end >= 0 and _JOINED.fullmatch(t, last_end, a) is not None
            last_end = b
            if kept and names_only is None:
                names_only = names_only_clause(spans.blanked(clause, idx))
            if kept and (names_only or joined):
                # a list's later items share its cue: "must be on our approved list: AWS, Azure or GCP"
                for kind in kept:
                    ctx.add(s, kind, [pid], s.text[kept_at : idx + len(clause)], "stated", a)
                continue
            at = after_withdrawal(withdrawn, clauses[first][0], a)
            local, cue = t[at:a], cues.at(at)  # the cue's clause to the name; the last cue in it
            said_at = clauses[first][0]  # the evidence: from the cue's clause on, its words shown in the view
            said_at += len(t[said_at:a]) - len(t[said_at:a].lstrip())  # an aside's words, not the blanks
            said = s.text[said_at : idx + len(clause)]
            ex = cue(_EXCLUDE, local) if _EXCLUDE in live else None
            pref = cue(_PREFER, local) if _PREFER in live else None
            no_from = max(0, pref.start() - 40) if pref else 0  # _NO_BEFORE spans at most 35 characters
            if pref and _COMMITTED.match(pref.group(0)) and _NO_BEFORE.search(local, no_from, pref.start()):
                pref = ex = None  # "no long-term commitment with AWS": a pricing rule, not about AWS
            only_this = (_ONLY_THIS_BEFORE in live and _ONLY_THIS_BEFORE.search(local)) or (
                ex is None and after_live and _ONLY_THIS_AFTER.search(t[b:])
            )
            required = only_this or _required(local, t[b : idx + len(clause)], ex, pref, data_like, live, cue)
            if required and _OPEN_TO_OTHERS.match(t, b):
                # "We already have an AWS account but are open to others": the first choice, not the only one
                ctx.add(s, "providers_preferred", [pid], said, "stated", a)
                kept, kept_at = ("providers_preferred",), clauses[first][0]
                continue
            if required:
                # a requirement is also the first choice: ranked first, and nothing else is picked
                ctx.add(s, "providers_required", [pid], said, "stated", a)
                ctx.add(s, "providers_preferred", [pid], said, "stated", a)
                kept, kept_at = ("providers_required", "providers_preferred"), clauses[first][0]
                continue
            if pref is None and ex is None and (mark := _MARK.match(t, b)) is not None:
                # a check mark after the name: "Providers: AWS ✅, Azure ❌"
                kind = "providers_excluded" if mark.group("no") else "providers_preferred"
                ctx.add(s, kind, [pid], said, "stated", a)
                kept, kept_at = (kind,), clauses[first][0]
                continue
            after_cue = pref is None and ex is None
            if after_cue:  # a cue after the name: "Lambda or Nebius would be our first choices"
                if _PREFER in live or _EXCLUDE in live:  # else neither occurs after the name either
                    rest = clause[a - idx :]
                    rest = rest[: m.start()] if (m := _CONTRAST.search(rest)) else rest  # "Azure but now GCP"
                    pref, ex = _PREFER.search(rest), _EXCLUDE.search(rest)
                if ex and (_OTHER_OBJECT.match(rest, ex.end()) or _NOT_REQUIRED.match(rest, ex.end())):
                    ex = None  # "GCP, and we can't use anything other than spot": not about GCP; "GCP
                    # would be nice but it's not mandatory": a requirement lifted, not an exclusion
                pref, ex = (None if m and _leads_a_name(rest, m.end()) else m for m in (pref, ex))
                if pref is not None and ex is not None:
                    # after the name the nearest cue is its own: "Nebius or Scaleway ideally (EU
                    # sovereignty thing: no US hyperscalers)" prefers both
                    pref, ex = (pref, None) if pref.start() < ex.start() else (None, ex)
            if pref is not None and (ex is None or pref.start() > ex.start()):
                kind = "providers_preferred"
            elif ex is not None:
                kind = "providers_excluded"
            elif _LIST_CUE in live and _LIST_CUE.search(local) and re.search(r"\bonly\b", local, I):
                kind = "providers_preferred"  # "only EU providers (e.g. Scaleway, OVHcloud)"
            elif re.search(r"\bor\b", clause) and _preferred_in(ctx, s):
                kind = "providers_preferred"  # "we'd prefer Lambda, or RunPod"
            else:
                kept = ()
                if names_only is None:
                    names_only = names_only_clause(spans.blanked(clause, idx))
                pending = [*pending, (pid, a, idx)] if names_only else []
                continue
            if kind == "providers_preferred" and data_like.search(local):
                kept, pending = (), []
                continue  # "our data is in S3" names a location, not a preference
            ctx.add(s, kind, [pid], said, "stated", a)
            for p_id, p_at, p_idx in pending if after_cue else ():
                ctx.add(s, kind, [p_id], s.text[p_idx : idx + len(clause)], "stated", p_at)
            kept, kept_at, pending = (kind,), clauses[first][0], []


_JOINED = re.compile(r"\s*(?:/|&|\+)\s*")  # "AWS/GCP/Azure", "AWS & GCP": one item of names
_OPEN_TO_OTHERS = re.compile(
    r"[^.;!?]{0,60}?\b(?:open\s+to\s+(?:others|other\s+\w+|alternatives|anything|any\s+\w+)"
    r"|(?:doesn't|does\s+not|don't|do\s+not)\s+have\s+to\s+be)\b",
    I,
)
_MARK = re.compile(r"\s*[:(]?\s*(?:(?P<yes>[✅✔☑👍])|(?P<no>[❌✗✘🚫👎⛔]))")
_CONTRAST = re.compile(r"\b(?:but|though|although|however|whereas|yet)\b", I)
# a clause that continues the one before it: the earlier clause ends on a preposition ("must not be
# transferred to, stored on or processed by AWS") or this one opens a relative clause ("the approved list,
# which today is AWS and GCP")
_OPEN_END = re.compile(r"\b(?:to|on|in|by|with|from|at|into|onto|via|through)\s*,$", I)
_RELATIVE_START = re.compile(r"^\s*(?:which|that|namely|i\.e\.|meaning)\b", I)


def _reach_back(clauses: list[tuple[int, str]], n: int) -> int:
    """The first of the clauses that clause `n` continues (n itself when it starts afresh)."""
    while n > 0 and (_OPEN_END.search(clauses[n - 1][1].rstrip()) or _RELATIVE_START.match(clauses[n][1])):
        n -= 1
    return n


_LIST_CUE = keyed(r"\b(?:e\.g\.|eg\.|such as|for example|for instance|i\.e\.|including)", I)
# the cues asked of the text before (or after) each provider name: asked once per clause (scan.live_patterns)
_HEAD_CUES = (_EXCLUDE, _PREFER, _REQUIRE, _ONLY_THIS_BEFORE, _LIST_CUE, _REQUIRE_AFTER)


def _required(
    local: str,
    after: str,
    ex: re.Match[str] | None,
    pref: re.Match[str] | None,
    data_like: re.Pattern[str],
    live: frozenset[Keyed] | None = None,
    last: Callable[[Keyed, str], re.Match[str] | None] = last_match,
) -> bool:
    """Whether the clause makes the provider named between `local` and `after` a hard requirement: a
    requirement cue nearer the name than any exclusion or preference cue and not negated ("doesn't have
    to be on AWS", "not only AWS"), or "AWS only" / "our AWS account" with no cue against it. Examples of
    a class ("only EU providers, e.g. Scaleway") are preferences, not requirements (`live`: _HEAD_CUES
    whose words the clause holds; None: all)."""
    if (live is None or _LIST_CUE in live) and _LIST_CUE.search(local):
        return False
    req = last(_REQUIRE, local) if live is None or _REQUIRE in live else None
    if req is not None:
        nearest = max((m for m in (ex, pref) if m is not None), key=lambda m: m.start(), default=None)
        if nearest is None or req.start() > nearest.start():
            return not negated(local, req.start())
    if ex is not None or pref is not None or negated(local, len(local)):
        return False
    tail = _REQUIRE_AFTER.match(after) if live is None or _REQUIRE_AFTER in live else None
    if tail is None:
        return False
    # "our data is in our AWS account" names where the data is, unless a requirement cue is there too
    return "only" in tail.group(0).lower() or not data_like.search(local)


def _preferred_in(ctx: Ctx, s: Sentence) -> bool:
    """Whether a preference was already read in sentence `s` ("prefer Lambda, or RunPod")."""
    return any(f.field == "providers_preferred" and f.position >= s.start for f in ctx.findings)
