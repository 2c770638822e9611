"""``fresh_name`` on a :class:`~passcheck.mutations._base.Names` set resumes its ``base_N`` scan where the last one
for that base ended: the names it gives are those of the scan from 1 on a plain set, whatever names are added,
removed or copied in between, and a rewrite wrapping a 1,100-node Identity chain into If nodes names its branch
graphs as before."""

from __future__ import annotations

import copy
import random

import onnx
from onnx import TensorProto, helper

from passcheck.mutations import forms as hforms
from passcheck.mutations._base import Names, all_names, fresh_name


def _scan_from_one(taken: set[str], base: str) -> str:
    name, i = base, 0
    while name in taken:
        i += 1
        name = f"{base}_{i}"
    taken.add(name)
    return name


def test_names_give_the_names_of_a_scan_from_one_under_adds_removals_and_copies():
    rng = random.Random(0)
    for _ in range(40):
        plain, names = set(), Names()
        for _ in range(300):
            base = rng.choice(["then", "then_1", "else", "x"])
            op = rng.random()
            if op < 0.6:
                assert fresh_name(names, base) == _scan_from_one(plain, base)
            elif op < 0.7:
                gone = rng.choice(sorted(plain)) if plain else "then"
                plain.discard(gone)
                names.discard(gone)
            elif op < 0.8:
                gone = {f"{base}_{rng.randint(1, 6)}"}
                plain -= gone
                names -= gone
            elif op < 0.9:
                extra = f"{base}_{rng.randint(1, 6)}"
                plain.add(extra)
                names.add(extra)
            else:  # a copy scans on its own: the original's later names do not move the copy's scan
                twin, plain_twin = rng.choice([names.copy(), copy.copy(names), copy.deepcopy(names)]), set(plain)
                assert isinstance(twin, Names)
                fresh_name(names, base)
                _scan_from_one(plain, base)
                assert fresh_name(twin, base) == _scan_from_one(plain_twin, base)
            assert names == plain and isinstance(names, Names)


def _chain_model() -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_a_deep_chain_wrapped_into_ifs_names_its_branches_as_the_scan_from_one():
    model = _chain_model()
    assert isinstance(all_names(model), Names)
    built = hforms.build(model, "deep-identity-chain+node-in-if-const")
    assert built is not None
    branches = [a.g.name for n in built[0].graph.node if n.op_type == "If" for a in n.attribute]
    plain: set[str] = set()  # every If's then/else graph as the scan from 1 names them, in node order
    expected = [_scan_from_one(plain, which) for _ in range(len(branches) // 2) for which in ("then", "else")]
    assert len(branches) > 2_000 and sorted(branches) == sorted(expected)
    onnx.checker.check_model(built[0])
