"""Where a whole read's CPU time goes: per stage, per rule, per sentence (issue 12: a 20,000-character message
read in well under 100 ms; bench/extraction_speed.py gives the totals).

For each message (bench/extraction_speed.py's: different eval briefs one after another, the eval briefs
repeated, at 1,000 / 5,000 / 20,000 characters), after one warm-up: CPU milliseconds (min of --repeats) of
the whole read's stages (odd amounts, the rules' extraction, the instruction guard, the input's
accounting), the readings the rules made (sentences per reading: a two-workload brief is read once per
part, a split tried and not kept is read again whole), and the rules' own CPU time summed over the
repeats, the slowest first. With --sentences, each sentence of the 20,000-character message of different
briefs through every rule on its own: the spread of the cost over sentences.

Run: .venv/bin/python -m bench.extraction_profile [--repeats N] [--sentences]
"""

from __future__ import annotations

import argparse
import collections
import time
from collections.abc import Callable

import advisor.extract.rules as rules_module
from advisor.extract.accounting import account_for
from advisor.extract.odd_values import blank_out, find_odd_values
from advisor.extract.regex_keys import reading, reading_all
from advisor.extract.regex_memo import remembering
from advisor.extract.rules_ctx import Ctx
from advisor.extract.rules_text import Sentence, split_sentences
from advisor.extract.rules_typos import fix_sentences
from advisor.llm.extractor import drop_instructed
from bench.extraction_speed import HOSTILE_CHARS, mixed_message
from evals.harness import REFERENCE_TIME, case_turns, load_cases

SIZES_CHARS = (1_000, 5_000, HOSTILE_CHARS)
TOP_RULES = 15


def messages() -> list[tuple[str, str]]:
    """(name, text): different briefs and the eval briefs repeated, at each size."""
    briefs = "\n\n".join(text for case in load_cases() if case.brief for text in case_turns(case))
    out = []
    for chars in SIZES_CHARS:
        out.append((f"different briefs, {chars:,} chars", mixed_message(chars)))
        out.append(
            (
                f"eval briefs repeated, {chars:,} chars",
                ((briefs + "\n\n") * (chars // len(briefs) + 1))[:chars],
            )
        )
    return out


def _timed(rule: Callable[[Ctx], None], spent: dict[str, float]) -> Callable[[Ctx], None]:
    def run(ctx: Ctx) -> None:
        start = time.process_time()
        rule(ctx)
        spent[rule.__name__] += time.process_time() - start

    run.__name__ = rule.__name__
    return run


def profile(name: str, text: str, repeats: int) -> None:
    """Print the stages, readings and slowest rules of whole reads of `text`."""
    spent: dict[str, float] = collections.defaultdict(float)
    readings: list[int] = []
    plain_rules, plain_distinct = rules_module.RULES, rules_module._distinct

    def distinct(part: tuple[Sentence, ...]) -> tuple[Sentence, ...]:
        kept = plain_distinct(part)  # once per reading (RulesExtractor._read_parts)
        readings.append(len(kept))
        return kept

    rules_module.RULES = tuple(_timed(rule, spent) for rule in plain_rules)
    rules_module._distinct = distinct
    try:
        extractor = rules_module.RulesExtractor(reference_time=REFERENCE_TIME)
        stages: dict[str, list[float]] = collections.defaultdict(list)
        for i in range(repeats + 1):
            if i == 1:
                spent.clear()
            readings.clear()
            t0 = time.process_time()
            odd = find_odd_values(text)
            read = blank_out(text, odd)
            t1 = time.process_time()
            found = extractor.extract(read)
            t2 = time.process_time()
            found = drop_instructed(found, read, None)
            t3 = time.process_time()
            account_for(read, found, None, extractor.analysis_of(read))
            t4 = time.process_time()
            for stage, ms in (("odd amounts", t1 - t0), ("rules", t2 - t1), ("guard", t3 - t2),
                              ("accounting", t4 - t3), ("whole read", t4 - t0)):  # fmt: skip
                stages[stage].append(ms * 1000)
    finally:
        rules_module.RULES, rules_module._distinct = plain_rules, plain_distinct
    print(f"{name}: readings of {readings} sentences")
    print("  " + ", ".join(f"{stage} {min(ms[1:]):.1f}" for stage, ms in stages.items()) + " ms CPU (min)")
    total = sum(spent.values()) / repeats * 1000
    slowest = sorted(spent.items(), key=lambda kv: -kv[1])[:TOP_RULES]
    top = ", ".join(f"{rule} {s / repeats * 1000:.1f}" for rule, s in slowest)
    print(f"  rules' own time {total:.1f} ms a read; slowest: {top}")


def per_sentence() -> None:
    """Every rule on each sentence of the 20,000-character message of different briefs, one at a time."""
    sentences, _ = fix_sentences(split_sentences(mixed_message(HOSTILE_CHARS)).sentences)
    costs: list[float] = []
    for _round in range(2):  # the first round pays for the word index and compiling the patterns
        costs = []
        with remembering(), reading_all([s.text for s in sentences]):
            for s in sentences:
                start = time.process_time()
                ctx = Ctx(sentences=(s,), reference_time=REFERENCE_TIME)
                with reading([s.text]):
                    for rule in rules_module.RULES:
                        rule(ctx)
                costs.append((time.process_time() - start) * 1000)
    costs.sort(reverse=True)
    total = sum(costs)
    shares = ", ".join(
        f"slowest {n}: {sum(costs[:n]) / total:.0%}" for n in (10, 32, 64, 160) if n < len(costs)
    )
    median = costs[len(costs) // 2]
    print(f"{len(costs)} sentences one at a time: {total:.0f} ms, median {median:.2f} ms, {shares}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sentences", action="store_true")
    args = parser.parse_args()
    for name, text in messages():
        profile(name, text, args.repeats)
    if args.sentences:
        per_sentence()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
