"""Expert review 16, R16: "How many H100s" against a deadline answers the pair, each priced: the count that
meets it at the middle of the time range (its slow end missing by some days) and the count with margin; the
pick stays the objective's. Variants: a loose deadline (one count at both ends, no pair) and one no count
meets at the slow end. Figures are read from the tools' own candidates, not written here."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from advisor.api import ask

R16 = "We want to pretrain a 7B model on 2T tokens and want it done in 60 days. How many H100s"


def _counts_line(reply: str) -> str:
    return next(line for line in reply.splitlines() if line.startswith("How many NVIDIA H100"))


def _hours(text: str) -> list[float]:
    """The low and high ends of 'L – H h', then the middle when said ('middle M h')."""
    span = re.search(r"([\d,]+) \u2013 ([\d,]+) h", text)
    assert span is not None, text
    mid = re.search(r"middle ([\d,]+) h", text)
    got = [span.group(1), span.group(2)] + ([mid.group(1)] if mid else [])
    return [float(x.replace(",", "")) for x in got]


def test_r16_answers_the_middle_count_and_the_safe_count_each_priced() -> None:
    reply = str(ask(R16)["reply"])
    line = _counts_line(reply)
    middle = re.search(
        r"(\d+) meets it at the middle of the range \(([^)]*)\), but .*? misses by (\d+) days", line
    )
    safe = re.search(r"(\d+) with margin \(([^)]*)\)", line)
    assert middle is not None and safe is not None, line
    n_mid, n_safe = int(middle.group(1)), int(safe.group(1))
    # 6 x 7e9 x 2e12 = 8.4e22 FLOP, ~59-80k H100-hours (review 16, R16): 48-64 H100 inside 1,440 h
    assert 48 <= n_mid <= 64 and n_safe > n_mid
    low, high, mid = _hours(middle.group(2))[:3]
    assert low <= mid <= 1440 < high  # the middle meets the deadline, the slow end misses it
    assert int(middle.group(3)) == round((high - 1440) / 24)  # the days said are the slow end's miss
    _safe_low, safe_high = _hours(safe.group(2))[:2]
    assert safe_high <= 1440  # the safe count meets it at the slow end
    assert "$" in middle.group(2) and "$" in safe.group(2)  # each priced
    # the pick is the objective's (balanced) and the reply says which and why
    head = next(line for line in reply.splitlines() if line.startswith("Recommended:"))
    picked = int(re.search(r"Recommended: (\d+)x", head).group(1))  # type: ignore[union-attr]
    assert picked in (n_mid, n_safe)
    assert f"The pick is the {picked} (balanced:" in line


def test_a_loose_deadline_gives_one_count_and_no_pair() -> None:
    # 200 days = 4,800 h: one count meets it at both ends and half of it misses even at the middle
    reply = str(ask(R16.replace("60 days", "200 days"))["reply"])
    line = _counts_line(reply)
    assert "with margin" in line and "middle of the range" not in line and "The pick is the" not in line, line
    n_safe = int(re.search(r"(\d+) with margin", line).group(1))  # type: ignore[union-attr]
    assert _hours(line)[1] <= 4800
    head = next(line for line in reply.splitlines() if line.startswith("Recommended:"))
    assert head.startswith(f"Recommended: {n_safe}x NVIDIA H100")


def test_a_deadline_no_count_meets_at_the_slow_end_says_so_beside_the_middle_count() -> None:
    # 35 days = 840 h: the largest count meets it at the middle of its range only
    line = _counts_line(str(ask(R16.replace("60 days", "35 days"))["reply"]))
    assert "with margin" not in line, line
    middle = re.search(r"(\d+) meets it at the middle of the range \(([^)]*)\)", line)
    assert middle is not None, line
    low, high, mid = _hours(middle.group(2))[:3]
    assert mid <= 840 < high
    assert "no count of it in the catalog meets it at the slow end" in line


def test_a_deadline_no_count_meets_even_at_the_middle_is_said() -> None:
    line = _counts_line(str(ask(R16.replace("60 days", "2 days"))["reply"]))
    assert "no count of it meets the deadline in the catalog" in line, line


def test_how_many_gpus_with_none_named_answers_the_pair_on_the_picks_gpu() -> None:
    reply = str(ask(R16.replace("How many H100s", "How many GPUs do we need?"))["reply"])
    head = next(line for line in reply.splitlines() if line.startswith("Recommended:"))
    picked = re.search(r"Recommended: (\d+)x (NVIDIA [^(]+?) (?:\(|at )", head)
    assert picked is not None, head
    line = next(line for line in reply.splitlines() if line.startswith(f"How many {picked.group(2)}"))
    assert "meets it at the middle of the range" in line and "with margin" in line, line
    assert f"The pick is the {picked.group(1)} (balanced:" in line


def test_the_report_shows_the_same_pair(tmp_path: Path) -> None:
    out = tmp_path / "r16.md"
    subprocess.run([sys.executable, "-m", "advisor", "report", R16, "-o", str(out)], check=True, timeout=300)
    said = _counts_line(str(ask(R16)["reply"]))
    assert f"> {said}" in out.read_text(encoding="utf-8")
