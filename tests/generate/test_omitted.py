"""The generated kind ``omitted`` (passcheck/generate/omitted.py): an optional, default-less parameter given
vs left out, kept only where the gate (checker, onnxruntime, the reference evaluator) finds the forms agree;
the symbolic omission annotated with the rank a run on the shared feeds produces."""

from __future__ import annotations

import onnx.defs
import pytest

from passcheck.engine import feeds_for
from passcheck.generate import model as gen_model
from passcheck.generate import recipe
from passcheck.generate.gate import gate
from passcheck.generate.omitted import omitted
from passcheck.generate.pair import Ctx
from passcheck.runtime.session import run_ort


def _judged(op: str, version: int, override: dict | None = None):
    """(pair, built forms, gate verdict) of the ``omitted`` pair of the op's recipe (a domains.json variant)."""
    node = recipe.build_node(onnx.defs.get_schema(op, version), version, override=override)
    pairs = omitted(node, Ctx(version, None))
    assert len(pairs) == 1, [p.detail for p in pairs]
    forms = {f: gen_model.to_model(n, mode) for f, (n, mode, _doc) in pairs[0].forms.items()}
    feeds = feeds_for(forms["common"], f"generated/{op.lower()}-{version}.omitted", [{}, {}])
    return pairs[0], forms, gate(forms, feeds, run_ort)


@pytest.mark.parametrize("version", [11, 13])
def test_squeeze_axes_left_out_is_kept_and_annotated_with_the_run_rank(version):
    # Operators.md Squeeze: no axes = every size-1 dim; the recipe [2, 1, 4] lists axis 1, so the forms agree
    pair, forms, verdict = _judged("Squeeze", version)
    assert (pair.detail, list(pair.forms)) == ("axes", ["common", "omitted", "omitted-symbolic"])
    assert verdict.ok, verdict.detail
    sym = forms["omitted-symbolic"]
    assert [d.dim_param for d in sym.graph.input[0].type.tensor_type.shape.dim] == ["n2", "n1", "n4"]
    assert not any(n.input[1:] for n in sym.graph.node) and not any(n.attribute for n in sym.graph.node)
    # inference cannot tell which symbolic dims are 1: the declared rank is the run's (2), not the
    # rank of a run on feeds synthesized from the symbols (3), which the gate would drop
    assert len(sym.graph.output[0].type.tensor_type.shape.dim) == 2
    onnx.checker.check_model(sym, full_check=True)


def test_split_sizes_other_than_equal_parts_are_dropped_equal_parts_kept():
    # Operators.md Split-13: no split = equal parts; the recipe's [1, 3] is not that, its variant [2, 2] is
    _, _, unequal = _judged("Split", 13)
    assert not unequal.ok and unequal.reason, unequal
    variant = recipe.table_row(onnx.defs.get_schema("Split", 13))["variants"]["equal-parts"]
    pair, forms, verdict = _judged("Split", 13, variant)
    assert pair.detail == "split" and verdict.ok, verdict.detail
    assert [len(n.input) for n in forms["omitted"].graph.node] == [1]


def test_the_generated_set_holds_the_omissions(tmp_path, monkeypatch):
    from passcheck.generate import index

    monkeypatch.setenv("PASSCHECK_CACHE", str(tmp_path))
    doc = index(ops=["Squeeze", "Split"], quiet=True)
    ids = {c["id"] for c in doc["cases"]}
    kept = ("squeeze-11.omitted.axes", "squeeze-13.omitted.axes", "split-13.omitted.split.equal-parts")
    assert {f"generated/{k}" for k in kept} <= ids
    assert "generated/split-13.omitted.split" not in ids  # [1, 3] is not what the omission means
    # counted as "does not apply", not as a generator bug (those must stay rare)
    dropped = {k for per_op in doc["stats"]["dropped"].values() for k in per_op}
    assert "n/a|the given value is not what its omission means" in dropped
    assert not any(k.startswith("passcheck|forms differ") for k in dropped)
