"""Recipes that used to build invalid models or none (issue 26): BatchNormalization (inference and
training mode, its optional running-statistics outputs), sequence and optional ops, Loop with its
body. ``generate --stats`` shows them built, passcheck's own drops named and under 2% of the pairs
attempted, and a schema before opset 7 kept as a reference-only base, never a case."""

from __future__ import annotations

import json

import onnx
import pytest

from passcheck.cli import main
from tests._shared import built_once

OPS = [
    "BatchNormalization",
    "SequenceInsert",
    "SplitToSequence",
    "ConcatFromSequence",
    "OptionalGetElement",
    "Loop",
    "Relu",
]


def _generate(folder):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PASSCHECK_CACHE", str(folder / "cache"))
        args = ["generate", "--stats", "--json", str(folder / "s.json")] + [a for op in OPS for a in ("--op", op)]
        return main(args)


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """(``generate --stats`` JSON, id → case, reference-only bases) of one generation of OPS per test run
    (tests/_shared.py), not one per xdist worker; the cases read the shared cache, which no test writes."""
    folder, code = built_once(tmp_path_factory, "generate-containers", _generate)
    assert code == 0
    mp = pytest.MonkeyPatch()
    mp.setenv("PASSCHECK_CACHE", str(folder / "cache"))
    from passcheck.generate import cases, index

    doc = index(ops=OPS, quiet=True)
    yield json.loads((folder / "s.json").read_text()), {c.id: c for c in cases(doc)}, cases(doc, reference_only=True)
    mp.undo()


def test_stats_show_batchnorm_sequence_and_optional_ops_built(generated):
    stats, _cases, _ref = generated
    for op in OPS:
        assert stats["stats"]["built"].get(op, 0) > 0, (op, stats["stats"]["dropped"].get(op))


def test_passcheck_own_drops_are_named_and_rare(generated):
    stats, _cases, _ref = generated
    built = sum(stats["stats"]["built"].values())
    dropped = {k: n for per_op in stats["stats"]["dropped"].values() for k, n in per_op.items()}
    own = {k: n for k, n in dropped.items() if k.startswith("passcheck|")}
    assert all(k.split("|", 1)[1].strip() for k in own)  # each carries its reason
    attempted = built + sum(stats["stats"]["reference_only"].values()) + sum(dropped.values())
    assert sum(own.values()) < 0.02 * attempted, own


def test_training_mode_batchnorm_returns_its_running_statistics(generated):
    _stats, cases, _ref = generated
    case = cases["generated/batchnormalization-15.shape.training-mode"]
    model = case.build("common")
    onnx.checker.check_model(model, full_check=True)
    node = next(n for n in model.graph.node if n.op_type == "BatchNormalization")
    assert list(node.output) == ["Y", "running_mean", "running_var"]
    assert next(a.i for a in node.attribute if a.name == "training_mode") == 1


def test_sequence_and_optional_values_have_their_declared_types(generated):
    _stats, cases, _ref = generated
    split = cases["generated/splittosequence-11.shape"].build("common")
    assert split.graph.output[0].type.HasField("sequence_type")
    insert = cases["generated/sequenceinsert-11.shape"].build("common")
    assert [n.op_type for n in insert.graph.node] == ["SequenceConstruct", "SequenceInsert"]
    assert all(i.type.HasField("tensor_type") for i in insert.graph.input)  # feeds stay tensors
    get = cases["generated/optionalgetelement-18.shape"].build("common")
    assert [n.op_type for n in get.graph.node] == ["Optional", "OptionalGetElement"]
    for m in (split, insert, get):
        onnx.checker.check_model(m, full_check=True)


def test_schemas_before_opset_7_are_reference_only_bases_never_cases(generated):
    import numpy as np

    from passcheck.runtime.reference import run_reference
    from passcheck.runtime.session import run_ort

    _stats, cases, reference_only = generated
    relu1 = next(c for c in reference_only if c.id == "generated/relu-1.shape")
    assert not any(c.startswith("generated/relu-1.") for c in cases)
    model = relu1.build("common")
    assert model.opset_import[0].version < 7
    onnx.checker.check_model(model, full_check=True)
    feeds = {"X": np.linspace(-1, 1, 24, dtype=np.float32).reshape(2, 3, 4)}
    assert "NOT_IMPLEMENTED" in run_ort(model, feeds).error  # why it is no case
    assert np.array_equal(run_reference(model, feeds).outputs["Y"], np.maximum(feeds["X"], 0))


def test_elem_names_kept_per_constraint_list_equal_the_spelled_out_reading_and_are_the_caller_s_own():
    """M410: :func:`~passcheck.generate.containers.elem_names` is kept per (type strings, wrap) — loading the case
    library asked it 13,506 times — and gives, for every type constraint of every schema onnx ships and every wrap,
    the element types IR.md's type strings spell (``tensor(T)``, ``seq(tensor(T))``, …); each call returns a set of
    its own, so a caller that edits it changes no later answer."""
    import onnx.defs

    from passcheck.generate import containers

    lists = {tuple(c.allowed_type_strs) for s in onnx.defs.get_all_schemas_with_history() for c in s.type_constraints}
    for strs in lists:
        for wrap, pattern in containers.PATTERNS.items():
            head, tail = pattern.split("{}")
            spelled = {s[len(head) : len(s) - len(tail)] for s in strs if s.startswith(head) and s.endswith(tail)}
            assert containers.elem_names(list(strs), wrap) == {t for t in spelled if "(" not in t}, (strs, wrap)
    mine = containers.elem_names(["tensor(float)", "tensor(int64)"], "")
    mine.clear()
    assert containers.elem_names(["tensor(float)", "tensor(int64)"], "") == {"float", "int64"}
