"""One vocabulary (tools.vocabulary): the narrower method sets are subsets of Method, each calculator
validates against the same names, and the defaults are the calculators' own."""

from __future__ import annotations

import inspect
from itertools import pairwise
from typing import get_args

import pytest

from tools import vocabulary as v
from tools.catalog.schema import ModelArch
from tools.compute.flops import check_training_method
from tools.errors import InputError
from tools.memory import estimate_memory
from tools.profile import WorkloadProfile


def test_narrower_method_sets_are_subsets_in_order() -> None:
    chain = [v.SimulatedMethod, v.ProfileMethod, v.TrainingMethod, v.Method]
    for narrow, wide in pairwise(chain):
        assert get_args(wide)[: len(get_args(narrow))] == get_args(narrow)
    assert get_args(v.Method) == ("full", "lora", "qlora", "pretraining", "inference")
    assert get_args(v.Method) == v.METHODS
    assert set(get_args(v.KvPrecision)) <= set(v.PRECISIONS)
    assert set(v.QUANTIZED) <= set(v.PRECISIONS)
    assert set(get_args(v.SimulatedOptimizer)) <= set(v.OPTIMIZERS)


def test_profile_accepts_exactly_the_profile_methods() -> None:
    for m in get_args(v.ProfileMethod):
        assert WorkloadProfile(method=m).method == m
    with pytest.raises(ValueError):
        WorkloadProfile(method="pretraining")  # type: ignore[arg-type]


def test_compute_rejects_inference_with_the_training_methods_listed() -> None:
    with pytest.raises(InputError, match="use one of full, lora, qlora, pretraining$"):
        check_training_method("inference")


def test_memory_defaults_are_the_named_ones(llama7b: ModelArch) -> None:
    params = inspect.signature(estimate_memory).parameters
    assert params["seq_len"].default == v.SEQ_LEN_DEFAULT == 2048
    assert params["batch_size"].default == v.BATCH_SIZE_DEFAULT == 1
    assert params["lora_rank"].default == v.LORA_RANK_DEFAULT == 16
    assert params["lora_targets"].default == v.LORA_TARGETS_DEFAULT
    est = estimate_memory(arch=llama7b, method="lora")
    assert (est.seq_len, est.batch_size, est.lora_rank) == (2048, 1, 16)
