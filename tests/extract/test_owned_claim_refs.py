"""A claim or question about the GPUs the team owns, in the ways people refer back to them (issue 12, dev
failures of evals v14, v16, v17): the cards called by a word of their name with a count ("our four NVLs"),
a share of them in chat ("4 of 'em"), a guess with its subject left out ("Reckon ..."), and a duration asked
about as "realistic" ("Would 3 days be realistic on those 6?"). Near misses: the same words about something
that is not the hardware, and a statement with no question or guess.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
JOB = " Job: LoRA on Qwen2.5 32B, 50M tokens, 2 epochs. "


@pytest.mark.parametrize(
    ("owned", "ask", "gpu", "count", "hours"),
    [
        # a word of the owned GPU's name, with a count word (evals v16) and a variant with digits and a plural
        (
            "We have 4 H100 NVL cards in the lab.",
            "Could our four NVLs get through it in 36 hours?",
            "h100-nvl",
            4,
            36.0,
        ),
        ("We own 8 RTX 4090s.", "Can those 8 4090s finish it in 2 days?", "rtx-4090", 8, 48.0),
        # a share of them, subject left out (evals v17), and the same with "of them"
        (
            "Got a box with 4 RTX 4090s in it.",
            "Reckon 4 of 'em will knock it over in about 12 hours.",
            "rtx-4090",
            4,
            12.0,
        ),
        ("We have 8 A100 80GB cards.", "I reckon 4 of them will do it in 3 days.", "a100-80gb-sxm", 4, 72.0),
        # a duration asked about as realistic (evals v14), and as doable
        ("We have 6 RTX 4090s in the office.", "Would 3 days be realistic on those 6?", "rtx-4090", 6, 72.0),
        ("We have 6 RTX 4090s in the office.", "Would 2 days be doable on them?", "rtx-4090", 6, 48.0),
    ],
)
def test_owned_claim_refs(extract: Extract, owned: str, ask: str, gpu: str, count: int, hours: float) -> None:
    p = extract(owned + JOB + ask)
    assert (p.claimed_gpu, p.claimed_gpu_count, p.claimed_hours) == (gpu, count, hours)


@pytest.mark.parametrize(
    ("owned", "said"),
    [
        # a word after "our" that is not part of the GPU's name: not a reference to the cards
        ("We have 4 H100 NVL cards in the lab.", "Could our four teams get through it in 36 hours?"),
        # a plan with no question or guess about the cards
        ("We have 4 H100 NVL cards in the lab.", "Our four NVLs run it next week, in 36 hours."),
        # "figure out" is not a guess
        ("Got a box with 4 RTX 4090s in it.", "Figure out how 4 of 'em split it in about 12 hours."),
    ],
)
def test_owned_claim_near_misses(extract: Extract, owned: str, said: str) -> None:
    p = extract(owned + JOB + said)
    assert p.claimed_hours is None


def test_owned_claim_over_turns(extract: Extract) -> None:
    """The cards corrected in one turn and asked about by name in the next (evals v16)."""
    p = extract("We have 2 H100 NVL cards in the lab.")
    p = extract("Sorry, 4, not 2." + JOB, p)
    p = extract("Could our four NVLs get through it in 36 hours?", p)
    assert (p.claimed_gpu, p.claimed_gpu_count, p.claimed_hours) == ("h100-nvl", 4, 36.0)
