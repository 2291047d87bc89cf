"""A PR-FAQ's "Q:" lines whose "A:" lines carry the facts (issue 12, gap 3): the facts are read from the
answers, the questions are not reported as unanswered, and a "Q:" with no answer after it stays listed
(advisor/extract/question_answers.py)."""

from __future__ import annotations

import pytest

from advisor.conversation import Conversation
from advisor.extract.accounting import account_for

PRFAQ = """PR-FAQ: Support copilot

Q: What are we building?
A: A support chat assistant serving Llama 3 70B to our agents.
Q: How many people use it at once?
A: About 200 concurrent users at peak.
Q: How long are the conversations?
A: Prompts around 3,000 tokens, answers about 400 tokens.
Q: Where must it run?
A: EU only, data cannot leave Germany.
"""
# the way other teams write them: numbered, bold labels, "Question:" / "Answer:"
NUMBERED = """FAQ
Q1. What model do we serve?
A1. Llama 3 70B, for the internal help desk.
Q2. How many concurrent users?
A2. Roughly 200 concurrent users at peak.
Q3. Where does it run?
A3. EU only.
"""
BOLD = """**Q:** What model?
**A:** We serve Llama 3 70B.

**Question:** How busy is it?
**Answer:** 200 concurrent users at peak, EU only.
"""


@pytest.mark.parametrize("text", [PRFAQ, NUMBERED, BOLD])
def test_faq_answers_are_read_and_their_questions_not_listed(text: str) -> None:
    p = Conversation(explain=False).send(text).profile
    assert (p.workload, p.model_id, p.concurrency, p.eu_only) == ("inference", "llama-3-70b", 200, True)
    unused = account_for(text, p).unused
    assert not [c for c in unused if c.kind == "question"], unused


def test_faq_facts_of_the_answers() -> None:
    p = Conversation(explain=False).send(PRFAQ).profile
    assert (p.prompt_tokens, p.output_tokens) == (3000, 400)
    assert not [c for c in account_for(PRFAQ, p).unused if "Germany" in c.text]  # read as EU only


def test_a_question_with_no_answer_after_it_stays_listed() -> None:
    # near miss: a "Q:" line followed by another question, not by its answer
    text = "We serve Llama 3 70B to 200 users.\nQ: Who signs off on the spend?\nQ: Is a pilot first?\n"
    p = Conversation(explain=False).send(text).profile
    listed = [c.text for c in account_for(text, p).unused if c.kind == "question"]
    assert any("Who signs off on the spend" in t for t in listed), listed


def test_data_that_cannot_leave_a_country_is_read() -> None:
    p = Conversation(explain=False).send("Serve Llama 3 8B to 20 users; data cannot leave Germany.").profile
    assert p.eu_only is True
