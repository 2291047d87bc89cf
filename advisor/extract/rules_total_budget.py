"""A budget said with a buy-versus-rent comparison over a horizon is the total for that horizon, held
against each option's purchase (budget_capex), not one month of serving.

"Please compare buying vs renting over 3 years. Budget cap USD 600k." (expert review 14, R03: the $600k was
compared with one month, and a $812,500 purchase was called "within the $600,000 budget"; the same request
written "total purchase budget USD 600k" (P03) was read as capex and answered right). A budget said per
month or per year ("$20k a month", "$240k per year") stays a periodic budget (rules_money_time.py); an
explicit capex budget is rules_purchase_price.py's.
"""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, I
from advisor.extract.rules_horizon import _BUY_OR_RENT

_PERIODIC = re.compile(
    r"\b(?:per|a|an|each|every)\s+(?:month|year|week|day|hour)\b|/\s*(?:mo|month|yr|year|h|hr)\b"
    r"|\b(?:monthly|yearly|annual(?:ly)?|weekly|daily|hourly)\b",
    I,
)
# buying weighed against renting, said either way round or as a comparison of the two costs
_WEIGHED = re.compile(
    r"\b(?:compare|comparing|comparison\s+of|weigh\w*)\s+(?:the\s+)?(?:cost\s+of\s+)?(?:buy\w*|purchas\w*|own\w*)"
    r"\b[^.?!]{0,30}?\b(?:and|with|to|against|vs\.?|versus)\s+(?:rent\w*|leas\w*|cloud)\b",
    I,
)


def rule_total_budget(ctx: Ctx) -> None:
    """budget_capex (inferred) for a budget not said per period in a text weighing buying against renting
    over a horizon, and the purchase it buys (deployment on_prem, inferred) unless a deployment was said."""
    if ctx.has("budget_capex") or not ctx.has("horizon_months"):
        return
    budget = next((f for f in ctx.findings if f.field == "budget_usd"), None)
    if budget is None or _PERIODIC.search(budget.evidence):
        return
    for s in ctx.sentences_with(_BUY_OR_RENT, _WEIGHED):  # a finding needs one of them to match
        m = _BUY_OR_RENT.search(s.text) or _WEIGHED.search(s.text)
        if m is None:
            continue
        ev = f'"{m.group(0).strip()}" over a horizon: the budget is the total for it, held against a purchase'
        ctx.add(s, "budget_capex", True, ev, "inferred", m.start())
        if not ctx.has("deployment_preference"):
            # as a capex budget (rules_purchase_price.py): the purchase is sized against it; renting over the
            # same horizon stays in the buy-vs-rent line the comparison asked for
            ev = f'"{m.group(0).strip()}": the total budget buys the hardware; renting is the comparison'
            ctx.add(s, "deployment_preference", "on_prem", ev, "inferred", m.start())
        return
