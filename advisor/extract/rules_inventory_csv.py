"""Owned GPUs from an inventory (CMDB, asset register) export pasted as CSV (issue 12, gap 2):

    hostname,model,count,status,site
    gpu-node-01,A100 80GB,8,in service,Frankfurt
    gpu-node-03,V100 32GB,4,retired,Dublin

A header names a GPU-model column and a count column; each row that names a GPU in that column adds its
count, unless its status column says the machine is gone (retired, decommissioned, disposed, RMA, broken,
sold). The listing is the team's own only when the text says it is an inventory or what the team owns
("our CMDB export", "asset register", "what we own", "our fleet"): a provider's price list in the same
shape is not owned. Several GPU models in service: the model with the most cards is owned_gpu, the others
are named in the evidence (the profile holds one owned model). The pasted lines reach the rules joined by
spaces (one sentence): each line's last cell and the next line's first share a comma-cell, split at its
last space.
"""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, I
from advisor.extract.rules_models import GPU_RE, resolve_gpu
from advisor.extract.rules_text import Sentence

_MODEL_HEAD = re.compile(r"^(?:gpu[\s_-]?)?(?:model|type|product|sku)$|^gpus?$|^accelerators?$", I)
_COUNT_HEAD = re.compile(
    r"^(?:(?:gpu|card)[\s_-]?)?(?:count|qty|quantity|units?)$|^(?:#|num[\s_-]?|n[\s_]?)gpus?$", I
)
_STATUS_HEAD = re.compile(r"^(?:status|state|lifecycle|lifecycle[\s_-]status|condition)$", I)
_GONE = re.compile(r"\b(?:retired|decommission\w*|disposed|rma|broken|sold|scrapped|dead|eol)\b", I)
_OURS = re.compile(
    r"\b(?:cmdb|inventory|asset\s+(?:register|list|export|inventory)|what\s+we\s+(?:own|have)|we\s+own"
    r"|our\s+(?:own\s+)?(?:fleet|hardware|cluster|servers|machines|nodes|gpus))\b",
    I,
)
_MAX_ROWS = 200  # a longer export is no team's GPU inventory pasted in chat
_MAX_COLUMNS = 12


def _table(text: str) -> tuple[list[str], list[list[str]]] | None:
    """Header names and rows of a CSV pasted into `text` (lines joined by spaces), or None. The header
    names are single words ("hostname,model,count"); the first name is the last word before the first
    comma, and the header ends at the first cell holding a space (its last name and the first row's
    first cell)."""
    flat = [c.strip() for c in text.split(",")]
    if len(flat) < 4:
        return None
    flat[0] = flat[0].rsplit(None, 1)[-1] if flat[0].strip() else ""
    n = next((i + 1 for i, c in enumerate(flat[1:], 1) if " " in c), None)
    if n is None or not 3 <= n <= _MAX_COLUMNS or any(" " in c for c in flat[: n - 1]):
        return None
    names = [*flat[: n - 1], flat[n - 1].rsplit(" ", 1)[0]]
    rows: list[list[str]] = []
    k = 1
    while (k + 1) * (n - 1) < len(flat) and len(rows) < _MAX_ROWS:
        cells = flat[k * (n - 1) : k * (n - 1) + n]
        if len(cells) < n:
            break
        first = cells[0].rsplit(" ", 1)[-1]
        last = cells[-1].rsplit(" ", 1)[0] if k * (n - 1) + n < len(flat) else cells[-1]
        rows.append([first, *cells[1:-1], last])
        k += 1
    return names, rows


def _read(s: Sentence, ours: str) -> tuple[str, int, str, list[str]] | None:
    """(gpu id, cards, evidence, the counted rows' text) of an inventory CSV in `s` that `ours` says is
    owned, or None."""
    table = _table(s.text)
    if table is None:
        return None
    return _sum(*table, ours)


def _sum(
    names: list[str], rows: list[list[str]], ours: str, sep: str = ","
) -> tuple[str, int, str, list[str]] | None:
    """(gpu id, cards in service, evidence, the counted rows joined by `sep`) of an inventory's header
    `names` and `rows`, or None when no column names the GPU model and its count."""
    model = next((i for i, h in enumerate(names) if _MODEL_HEAD.match(h)), None)
    count = next((i for i, h in enumerate(names) if _COUNT_HEAD.match(h)), None)
    status = next((i for i, h in enumerate(names) if _STATUS_HEAD.match(h)), None)
    if model is None or count is None:
        return None
    cards: dict[str, int] = {}
    label: dict[str, str] = {}
    gone: list[str] = []
    counted: dict[str, list[str]] = {}
    for row in rows:
        g = GPU_RE.search(row[model])
        if g is None or not row[count].isdigit():
            continue
        if status is not None and _GONE.search(row[status]):
            gone.append(f"{row[model]} x{row[count]} ({row[status]})")
            continue
        gid = resolve_gpu(g.group("gpu"))
        cards[gid] = cards.get(gid, 0) + int(row[count])
        label.setdefault(gid, row[model])
        counted.setdefault(gid, []).append(sep.join(row))
    if not cards:
        return None
    gid = max(cards, key=lambda k: cards[k])
    others = [f"{label[k]} x{n}" for k, n in cards.items() if k != gid]
    ev = f'"{sep.join(names)}" (inventory export): {cards[gid]} x {label[gid]} in service'
    if others:
        ev += f"; also listed, not counted (one owned model): {', '.join(others)}"
    if gone:
        ev += f"; left out as no longer in service: {', '.join(gone)}"
    ev += f'; owned: "{ours}"'
    return gid, cards[gid], ev, counted[gid]


def rule_inventory_csv(ctx: Ctx) -> None:
    """owned_gpu(_count) from an inventory CSV the text calls the team's own (module docstring)."""
    if ctx.has("owned_gpu"):
        return
    for i, s in enumerate(ctx.sentences):
        if s.text.count(",") < 5:
            continue
        near = ctx.sentences[max(0, i - 2) : i + 3]
        ours = next((m for t in near if (m := _OURS.search(t.text)) is not None), None)
        if ours is None or (found := _read(s, ours.group(0))) is None:
            continue
        gid, n, ev, counted = found
        for row in counted:  # each counted row is read (the input's account finds its words)
            ctx.add(s, "owned_gpu", gid, f'"{row}"', "inferred", max(0, s.text.find(row)))
        ctx.add(s, "owned_gpu", gid, ev, "stated")
        ctx.add(s, "owned_gpu_count", n, ev, "stated")
        return


def _cells(sentences: list[Sentence]) -> list[str]:
    return [c.strip() for c in " ".join(x.text for x in sentences).split(";")]


def rule_inventory_pipe(ctx: Ctx) -> None:
    """owned_gpu(_count) from the same inventory pasted as a Markdown table (ext22 gap 5):

        | host | gpu | count | status |
        |---|---|---|---|
        | gpu-a | H100 SXM | 8 | in service |

    The text clean-up turns each row into cells joined by "; " (rules_text._table_row), one block per row,
    which the sentence split may cut at a cell: a block's sentences are joined back. Every in-service row
    is counted as in the CSV form (_sum); the first owned row alone was read before (rules_owned_forms)."""
    if ctx.has("owned_gpu"):
        return
    blocks: dict[int, list[Sentence]] = {}
    for s in ctx.sentences:
        blocks.setdefault(s.block, []).append(s)
    order = sorted(blocks)
    for i, b in enumerate(order):
        names = _cells(blocks[b])
        if len(names) < 3 or not any(_MODEL_HEAD.match(h) for h in names):  # noqa: PLR2004 - host, gpu, count
            continue
        if not any(_COUNT_HEAD.match(h) for h in names):
            continue
        rows = []
        for r in order[i + 1 : i + 1 + _MAX_ROWS]:
            cells = _cells(blocks[r])
            if len(cells) != len(names):
                break  # the table ended
            rows.append((r, cells))
        near = [x for k in order[max(0, i - 2) : i + 1 + len(rows) + 2] for x in blocks[k]]
        ours = next((m for t in near if (m := _OURS.search(t.text)) is not None), None)
        if ours is None or (found := _sum(names, [c for _, c in rows], ours.group(0), "; ")) is None:
            continue
        gid, n, ev, _ = found
        for r, _ in rows:  # each row is read (counted or left out): the account finds its words
            for s in blocks[r]:
                ctx.add(s, "owned_gpu", gid, f'"{s.text}"', "inferred")
        first = blocks[b][0]
        ctx.add(first, "owned_gpu", gid, ev, "stated")
        ctx.add(first, "owned_gpu_count", n, ev, "stated")
        return
