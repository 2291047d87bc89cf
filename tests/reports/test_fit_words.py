"""Expert review 9: the first page printed a budget as met ("yes") when the option met it only at the
favourable end of its cost range. The deadline / budget cell now says which end, and "yes" only when the
whole range is inside the limit."""

from __future__ import annotations

import pytest

from reports.html import render_html
from reports.view import build_context
from tools.recommend.models import Recommendation


@pytest.mark.parametrize(
    ("deadline", "budget", "cell"),
    [
        ("meets", "maybe", "yes / only at the low end"),
        ("maybe", "meets", "only at the fast end / yes"),
        ("misses", "misses", "no / no"),
        (None, "meets", "— / yes"),
    ],
)
def test_first_page_says_which_end_meets_the_limit(
    handmade_rec: Recommendation, deadline: str | None, budget: str | None, cell: str
) -> None:
    assert handmade_rec.primary is not None
    primary = handmade_rec.primary.model_copy(
        update={
            "deadline_status": deadline,
            "budget_status": budget,
            "meets_deadline": None if deadline is None else deadline != "misses",
            "meets_budget": None if budget is None else budget != "misses",
        }
    )
    rec = handmade_rec.model_copy(update={"primary": primary})
    ctx = build_context(rec)["primary"]
    assert f"{ctx['meets_deadline']} / {ctx['meets_budget']}" == cell
    page = " ".join(render_html(rec).split())
    assert f'Meets deadline / budget</div><div class="v">{cell}</div>' in page
