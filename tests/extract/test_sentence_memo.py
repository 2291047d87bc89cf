"""sentence_memo.read_once (issue 12, speed8): a rule's findings in a sentence read a second time come from
memory and are the rule's own; what the memory cannot vouch for runs again or falls back to the rule as it
is; and every rule wrapped reads its sentences one at a time (its source carries nothing from one sentence
to the next)."""

from __future__ import annotations

import ast
import datetime as dt
import inspect
import re
import textwrap
from collections.abc import Callable
from typing import Any

import pytest

import advisor.extract.rules  # noqa: F401  (wraps the rules)
from advisor.extract.base import Finding
from advisor.extract.regex_keys import keyed
from advisor.extract.regex_memo import remembering
from advisor.extract.rules_ctx import Ctx
from advisor.extract.rules_text import Sentence, split_sentences
from advisor.extract.sentence_memo import STRICT, WRAPPED, NotLocal, read_once, recording

Rule = Callable[[Ctx], None]
_WHEN = dt.datetime(2026, 1, 5, tzinfo=dt.UTC)
_GPU = keyed(r"\b(?P<n>\d+)x\s*H100\b", re.I)
_TEXT = "We need 8x H100. Budget is tight. Maybe 16x H100 later. EU only."


def _sentences() -> tuple[Sentence, ...]:
    return split_sentences(_TEXT).sentences


def _counting(calls: list[str]) -> tuple[Rule, Rule]:
    def rule(ctx: Ctx) -> None:
        for s in ctx.sentences:
            calls.append(s.text)
            for m in _GPU.finditer(s.text):
                ctx.add(s, "max_gpus", int(m.group("n")), m.group(0), "stated", m.start())

    return rule, read_once(rule)


def _read(rule: Rule, sentences: tuple[Sentence, ...], **fields: Any) -> list[Finding]:
    ctx = Ctx(sentences=sentences, reference_time=_WHEN, **fields)
    rule(ctx)
    return ctx.findings


def test_a_second_reading_is_answered_from_memory_with_the_same_findings() -> None:
    calls: list[str] = []
    bare, once = _counting(calls)
    sentences = _sentences()
    part = sentences[:3]
    expected_part, expected_whole = _read(bare, part), _read(bare, sentences)
    calls.clear()
    with remembering():
        with recording():
            assert _read(once, part) == expected_part
        assert len(calls) == 3
        assert (
            _read(once, sentences) == expected_whole
        )  # the whole after the part: only the new sentence runs
    assert calls[3:] == [sentences[3].text]


def test_the_key_holds_the_workload_and_the_claim_mark() -> None:
    calls: list[str] = []
    _bare, once = _counting(calls)
    sentences = _sentences()
    with remembering(), recording():
        _read(once, sentences)
        _read(once, sentences, workload="inference")
        _read(once, sentences, claim_sentences={sentences[0].start})
    assert len(calls) == 3 * len(sentences) - (len(sentences) - 1)  # the claim mark changes one key only


def test_a_sentence_that_looked_at_the_findings_runs_again() -> None:
    calls: list[str] = []

    def rule(ctx: Ctx) -> None:
        for s in ctx.sentences:
            calls.append(s.text)
            if "H100" in s.text and not ctx.has("max_gpus"):
                ctx.add(s, "max_gpus", 8, s.text, "stated")

    once = read_once(rule)
    sentences = _sentences()
    with remembering(), recording():
        first = _read(once, sentences)
        second = _read(once, sentences)
    assert first == second == _read(rule, sentences)
    assert calls.count(sentences[0].text) == 3  # asked about the findings: never remembered
    assert calls.count(sentences[1].text) == 2  # the bare reading and the first remembered one


@pytest.mark.parametrize(
    "body",
    [
        "for i, s in enumerate(ctx.sentences):\n    ctx.sentences[i - 1]",  # another sentence
        "for s in ctx.sentences:\n    return",  # a sentence decides the next ones' reading
        "n = len(ctx.sentences)",  # the part counted
        "ctx.has('budget_usd')",  # the findings outside the loop
        "for s in ctx.sentences:\n    pass\nfor s in ctx.sentences:\n    pass",  # a second pass
        "for s in ctx.sentences:\n    ctx.workload = 'inference'",  # the part's state changed
    ],
)
def test_a_rule_that_reads_beyond_its_sentence_is_caught(body: str) -> None:
    scope: dict[str, object] = {}
    exec("def rule(ctx):\n" + textwrap.indent(body, "    "), scope)  # noqa: S102
    once: Rule = read_once(scope["rule"])  # type: ignore[arg-type]
    token = STRICT.set(True)
    try:
        with remembering(), recording(), pytest.raises(NotLocal):
            _read(once, _sentences())
    finally:
        STRICT.reset(token)
    with remembering(), recording():  # not strict: the rule runs as it is, with its own result
        _read(once, _sentences())


_ALLOWED = {"reference_time", "prior", "workload"}  # the part's facts a rule may read before its loop


def _loop(fn: ast.FunctionDef) -> tuple[list[ast.stmt], ast.For]:
    body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    loops = [i for i, s in enumerate(body) if isinstance(s, ast.For)]
    assert len(loops) == 1 and loops[0] == len(body) - 1, "one pass over the sentences, last"
    loop = body[-1]
    assert isinstance(loop, ast.For)
    it = loop.iter.func if isinstance(loop.iter, ast.Call) else loop.iter
    assert isinstance(it, ast.Attribute) and it.attr in ("sentences", "sentences_with"), ast.unparse(it)
    return body[:-1], loop


def test_each_wrapped_rule_carries_nothing_from_one_sentence_to_the_next() -> None:
    rules = [r for r in WRAPPED if (r.__module__ or "").startswith("advisor.")]  # not this file's
    assert len(rules) >= 10
    for rule in rules:
        fn = ast.parse(textwrap.dedent(inspect.getsource(rule))).body[0]
        assert isinstance(fn, ast.FunctionDef)
        before, loop = _loop(fn)
        ctx_name = fn.args.args[0].arg
        stored_in_loop = {
            n.id for n in ast.walk(loop) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
        }
        for stmt in before:  # what the loop may read of the part: its facts, never changed per sentence
            assert isinstance(stmt, ast.Assign | ast.AnnAssign), (rule.__name__, ast.unparse(stmt))
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            names = {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
            assert not names & stored_in_loop, (rule.__name__, names & stored_in_loop)
            for node in ast.walk(stmt):
                if (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.value, ast.Name)
                    and node.value.id == ctx_name
                ):
                    assert node.attr in _ALLOWED, (rule.__name__, node.attr)
        assert not any(isinstance(n, ast.Global | ast.Nonlocal) for n in ast.walk(fn)), rule.__name__
