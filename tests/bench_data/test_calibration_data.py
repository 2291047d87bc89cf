"""The calibration data sets (bench/data/*.yaml) validate, meet the issues' minimums and split cleanly."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

import bench.calibration_data as calibration_data
from bench.calibration_data import (
    SERVING_FILE,
    SERVING_FRESH2_FILE,
    SERVING_FRESH3_FILE,
    SERVING_FRESH4_FILE,
    SERVING_FRESH5_FILE,
    SERVING_FRESH6_FILE,
    SERVING_FRESH7_FILE,
    CalibrationDataError,
    ServingRow,
    Split,
    TrainingRow,
    load_serving_rows,
    load_serving_split,
    load_training_rows,
    load_training_split,
    rows_in,
)
from bench.memory_fresh_data import OWN_MEASUREMENT_PREFIX
from tools.catalog.load import load_catalog

TRAINING_MIN = 40  # issue 13
SERVING_MIN = 25  # issue 14


@pytest.fixture(scope="module")
def training() -> list[TrainingRow]:
    return load_training_rows()


@pytest.fixture(scope="module")
def serving() -> list[ServingRow]:
    return load_serving_rows()


@pytest.fixture(scope="module")
def gpu_ids() -> set[str]:
    return {g.id for g in load_catalog().gpus}


def test_counts_meet_the_issues_minimums(training: list[TrainingRow], serving: list[ServingRow]) -> None:
    assert len(training) >= TRAINING_MIN
    assert len(serving) >= SERVING_MIN


@pytest.mark.parametrize("which", ["training", "serving"])
def test_ids_are_unique(which: str, training: list[TrainingRow], serving: list[ServingRow]) -> None:
    rows: Sequence[TrainingRow | ServingRow] = training if which == "training" else serving
    ids = [r.id for r in rows]
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})


def test_every_row_has_a_source_and_a_date(training: list[TrainingRow], serving: list[ServingRow]) -> None:
    for row in [*training, *serving]:
        # a published page, or this repository's own measuring script (rows measured on a lent GPU)
        assert row.source.url.startswith(("http", OWN_MEASUREMENT_PREFIX)), row.id
        assert row.source.document.strip(), row.id
        assert row.source.date.strip(), row.id


def test_gpu_ids_exist_in_the_catalog(
    training: list[TrainingRow], serving: list[ServingRow], gpu_ids: set[str]
) -> None:
    unknown = sorted({r.gpu for r in [*training, *serving]} - gpu_ids)
    assert unknown == []


def test_training_covers_what_issue_13_asks(training: list[TrainingRow]) -> None:
    gpus = {r.gpu for r in training}
    assert {"h100-sxm", "b200"} <= gpus
    assert any(g.startswith("a100") for g in gpus)
    assert any(g.startswith("rtx-") for g in gpus)
    assert {r.method for r in training} == {"full", "lora", "qlora", "pretraining"}
    assert {"bf16", "fp8"} <= {r.precision for r in training}
    assert any(r.model.moe for r in training) and any(not r.model.moe for r in training)


def test_serving_covers_what_issue_14_asks(serving: list[ServingRow]) -> None:
    gpus = {r.gpu for r in serving}
    assert {"h100-sxm", "h200", "b200", "l40s"} <= gpus
    assert any(g.startswith("a100") for g in gpus)
    assert any(g.startswith("rtx-") for g in gpus)
    assert {"fp16", "fp8", "int4"} <= {r.weights_precision for r in serving}
    sizes = [r.model.params_b for r in serving]
    assert min(sizes) <= 8 and max(sizes) >= 400
    assert any(r.model.moe for r in serving)
    concurrencies = {r.concurrency for r in serving if r.concurrency is not None}
    assert min(concurrencies) == 1 and max(concurrencies) >= 256
    assert len({(r.prompt_tokens, r.output_tokens) for r in serving if r.prompt_tokens}) >= 5


def test_derived_throughputs_show_their_arithmetic(training: list[TrainingRow]) -> None:
    for row in training:
        if row.tokens_per_s_per_gpu_basis == "derived":
            assert row.derivation and "=" in row.derivation, row.id


@pytest.mark.parametrize("which", ["training", "serving"])
def test_split_is_by_family_and_spans_gpus(
    which: str, training: list[TrainingRow], serving: list[ServingRow]
) -> None:
    if which == "training":
        rows: Sequence[TrainingRow | ServingRow] = training
        split: Split = load_training_split()
    else:
        rows, split = serving, load_serving_split()
    sides = split.sides()
    # every row on exactly one side (further named sides such as fresh_held_out count too)
    assert sum(len([r for r in rows if r.family in fams]) for fams in sides.values()) == len(rows)
    families = {r.family for r in rows}
    named = [f for fams in sides.values() for f in fams]
    assert set(named) == families and len(named) == len(set(named)), "every family on one side, none unknown"
    assert len({r.gpu for r in rows if r.family in split.fit}) >= 3
    assert len({r.gpu for r in rows if r.family in split.held_out}) >= 3


def test_split_takes_further_named_sides_and_keeps_them_disjoint() -> None:
    extra = Split.model_validate({"fit": ["a"], "held_out": ["b"], "fresh_held_out": ["c", "d"]})
    assert extra.held_out_sides() == {"held_out": ["b"], "fresh_held_out": ["c", "d"]}
    with pytest.raises(ValueError, match="two sides"):
        Split.model_validate({"fit": ["a"], "held_out": ["b"], "fresh_held_out": ["a"]})
    with pytest.raises(ValueError, match="list of family names"):
        Split.model_validate({"fit": ["a"], "held_out": ["b"], "later_held_out": "c"})


def test_issue_14_check_rows_are_held_out(serving: list[ServingRow]) -> None:
    # issue 14 quotes the NIM benchmark page as its check: those rows must never be fitted on
    assert "nvidia-nim-benchmarks" in load_serving_split().held_out


FRESH_MIN = 15  # rows in the fresh held-out set (collected blind to the time model, after it was built)


def test_fresh_held_out_is_a_new_clean_set(training: list[TrainingRow]) -> None:
    split = load_training_split()
    fresh = rows_in(training, split.fresh_held_out)
    older = rows_in(training, split.fit + split.held_out)
    assert len(fresh) >= FRESH_MIN
    assert len(split.fresh_held_out) >= 3, "several source families, not one table"
    # new sources: no document already used for fitting or for the first held-out report
    assert not {r.source.url for r in fresh} & {r.source.url for r in older}
    assert len({r.gpu for r in fresh}) >= 3
    assert any(r.model.moe for r in fresh) and any(not r.model.moe for r in fresh)
    assert {"bf16", "fp8"} <= {r.precision for r in fresh}
    assert {"pretraining", "full"} <= {r.method for r in fresh}
    assert sum(r.tokens_per_s_per_gpu is not None for r in fresh) >= FRESH_MIN


def test_split_refuses_a_family_on_two_sides() -> None:
    with pytest.raises(ValidationError, match="on two sides"):
        Split(fit=["a"], held_out=["b"], fresh_held_out=["a"])
    with pytest.raises(ValidationError, match="on two sides"):
        Split(fit=["a"], held_out=["a"])
    assert Split(fit=["a"], held_out=["b"]).fresh_held_out == []  # optional: a file may not have one


FRESH_SERVING_MIN = 15  # serving rows collected blind to the serving model, after it was fitted


def test_fresh_serving_held_out_is_a_new_clean_set(serving: list[ServingRow]) -> None:
    split = load_serving_split()
    fresh = rows_in(serving, split.fresh_held_out)
    older = rows_in(serving, split.fit + split.held_out)
    assert len(fresh) >= FRESH_SERVING_MIN
    assert len(split.fresh_held_out) >= 3, "several source families, not one table"
    # disjoint: no family on two sides (the loader checks it too) and no row id reused
    assert not set(split.fresh_held_out) & set(split.fit + split.held_out)
    assert not {r.id for r in fresh} & {r.id for r in older}
    # new sources: no document already used for fitting or for the first held-out report
    assert not {r.source.url for r in fresh} & {r.source.url for r in older}
    # what it spans: several GPUs incl. a consumer card, dense and MoE, 7B-405B, several precisions and loads
    gpus = {r.gpu for r in fresh}
    assert len(gpus) >= 4 and any(g.startswith("rtx-") for g in gpus)
    assert any(r.model.moe for r in fresh) and any(not r.model.moe for r in fresh)
    sizes = [r.model.params_b for r in fresh]
    assert min(sizes) <= 8 and max(sizes) >= 400
    assert len({r.weights_precision for r in fresh}) >= 4
    concurrencies = {r.concurrency for r in fresh if r.concurrency is not None}
    assert min(concurrencies) == 1 and max(concurrencies) >= 256
    assert {"vllm", "sglang", "tensorrt-llm"} <= {r.framework for r in fresh}
    # each row carries a figure the serving bench can score
    for row in fresh:
        assert row.output_tokens_per_s_total or row.per_user_tokens_per_s or row.itl_ms or row.ttft_ms, row.id


FRESH2_SERVING_MIN = 25  # rows in bench/data/serving_throughput_fresh2.yaml, collected blind


def test_fresh2_serving_set_loads_and_is_new(serving: list[ServingRow]) -> None:
    fresh2 = load_serving_rows(SERVING_FRESH2_FILE)
    first = load_serving_rows(SERVING_FILE)
    assert len(fresh2) >= FRESH2_SERVING_MIN
    fresh3 = load_serving_rows(SERVING_FRESH3_FILE)
    fresh4 = load_serving_rows(SERVING_FRESH4_FILE)
    fresh5 = load_serving_rows(SERVING_FRESH5_FILE)
    fresh6 = load_serving_rows(SERVING_FRESH6_FILE)
    fresh7 = load_serving_rows(SERVING_FRESH7_FILE)
    total = len(first) + len(fresh2) + len(fresh3) + len(fresh4) + len(fresh5) + len(fresh6) + len(fresh7)
    assert len(serving) == total, "the default loader reads every file"
    split = load_serving_split()
    sides = split.sides()
    families = {r.family for r in fresh2}
    # every fresh-2 family on the fresh2_held_out side and on no other side; several source families
    assert set(sides["fresh2_held_out"]) == families and len(families) >= 4
    assert not families & {f for name, fams in sides.items() if name != "fresh2_held_out" for f in fams}
    assert "fresh2_held_out" in split.held_out_sides() and "fresh2_held_out" not in split.fit
    # ids unique across both files; no document already used by the first file
    ids = [r.id for r in serving]
    assert len(ids) == len(set(ids))
    assert not {r.source.url for r in fresh2} & {r.source.url for r in first}
    # what it spans, and each row carries a figure a serving bench can score
    assert len({r.gpu for r in fresh2}) >= 4
    assert any(r.model.moe for r in fresh2) and any(not r.model.moe for r in fresh2)
    assert {"vllm", "sglang", "tensorrt-llm"} <= {r.framework for r in fresh2}
    for row in fresh2:
        assert row.output_tokens_per_s_total or row.per_user_tokens_per_s or row.itl_ms or row.ttft_ms, row.id


FRESH3_SERVING_MIN = 45  # rows in bench/data/serving_throughput_fresh3.yaml, collected blind


def test_fresh3_serving_set_loads_and_is_new(serving: list[ServingRow]) -> None:
    fresh3 = load_serving_rows(SERVING_FRESH3_FILE)
    older = load_serving_rows(SERVING_FILE) + load_serving_rows(SERVING_FRESH2_FILE)
    assert len(fresh3) >= FRESH3_SERVING_MIN
    later_files = (SERVING_FRESH4_FILE, SERVING_FRESH5_FILE, SERVING_FRESH6_FILE, SERVING_FRESH7_FILE)
    later = sum(len(load_serving_rows(p)) for p in later_files)
    tail = serving[-len(fresh3) - later : -later]
    assert tail == fresh3, "the default loader reads fresh-3 before fresh-4 to fresh-7"
    split = load_serving_split()
    sides = split.sides()
    families = {r.family for r in fresh3}
    # the file declares only its own side; every fresh-3 family sits there and on no other side
    from bench.calibration_data import _read

    assert list(_read(SERVING_FRESH3_FILE)["split"]) == ["fresh3_held_out"]
    assert set(sides["fresh3_held_out"]) == families and len(families) >= 6
    assert not families & {f for name, fams in sides.items() if name != "fresh3_held_out" for f in fams}
    assert "fresh3_held_out" in split.held_out_sides()
    # ids unique across all files; no document (URL) already used by an older file
    ids = [r.id for r in serving]
    assert len(ids) == len(set(ids))
    assert not {r.source.url for r in fresh3} & {r.source.url for r in older}
    # what it spans: datacentre and consumer GPUs, dense and MoE, 7B-671B, precisions, loads and lengths
    gpus = {r.gpu for r in fresh3}
    assert len(gpus) >= 5 and any(g.startswith("rtx-") for g in gpus)
    assert {"h100-sxm", "h200", "b200", "mi300x"} <= gpus and any(g.startswith("a100") for g in gpus)
    assert any(r.model.moe for r in fresh3) and any(not r.model.moe for r in fresh3)
    sizes = [r.model.params_b for r in fresh3]
    assert min(sizes) <= 8 and max(sizes) >= 400
    assert {"bf16", "fp8", "int4", "fp4"} <= {r.weights_precision for r in fresh3}
    assert {"vllm", "tensorrt-llm", "other"} <= {r.framework for r in fresh3}
    assert len({r.load_mode for r in fresh3}) >= 3
    assert len({(r.prompt_tokens, r.output_tokens) for r in fresh3 if r.prompt_tokens}) >= 5
    # each row carries a figure a serving bench can score
    for row in fresh3:
        assert row.output_tokens_per_s_total or row.per_user_tokens_per_s or row.itl_ms or row.ttft_ms, row.id


FRESH4_SERVING_MIN = 30  # rows in bench/data/serving_throughput_fresh4.yaml, collected blind


def test_fresh4_serving_set_loads_and_is_new(serving: list[ServingRow]) -> None:
    from bench.calibration_data import SERVING_FILES, _read

    fresh4 = load_serving_rows(SERVING_FRESH4_FILE)
    older = [r for p in SERVING_FILES if p != SERVING_FRESH4_FILE for r in load_serving_rows(p)]
    after4 = (SERVING_FRESH5_FILE, SERVING_FRESH6_FILE, SERVING_FRESH7_FILE)
    assert SERVING_FILES[-4:] == (SERVING_FRESH4_FILE, *after4)
    assert len(fresh4) >= FRESH4_SERVING_MIN
    later = sum(len(load_serving_rows(p)) for p in after4)
    assert serving[-len(fresh4) - later : -later] == fresh4, "the loader reads fresh-4 just before fresh-5"
    split = load_serving_split()
    sides = split.sides()
    families = {r.family for r in fresh4}
    # the file declares only its own side; every fresh-4 family sits there and on no other side
    assert list(_read(SERVING_FRESH4_FILE)["split"]) == ["fresh4_held_out"]
    assert set(sides["fresh4_held_out"]) == families and len(families) >= 6
    assert not families & {f for name, fams in sides.items() if name != "fresh4_held_out" for f in fams}
    assert "fresh4_held_out" in split.held_out_sides()
    # ids unique across all files; no document (URL) already used by an older file
    ids = [r.id for r in serving]
    assert len(ids) == len(set(ids))
    assert not {r.source.url for r in fresh4} & {r.source.url for r in older}
    # what it spans: several GPU types, dense and MoE, 7B-405B, precisions, frameworks, loads and lengths
    assert len({r.gpu for r in fresh4}) >= 6
    assert any(r.model.moe for r in fresh4) and any(not r.model.moe for r in fresh4)
    sizes = [r.model.params_b for r in fresh4]
    assert min(sizes) <= 8 and max(sizes) >= 400
    assert {"bf16", "fp8", "int4"} <= {r.weights_precision for r in fresh4}
    assert {"vllm", "sglang", "tensorrt-llm"} <= {r.framework for r in fresh4}
    assert len({r.load_mode for r in fresh4}) >= 3
    concurrencies = {r.concurrency for r in fresh4 if r.concurrency is not None}
    assert min(concurrencies) == 1 and max(concurrencies) >= 64
    assert len({(r.prompt_tokens, r.output_tokens) for r in fresh4 if r.prompt_tokens}) >= 4
    # each row carries a figure a serving bench can score; a derived figure says how it was derived
    for row in fresh4:
        assert row.output_tokens_per_s_total or row.per_user_tokens_per_s or row.itl_ms or row.ttft_ms, row.id
        if "derived" in (row.ambiguous or ""):
            assert row.notes and "derived:" in row.notes, row.id


FRESH5_SERVING_MIN = 40  # rows in bench/data/serving_throughput_fresh5.yaml, collected blind (63 rows)


def test_fresh5_serving_set_loads_and_is_new(serving: list[ServingRow]) -> None:
    from bench.calibration_data import SERVING_FILES, _read

    fresh5 = load_serving_rows(SERVING_FRESH5_FILE)
    older = [r for p in SERVING_FILES if p != SERVING_FRESH5_FILE for r in load_serving_rows(p)]
    assert SERVING_FILES[-3:] == (SERVING_FRESH5_FILE, SERVING_FRESH6_FILE, SERVING_FRESH7_FILE)
    assert len(fresh5) >= FRESH5_SERVING_MIN
    n6 = len(load_serving_rows(SERVING_FRESH6_FILE)) + len(load_serving_rows(SERVING_FRESH7_FILE))
    assert serving[-len(fresh5) - n6 : -n6] == fresh5, "the default loader reads fresh-5 just before fresh-6"
    split = load_serving_split()
    sides = split.sides()
    families = {r.family for r in fresh5}
    # the file declares only its own side; every fresh-5 family sits there and on no other side
    assert list(_read(SERVING_FRESH5_FILE)["split"]) == ["fresh5_held_out"]
    assert set(sides["fresh5_held_out"]) == families and len(families) >= 5
    assert not families & {f for name, fams in sides.items() if name != "fresh5_held_out" for f in fams}
    assert "fresh5_held_out" in split.held_out_sides()
    # new source families and documents: no family or URL of an older file reused
    assert not families & {r.family for r in older}
    assert not {r.source.url for r in fresh5} & {r.source.url for r in older}
    ids = [r.id for r in serving]
    assert len(ids) == len(set(ids))
    # what it spans: datacentre and consumer cards, dense and MoE, 6-70B, 16-bit and quantised, TGI included
    gpus = {r.gpu for r in fresh5}
    assert any(g.startswith("a100") for g in gpus) and {"rtx-4090", "rtx-3090"} <= gpus
    assert any(r.model.moe for r in fresh5) and any(not r.model.moe for r in fresh5)
    sizes = [r.model.params_b for r in fresh5]
    assert min(sizes) <= 7 and max(sizes) >= 68
    assert {"bf16", "int8", "int4"} <= {r.weights_precision for r in fresh5}
    assert {"vllm", "tgi", "other"} <= {r.framework for r in fresh5}
    assert len({r.load_mode for r in fresh5}) >= 2  # closed loop and batches (the bursts read as batches)
    assert max(r.tp for r in fresh5) == 8
    # each row carries a figure a serving bench can score, its source and its date
    for row in fresh5:
        assert row.output_tokens_per_s_total or row.per_user_tokens_per_s or row.itl_ms or row.ttft_ms, row.id
        assert row.source.url.startswith("https://github.com/") and "/blob/" in row.source.url, row.id
        assert row.source.date and row.ambiguous, row.id


FRESH6_SERVING_MIN = 40  # rows in bench/data/serving_throughput_fresh6.yaml, collected blind (55 rows)


def test_fresh6_serving_set_loads_and_is_new(serving: list[ServingRow]) -> None:
    from bench.calibration_data import SERVING_FILES, _read

    fresh6 = load_serving_rows(SERVING_FRESH6_FILE)
    older = [r for p in SERVING_FILES if p != SERVING_FRESH6_FILE for r in load_serving_rows(p)]
    assert SERVING_FILES[-2:] == (SERVING_FRESH6_FILE, SERVING_FRESH7_FILE)
    assert len(fresh6) >= FRESH6_SERVING_MIN
    n7 = len(load_serving_rows(SERVING_FRESH7_FILE))
    assert serving[-len(fresh6) - n7 : -n7] == fresh6, "the default loader reads fresh-6 just before fresh-7"
    split = load_serving_split()
    sides = split.sides()
    families = {r.family for r in fresh6}
    # the file declares only its own side; every fresh-6 family sits there and on no other side
    assert list(_read(SERVING_FRESH6_FILE)["split"]) == ["fresh6_held_out"]
    assert set(sides["fresh6_held_out"]) == families and len(families) >= 5
    assert not families & {f for name, fams in sides.items() if name != "fresh6_held_out" for f in fams}
    assert "fresh6_held_out" in split.held_out_sides() and "fresh6_held_out" not in split.fit
    # new source families and documents: no family or URL of an older file reused
    assert not families & {r.family for r in older}
    assert not {r.source.url for r in fresh6} & {r.source.url for r in older}
    ids = [r.id for r in serving]
    assert len(ids) == len(set(ids))
    # what it spans: A100, H100, B200 and an inference card; dense and MoE from 7B to 1T; engines and loads
    gpus = {r.gpu for r in fresh6}
    assert {"a100-80gb-sxm", "h100-sxm", "b200"} <= gpus and len(gpus) >= 5
    assert any(r.model.moe for r in fresh6) and any(not r.model.moe for r in fresh6)
    sizes = [r.model.params_b for r in fresh6]
    assert min(sizes) <= 8 and max(sizes) >= 400
    assert {"bf16", "fp8", "fp4"} <= {r.weights_precision for r in fresh6}
    assert {"vllm", "sglang", "transformers"} <= {r.framework for r in fresh6}
    assert {"closed_loop_concurrency", "static_batch"} <= {r.load_mode for r in fresh6}
    assert max(r.tp for r in fresh6) == 8 and max(r.concurrency or 0 for r in fresh6) >= 512
    # each row carries a figure a serving bench can score, its source, its date and what was assumed;
    # a derived figure says how it was derived
    for row in fresh6:
        assert row.output_tokens_per_s_total or row.per_user_tokens_per_s or row.itl_ms or row.ttft_ms, row.id
        assert row.source.url.startswith("https://") and row.source.date and row.ambiguous, row.id
        if "derived" in (row.ambiguous or ""):
            assert row.notes and "derived:" in row.notes, row.id


FRESH7_SERVING_MIN = 40  # rows in bench/data/serving_throughput_fresh7.yaml, collected blind (59 rows)


def test_fresh7_serving_set_loads_and_is_new(serving: list[ServingRow]) -> None:
    from bench.calibration_data import SERVING_FILES, _read

    fresh7 = load_serving_rows(SERVING_FRESH7_FILE)
    older = [r for p in SERVING_FILES if p != SERVING_FRESH7_FILE for r in load_serving_rows(p)]
    assert SERVING_FILES[-1] == SERVING_FRESH7_FILE
    assert len(fresh7) >= FRESH7_SERVING_MIN
    assert serving[-len(fresh7) :] == fresh7, "the default loader reads the fresh-7 file last"
    split = load_serving_split()
    sides = split.sides()
    families = {r.family for r in fresh7}
    # the file declares only its own side; every fresh-7 family sits there and on no other side
    assert list(_read(SERVING_FRESH7_FILE)["split"]) == ["fresh7_held_out"]
    assert set(sides["fresh7_held_out"]) == families and len(families) >= 5
    assert not families & {f for name, fams in sides.items() if name != "fresh7_held_out" for f in fams}
    assert "fresh7_held_out" in split.held_out_sides() and "fresh7_held_out" not in split.fit
    # new source families and documents: no family or URL of an older file reused
    assert not families & {r.family for r in older}
    assert not {r.source.url for r in fresh7} & {r.source.url for r in older}
    ids = [r.id for r in serving]
    assert len(ids) == len(set(ids))
    # what it spans: H200 and H100 servers and a consumer card; dense and MoE, 7B to 671B; engines, loads
    gpus = {r.gpu for r in fresh7}
    assert {"h200", "h100-sxm", "rtx-4090"} <= gpus
    assert any(r.model.moe for r in fresh7) and any(not r.model.moe for r in fresh7)
    sizes = [r.model.params_b for r in fresh7]
    assert min(sizes) <= 7 and max(sizes) >= 600
    assert {"fp8", "fp16", "int4"} <= {r.weights_precision for r in fresh7}
    assert {"vllm", "sglang", "other"} <= {r.framework for r in fresh7}
    assert {"closed_loop_concurrency", "static_batch", "poisson_rate"} <= {r.load_mode for r in fresh7}
    assert max(r.tp for r in fresh7) == 8
    shapes = {(r.prompt_tokens, r.output_tokens) for r in fresh7 if r.prompt_tokens and r.output_tokens}
    assert len(shapes) >= 8
    # each row carries a figure a serving bench can score, its source (a pinned commit), its date and what was
    # assumed; a derived figure says how it was derived
    for row in fresh7:
        assert row.output_tokens_per_s_total or row.per_user_tokens_per_s or row.itl_ms or row.ttft_ms, row.id
        assert row.source.url.startswith("https://github.com/") and "/blob/" in row.source.url, row.id
        assert row.source.version and row.source.version in row.source.url, row.id
        assert row.source.date and row.ambiguous, row.id
        if "derived" in (row.ambiguous or ""):
            assert row.notes and "derived:" in row.notes, row.id
    # transcription spot checks against the sources, exact to the printed digits: simon-mo/R1-Benchmark README
    # 07d044f, llama-8b vLLM 1000/2000: 4528.55 tok/s (4528.547 in saved-results/v0.8.2/h200-brewster);
    # AutoAWQ README 027758d, Mistral 7B GEMM batch 8, 64/64: 1185.25 decode tokens/s
    by_id = {r.id: r for r in fresh7}
    assert by_id["simonmo-r1bench-llama-8b-h200-vllm-1000-2000"].output_tokens_per_s_total == 4528.55
    assert by_id["autoawq-mistral-7b-rtx4090-gemm-bs8-64-64"].output_tokens_per_s_total == 1185.25


def test_serving_split_across_files_refuses_a_family_on_two_sides(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text("split: {fit: [x], held_out: [y]}\nrows: []\n", encoding="utf-8")
    b.write_text("split: {fresh2_held_out: [z]}\nrows: []\n", encoding="utf-8")
    monkeypatch.setattr(calibration_data, "SERVING_FILES", (a, b))
    assert load_serving_split().sides() == {"fit": ["x"], "held_out": ["y"], "fresh2_held_out": ["z"]}
    b.write_text("split: {fresh2_held_out: [x]}\nrows: []\n", encoding="utf-8")
    with pytest.raises(CalibrationDataError, match="two sides"):
        load_serving_split()


FRESH2_MIN = 25  # rows in the fresh-2 held-out set (bench/data/training_throughput_fresh2.yaml)


def test_fresh2_training_file_is_its_own_clean_side(training: list[TrainingRow]) -> None:
    from bench.calibration_data import TRAINING_EXTRA_FILES, TRAINING_FRESH2_FILE, _read, _rows

    fresh2_file = TRAINING_FRESH2_FILE
    assert TRAINING_EXTRA_FILES[0] == fresh2_file  # read right after the default file
    own = _rows(fresh2_file, TrainingRow)
    assert list(_read(fresh2_file)["split"]) == ["fresh2_held_out"]  # the file declares only its new side
    split = load_training_split()
    sides = split.sides()
    assert {r.family for r in own} == set(sides["fresh2_held_out"])
    assert len(own) >= FRESH2_MIN and len(sides["fresh2_held_out"]) >= 4
    # its families sit on that side only, and the loader returns its rows with the others
    others = {f for name, fams in sides.items() if name != "fresh2_held_out" for f in fams}
    assert not others & set(sides["fresh2_held_out"])
    assert rows_in(training, sides["fresh2_held_out"]) == own
    # ids unique across both files; sources new (no URL of an older side)
    ids = [r.id for r in training]
    assert len(ids) == len(set(ids))
    older = rows_in(training, sorted(others))
    assert not {r.source.url for r in own} & {r.source.url for r in older}
    assert len({r.gpu for r in own}) >= 3
    assert sum(r.tokens_per_s_per_gpu is not None for r in own) >= FRESH2_MIN


FRESH3_MIN = 45  # rows in the fresh-3 held-out set (bench/data/training_throughput_fresh3.yaml)


def _own_clean_training_side(
    training: list[TrainingRow], index: int, side: str, min_rows: int, min_families: int
) -> list[TrainingRow]:
    """The rows of the extra training file at `index` of TRAINING_EXTRA_FILES, checked to be read in file
    order, to declare only its own `side`, to hold >= `min_families` families found on that side only and
    >= `min_rows` rows, with ids unique across files and no document of an earlier file reused."""
    from bench.calibration_data import TRAINING_EXTRA_FILES, TRAINING_FILE, _read, _rows

    per_file = [_rows(f, TrainingRow) for f in (TRAINING_FILE, *TRAINING_EXTRA_FILES)]
    assert [r.id for r in training] == [r.id for rows in per_file for r in rows]
    own = per_file[index + 1]
    assert list(_read(TRAINING_EXTRA_FILES[index])["split"]) == [side]  # only its own new side
    split = load_training_split()
    sides = split.sides()
    families = {r.family for r in own}
    assert families == set(sides[side]) and len(families) >= min_families, "several new source families"
    assert side in split.held_out_sides() and len(own) >= min_rows
    # its families sit on that side only; ids unique across all files; no document of an earlier file reused
    others = {f for name, fams in sides.items() if name != side for f in fams}
    assert not others & families
    assert rows_in(training, sides[side]) == own
    ids = [r.id for r in training]
    assert len(ids) == len(set(ids))
    older = rows_in(training, sorted(others))
    assert not {r.source.url for r in own} & {r.source.url for r in older}
    return own


def test_fresh3_training_file_is_its_own_clean_side(training: list[TrainingRow]) -> None:
    from bench.calibration_data import TRAINING_EXTRA_FILES, TRAINING_FRESH3_FILE

    # read right after fresh-2, and the default loader returns every file's rows in file order
    assert TRAINING_EXTRA_FILES[1] == TRAINING_FRESH3_FILE
    own = _own_clean_training_side(training, 1, "fresh3_held_out", FRESH3_MIN, 6)
    # what it spans: every method, dense and MoE, sub-1B to 1T, 2 to 3000+ GPUs, BF16 and FP8, a consumer card
    assert {r.method for r in own} == {"pretraining", "full", "lora", "qlora"}
    assert any(r.model.moe for r in own) and any(not r.model.moe for r in own)
    sizes = [r.model.params_b for r in own]
    assert min(sizes) < 1 and max(sizes) >= 400
    counts = [r.gpus for r in own]
    assert min(counts) <= 2 and max(counts) >= 1000
    assert {"bf16", "fp8"} <= {r.precision for r in own}
    gpus = {r.gpu for r in own}
    assert len(gpus) >= 4 and any(g.startswith("rtx-") for g in gpus)
    assert sum(r.tokens_per_s_per_gpu is not None for r in own) >= FRESH3_MIN


FRESH4_MIN = 30  # rows in the fresh-4 held-out set (bench/data/training_throughput_fresh4.yaml)


def test_fresh4_training_file_is_its_own_clean_side(training: list[TrainingRow]) -> None:
    from bench.calibration_data import TRAINING_EXTRA_FILES, TRAINING_FRESH4_FILE

    # read after fresh-3 (before the B200 file); the default loader returns every file's rows in file order
    index = TRAINING_EXTRA_FILES.index(TRAINING_FRESH4_FILE)
    assert TRAINING_EXTRA_FILES[index - 1].name == "training_throughput_fresh3.yaml"
    own = _own_clean_training_side(training, index, "fresh4_held_out", FRESH4_MIN, 5)
    # what it spans: every method, dense and MoE, A100 to B200 plus a consumer card, BF16 / FP8 / MXFP8, and
    # frameworks beyond 'other' (torchtitan, unsloth, deepspeed, megatron)
    assert {r.method for r in own} == {"pretraining", "full", "lora", "qlora"}
    assert any(r.model.moe for r in own) and any(not r.model.moe for r in own)
    gpus = {r.gpu for r in own}
    assert {"a100-80gb-sxm", "h100-sxm", "h200", "b200"} <= gpus and any(g.startswith("rtx-") for g in gpus)
    assert {"bf16", "fp8", "mxfp8"} <= {r.precision for r in own}
    assert {"torchtitan", "unsloth", "deepspeed", "megatron", "other"} <= {r.framework for r in own}
    assert sum(r.tokens_per_s_per_gpu is not None for r in own) >= FRESH4_MIN


FRESH5_MIN = 40  # rows in the fresh-5 held-out set (bench/data/training_throughput_fresh5.yaml)


def test_fresh5_training_file_is_its_own_clean_side(training: list[TrainingRow]) -> None:
    from bench.calibration_data import TRAINING_EXTRA_FILES, TRAINING_FRESH5_FILE

    # read right after fresh-4 and before the B200 file; its own side only, >= 5 families found nowhere else
    index = TRAINING_EXTRA_FILES.index(TRAINING_FRESH5_FILE)
    assert TRAINING_EXTRA_FILES[index - 1].name == "training_throughput_fresh4.yaml"
    own = _own_clean_training_side(training, index, "fresh5_held_out", FRESH5_MIN, 5)
    # what it spans: every method, dense and MoE, A100 / H100 / H200, FP16 / BF16 / FP8, one to 384 GPUs
    assert {r.method for r in own} == {"pretraining", "full", "lora", "qlora"}
    assert any(r.model.moe for r in own) and any(not r.model.moe for r in own)
    assert {"a100-80gb-sxm", "h100-sxm", "h200"} <= {r.gpu for r in own}
    assert {"fp16", "bf16", "fp8"} <= {r.precision for r in own}
    assert min(r.gpus for r in own) == 1 and max(r.gpus for r in own) >= 256
    assert all(r.tokens_per_s_per_gpu is not None for r in own)
    # derived figures show their arithmetic; every row names what its source leaves unclear
    assert all(r.derivation for r in own if r.tokens_per_s_per_gpu_basis == "derived")
    assert all(r.ambiguous for r in own)


FRESH6_MIN = 40  # rows in the fresh-6 held-out set (bench/data/training_throughput_fresh6.yaml, 42 rows)


def test_fresh6_training_file_is_its_own_clean_side(training: list[TrainingRow]) -> None:
    from bench.calibration_data import TRAINING_EXTRA_FILES, TRAINING_FRESH6_FILE

    # read right after fresh-5 and before the B200 file; its own side only, >= 5 families found nowhere else
    index = TRAINING_EXTRA_FILES.index(TRAINING_FRESH6_FILE)
    assert TRAINING_EXTRA_FILES[index - 1].name == "training_throughput_fresh5.yaml"
    own = _own_clean_training_side(training, index, "fresh6_held_out", FRESH6_MIN, 5)
    # what it spans: every method, dense and MoE, A100 40/80GB, H100 and a 24 GB card (A10G), 1 to 1920 GPUs
    assert {r.method for r in own} == {"pretraining", "full", "lora", "qlora"}
    assert any(r.model.moe for r in own) and any(not r.model.moe for r in own)
    assert {"a100-40gb-sxm", "a100-80gb-sxm", "h100-sxm", "a10g"} <= {r.gpu for r in own}
    assert min(r.gpus for r in own) == 1 and max(r.gpus for r in own) >= 1000
    # the model-card rows are whole-run goodputs: derived, with their arithmetic; the LitGPT rows publish only
    # a runtime (no token count), so they carry no tokens/s; every row names what its source leaves unclear
    with_figure = [r for r in own if r.tokens_per_s_per_gpu is not None]
    assert len(with_figure) >= 15
    assert all(r.tokens_per_s_per_gpu_basis == "derived" and r.derivation for r in with_figure)
    assert all(r.family == "litgpt-config-hub-finetune" for r in own if r.tokens_per_s_per_gpu is None)
    assert all(r.ambiguous for r in own)
    # a derivation reproduces its figure: tokens / (GPUs x seconds); phi-2: 1.4T tokens, 96 GPUs, 14 days
    phi2 = next(r for r in own if r.id == "phi2-2.7b-pretrain-96xa100-80g")
    assert phi2.tokens_per_s_per_gpu == pytest.approx(1.4e12 / (96 * 14 * 86400), rel=1e-4)


FRESH7_MIN = 40  # rows in the fresh-7 held-out set (bench/data/training_throughput_fresh7.yaml, 53 rows)


def test_fresh7_training_file_is_its_own_clean_side(training: list[TrainingRow]) -> None:
    from bench.calibration_data import TRAINING_EXTRA_FILES, TRAINING_FRESH7_FILE

    # read right after fresh-6 (before the device and B200 files); its own side only, >= 5 new families
    index = TRAINING_EXTRA_FILES.index(TRAINING_FRESH7_FILE)
    assert TRAINING_EXTRA_FILES[index - 1].name == "training_throughput_fresh6.yaml"
    own = _own_clean_training_side(training, index, "fresh7_held_out", FRESH7_MIN, 5)
    # spans: every method, dense and MoE, A100 / H100 / MI300X, two consumer cards, 1-96 GPUs, FP16 / BF16
    assert {r.method for r in own} == {"pretraining", "full", "lora", "qlora"}
    assert any(r.model.moe for r in own) and any(not r.model.moe for r in own)
    assert {"a100-80gb-sxm", "h100-sxm", "mi300x", "rtx-4090", "rtx-3090"} <= {r.gpu for r in own}
    assert {"fp16", "bf16"} <= {r.precision for r in own}
    assert min(r.gpus for r in own) == 1 and max(r.gpus for r in own) >= 96
    # every row carries a tokens/s per GPU; derived ones show their arithmetic; each names what is unclear
    assert all(r.tokens_per_s_per_gpu is not None for r in own)
    assert all(r.derivation for r in own if r.tokens_per_s_per_gpu_basis == "derived")
    assert all(r.ambiguous for r in own)
    # a derivation reproduces its figure: optimum-benchmark samples/s x 256 tokens (7B fp16 full, batch 16)
    row = next(r for r in own if r.id == "obench-llama2-7b-full-bs16-1xa100")
    assert row.tokens_per_s_per_gpu == pytest.approx(14.290585128404912 * 256, abs=0.06)
    # whole-run goodputs are marked as such in their notes
    speedrun = [r for r in own if r.family == "modded-nanogpt-readme"]
    assert speedrun and all("whole_run_average: true" in (r.notes or "") for r in speedrun)


FRESH8_MIN = 40  # rows in the fresh-8 held-out set (bench/data/training_throughput_fresh8.yaml, 47 rows)


def test_fresh8_training_file_is_its_own_clean_side(training: list[TrainingRow]) -> None:
    from bench.calibration_data import TRAINING_EXTRA_FILES, TRAINING_FRESH8_FILE

    # read right after fresh-7 (before the device and B200 files); its own side only, >= 5 new families
    index = TRAINING_EXTRA_FILES.index(TRAINING_FRESH8_FILE)
    assert TRAINING_EXTRA_FILES[index - 1].name == "training_throughput_fresh7.yaml"
    own = _own_clean_training_side(training, index, "fresh8_held_out", FRESH8_MIN, 5)
    # spans: pretraining / full / LoRA, dense and MoE, H100 / H200 / B200 / L40S, BF16 and FP8, 1 to 1024 GPUs
    assert {"pretraining", "full", "lora"} <= {r.method for r in own}
    assert any(r.model.moe for r in own) and any(not r.model.moe for r in own)
    assert {"h100-sxm", "h200", "b200", "l40s"} <= {r.gpu for r in own}
    assert {"bf16", "fp8"} <= {r.precision for r in own}
    assert min(r.gpus for r in own) == 1 and max(r.gpus for r in own) >= 1024
    # most rows carry a tokens/s per GPU; derived ones show their arithmetic; each names what is unclear
    assert sum(r.tokens_per_s_per_gpu is not None for r in own) >= FRESH8_MIN
    assert all(r.derivation for r in own if r.tokens_per_s_per_gpu_basis == "derived")
    assert all(r.ambiguous for r in own)
    # a derivation reproduces its figure: Qwen3-8B pretrain card, 1024 x 4096 tokens / (24.36181 s x 16 GPUs)
    card = next(r for r in own if r.id == "f8-mbcard-q8-pretrain-h100-16g")
    assert card.tokens_per_s_per_gpu == pytest.approx(1024 * 4096 / (24.36181 * 16), abs=0.06)
    # run averages are marked as such in their notes
    averaged = [r for r in own if r.family == "scicom-simple-throughput-multigpus"]
    assert averaged and all("whole_run_average: true" in (r.notes or "") for r in averaged)


B200_MIN = 10  # rows with tokens/s in the B200 held-out set (bench/data/training_throughput_b200.yaml)


def test_b200_training_file_is_its_own_clean_side(training: list[TrainingRow]) -> None:
    from bench.calibration_data import TRAINING_B200_FILE, TRAINING_EXTRA_FILES

    # read last, after fresh-4; every row is a B200 row, and at least one is BF16 at scale
    assert TRAINING_EXTRA_FILES[-1] == TRAINING_B200_FILE
    own = _own_clean_training_side(training, len(TRAINING_EXTRA_FILES) - 1, "b200_held_out", 12, 4)
    assert {r.gpu for r in own} == {"b200"}
    assert {"bf16", "fp8"} <= {r.precision for r in own}
    assert any(r.precision == "bf16" and r.gpus >= 64 and r.tokens_per_s_per_gpu for r in own)
    assert sum(r.tokens_per_s_per_gpu is not None for r in own) >= B200_MIN
    # the derived figures show their arithmetic, and the rows without a figure say why
    assert all(r.derivation for r in own if r.tokens_per_s_per_gpu_basis == "derived")
    assert all(r.ambiguous for r in own if r.tokens_per_s_per_gpu is None)


def test_an_extra_training_file_cannot_redeclare_a_side_or_a_family(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bench.calibration_data as cd

    base = yaml.safe_dump({"split": {"fit": ["a"], "held_out": ["b"]}, "rows": []})
    main, extra = tmp_path / "main.yaml", tmp_path / "extra.yaml"
    main.write_text(base, encoding="utf-8")
    monkeypatch.setattr(cd, "TRAINING_FILE", main)
    monkeypatch.setattr(cd, "TRAINING_EXTRA_FILES", (extra,))
    extra.write_text(yaml.safe_dump({"split": {"later_held_out": ["c"]}, "rows": []}), encoding="utf-8")
    assert cd.load_training_split(main).held_out_sides() == {"held_out": ["b"], "later_held_out": ["c"]}
    extra.write_text(yaml.safe_dump({"split": {"later_held_out": ["a"]}, "rows": []}), encoding="utf-8")
    with pytest.raises(cd.CalibrationDataError, match="two sides"):
        cd.load_training_split(main)
    extra.write_text(yaml.safe_dump({"split": {"held_out": ["c"]}, "rows": []}), encoding="utf-8")
    with pytest.raises(cd.CalibrationDataError, match="already declared"):
        cd.load_training_split(main)
    # a custom path is read alone, without the extra files
    other = tmp_path / "other.yaml"
    other.write_text(base, encoding="utf-8")
    assert list(cd.load_training_split(other).sides()) == ["fit", "held_out"]


def test_b200_rows_are_scored_and_the_bf16_band_holds_the_large_model_row() -> None:
    # issue 13's B200 question (bench/data/README.md, "B200 held-out set (training)"): the bench scores the
    # B200 side, and the generic Blackwell BF16 band (Hopper's BF16 cell moved by the Blackwell/Hopper ratio)
    # holds the one large-model BF16 figure published, Llama 3.1 405B on 256 GPUs at 432 tok/s/GPU; a band
    # fitted on single-GPU 8B LoRA rows (0.24 of peak) would put it at 143-285, 2x slow.
    from bench.time_accuracy import scored_sides

    side = scored_sides()["b200_held_out"]
    assert len(side) == 10
    row = next(s for s in side if s.row.id == "dgxc-llama31-405b-bf16-256gpu-example")
    assert row.row.precision == "bf16" and row.inside_generic
    middle = math.sqrt(row.without.low * row.without.high)
    assert abs(middle / 432.1 - 1) < 0.15 and middle > 285
