"""Small models from a bare parameter count (tools/catalog/synthetic.py): SmolLM2's shapes below 0.5B
(review 6: 'train a 350M param model from scratch on 30B tokens' was refused)."""

from __future__ import annotations

import pytest

from tools.catalog.synthetic import MIN_PARAMS_B, SMALL_VOCAB, synthetic_arch
from tools.errors import InputError


@pytest.mark.parametrize("params_b", [0.1, 0.135, 0.35, 0.36, 0.49])
def test_a_small_model_has_its_parameter_count_and_a_tied_small_vocabulary(params_b: float) -> None:
    arch = synthetic_arch(params_b)
    assert arch.param_count() == pytest.approx(params_b * 1e9, rel=0.01)
    assert arch.vocab_size == SMALL_VOCAB and arch.tied_embeddings
    assert arch.n_kv_heads <= arch.n_heads


def test_sizes_from_half_a_billion_keep_the_llama_shapes_and_tiny_ones_are_refused() -> None:
    arch = synthetic_arch(0.5)
    assert arch.vocab_size == 128256 and not arch.tied_embeddings
    with pytest.raises(InputError, match="between"):
        synthetic_arch(MIN_PARAMS_B / 2)
