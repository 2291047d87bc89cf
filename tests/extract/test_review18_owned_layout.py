"""Expert review 18, R03 and R13: the node size and network of owned hardware were not read ('2 nodes' was
listed as not used; '100 Gb Ethernet' too). advisor/extract/rules_owned_layout.py reads owned_gpus_per_node
and owned_fabric from the owned-hardware sentence and the one after it."""

from __future__ import annotations

import pytest

from advisor.extract.rules import RulesExtractor


@pytest.mark.parametrize(
    ("text", "per_node", "fabric"),
    [
        ("Our lab owns 16x A100 80GB (2 nodes, InfiniBand). How many days will this take?", 8, "infiniband"),
        (
            "We have 4 servers with 8x A100 40GB each, connected with 100 Gb Ethernet. Can we do a full "
            "fine-tune of Qwen2.5-14B on 300M tokens?",
            8,
            "ethernet",
        ),
        ("We own 32 H100 SXM, 8 GPUs per node, RoCE v2 fabric.", 8, "roce"),
        ("our cluster has 4 nodes with 8x A100 each over 25GbE", 8, "ethernet"),
        ("We own 16 H100s in two 8xH100 nodes, no InfiniBand.", 8, "ethernet"),
        ("We own 16 H100. They sit in 2 nodes with InfiniBand.", 8, "infiniband"),
        ("We have two DGX H100 boxes.", 8, None),
    ],
)
def test_owned_layout_is_read(text: str, per_node: int, fabric: str | None) -> None:
    p = RulesExtractor().extract(text)
    assert p.owned_gpu is not None
    assert p.owned_gpus_per_node == per_node
    assert p.owned_fabric == fabric


@pytest.mark.parametrize(
    "text",
    [
        "We have 8 A100s.",
        # a rental in the next sentence is not the team's servers
        "We own 16 H100. We could also rent 4 nodes with InfiniBand at CoreWeave.",
        # nodes that do not divide the count say nothing
        "We own 16 H100 in 3 nodes.",
    ],
)
def test_near_miss_no_owned_layout(text: str) -> None:
    p = RulesExtractor().extract(text)
    assert p.owned_gpus_per_node is None and p.owned_fabric is None


def test_r03_reply_uses_the_layout_and_all_16() -> None:
    from advisor.api import ask_turn

    turn = ask_turn(
        "Our lab owns 16x A100 80GB (2 nodes, InfiniBand). How many days to pretrain a 1.3B model on 100B "
        "tokens?"
    )
    assert "'2 nodes'" not in turn.reply
    rec = turn.recommendation
    assert rec is not None and rec.primary is not None
    assert (rec.primary.total_gpus, rec.primary.nodes) == (16, 2)
