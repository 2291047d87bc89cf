"""The storage-counting dispatch mode on hand-made tensor programs with known answers."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from torch._subclasses.fake_tensor import FakeTensorMode  # noqa: E402

from advisor.simulate.tracker import StorageTracker, rounded_block_bytes  # noqa: E402

MB4 = 1000 * 1000 * 4  # one 1000 x 1000 fp32 matrix


def test_block_rounding_matches_the_cuda_caching_allocator() -> None:
    # c10 CUDACachingAllocator: every block is a multiple of 512 bytes, the smallest is 512
    assert [rounded_block_bytes(n) for n in (0, 1, 512, 513, 40000)] == [0, 512, 512, 1024, 40448]


def test_peak_counts_inputs_and_output_of_an_op_and_frees_on_delete() -> None:
    tracker = StorageTracker()
    with FakeTensorMode(), tracker:
        a = torch.empty(1000, 1000)
        b = a @ a
        assert tracker.live_bytes == 2 * MB4
        del b
        assert tracker.live_bytes == MB4
        c = a.t()  # a view shares the storage: nothing new
        assert tracker.live_bytes == MB4
        d = (a * 2).sum()  # the temporary a * 2 is freed once the sum is done
        assert tracker.live_bytes == MB4 + 4
        del c, d
    assert tracker.peak_bytes == 2 * MB4 + 4  # a, a * 2 and the 4-byte sum were live together


def test_in_place_ops_allocate_nothing() -> None:
    tracker = StorageTracker()
    with FakeTensorMode(), tracker:
        a = torch.empty(1000, 1000)
        a.mul_(2).add_(1)
        assert tracker.live_bytes == MB4
        del a
    assert tracker.peak_bytes == MB4


def test_relabel_moves_bytes_between_categories() -> None:
    tracker = StorageTracker()
    with FakeTensorMode(), tracker:
        tracker.mark_phase(1, "backward", "activations")
        g = torch.empty(1000, 1000)
        assert tracker.by_category["activations"] == MB4
        tracker.relabel(g, "gradients")
        assert tracker.by_category["gradients"] == MB4
        assert tracker.by_category["activations"] == 0
        del g
