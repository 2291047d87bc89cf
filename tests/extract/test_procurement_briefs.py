"""Procurement-style briefs (RFQ: numbered requirements, "The vendor shall ...", quantities, delivery dates;
issue 12, gap 1; advisor/extract/rules_procurement.py): the GPU and quantity asked for are read, and a
tender's term ("reserved for 6 months") is the horizon."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.conversation import Conversation
from advisor.extract.accounting import account_for
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]

RFQ = """Request for Quotation RFQ-2026-114: GPU compute for LLM fine-tuning

1. The vendor shall provide 16 NVIDIA H100 SXM GPUs (2 nodes of 8) with InfiniBand between nodes.
2. The vendor shall deliver the capacity no later than 15 March 2027.
3. Workload: full fine-tuning of Llama 3 70B on 2B tokens, 3 epochs.
4. All data shall remain in the EU.
5. Quantity: 1 cluster, reserved for 6 months.
6. Total contract value shall not exceed $400,000.
"""
JOB = "Full fine-tune Llama 3 70B on 2B tokens. "


def test_rfq_is_read() -> None:
    p = Conversation(explain=False).send(RFQ).profile
    assert (p.gpus_wanted, p.max_gpus) == (["h100-sxm"], 16)
    assert (p.model_id, p.method, p.dataset_tokens, p.epochs) == ("llama-3-70b", "full", 2e9, 3.0)
    assert (p.eu_only, p.budget_usd, p.horizon_months) == (True, 400_000.0, 6.0)
    assert p.deadline_hours is None  # the capacity's delivery date is when the job can start (ext22 gap 3)
    unused = [c.text for c in account_for(RFQ, p).unused]
    assert not any("H100" in t or "reserved" in t for t in unused), unused


@pytest.mark.parametrize(
    ("text", "wanted", "count"),
    [
        # the way other tenders say it: nodes of cards, a bidder quoting, a line item
        ("The supplier must deliver 2 nodes of 8x H100 SXM by 15 March 2027.", ["h100-sxm"], 16),
        ("Bidders shall quote for 32 x H200.", ["h200"], 32),
        ("Line item 1. Quantity: 8 x H200, on-demand or reserved.", ["h200"], 8),
    ],
)
def test_tender_quantities(extract: Extract, text: str, wanted: list[str], count: int) -> None:
    p = extract(JOB + text)
    assert (p.gpus_wanted, p.max_gpus) == (wanted, count)


@pytest.mark.parametrize(
    "text",
    [
        "The vendor shall provide 24/7 support for 16 engineers.",  # a quantity of something else
        "The vendor has 16 H100s in stock.",  # what the vendor holds, no obligation
    ],
)
def test_near_misses_are_not_quantities(extract: Extract, text: str) -> None:
    p = extract(JOB + text)
    assert p.max_gpus is None


def test_a_tender_quantity_too_small_says_what_would_fit() -> None:
    reply = Conversation(explain=False).send(RFQ).reply
    assert "Dropping 'at most 16 GPUs' allows" in reply
