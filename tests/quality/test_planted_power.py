"""Details of findings on planted bugs that bench/mutation_score.py found unguarded."""

from __future__ import annotations

from . import planted
from .test_planted_bugs import _found, _run


def test_missed_fusion_names_the_kept_node_and_what_it_follows():
    cells = _run("optional-input/conv-bn", planted.fuse_conv_bn_counting_inputs)
    [hit] = _found(cells, "parity", "missed-optimization", form="empty-name")
    kept = hit.details["kept_nodes"]
    assert kept and all(k["op"] == "BatchNormalization" and k["after"].startswith("Conv ") for k in kept)
    assert f"; kept in 'empty-name': {kept[0]['node']} after {kept[0]['after']}" in hit.message
