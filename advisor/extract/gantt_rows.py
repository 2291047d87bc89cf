"""A Gantt chart exported as text: each line a period, a bar drawn in block characters, then the task
("Jan W4–Jun      ██████████  Serve: 250 concurrent agents, ..."). The period and the bar are the chart's
drawing; the task after them is the statement, and its label ("Fine-tune:", "Serve:") names the workload
only when it starts the line (advisor/extract/brief_text.key_kind). So the period and bar are blanked to
spaces, the same length (evals v14: the serving task of a roadmap was lost; issue 12).

Block elements are Unicode U+2580-U+259F (https://www.unicode.org/charts/PDF/U2580.pdf), with the black
square and rectangle (U+25A0, U+25AC) some exports draw; at least two in a row make a bar.
"""

from __future__ import annotations

import re

_BAR_LINE = re.compile(
    r"^(?P<prefix>[^\n\u2580-\u259f\u25a0\u25ac]{0,30}[\u2580-\u259f\u25a0\u25ac]{2,}[ \t]*)(?=\S)", re.M
)


def gantt_rows(text: str) -> str:
    """`text` with the period and bar of each Gantt line blanked, so its task starts the line."""
    if not any("\u2580" <= c <= "\u259f" or c in "\u25a0\u25ac" for c in text):
        return text
    return _BAR_LINE.sub(lambda m: " " * len(m.group("prefix")), text)
