"""Parity behaviours a survivor of ``bench/mutation_score.py`` showed unguarded, on real onnxruntime outputs."""

from __future__ import annotations

from onnx import parser

from passcheck.oracles._context import FormRun
from passcheck.oracles.parity import _behind_defaults, _kept
from passcheck.passes import get_pass

#: ``k`` a constant (``extra`` empty) or an overridable default (``extra`` = ", float[3] k": a graph input
#: with an initializer, IR.md §Graphs); Abs and Relu read only ``x``, linked to Neg by Add alone.
DEFAULT = """<ir_version: 8, opset_import: ["" : 18]>
g (float[3] x{extra}) => (float[3] y) <float[3] k = {{1.0, -2.0, 3.0}}> {{
  n = Neg (k)
  a = Abs (x)
  r = Relu (a)
  s = Add (r, n)
  y = Mul (s, x)
}}"""


def _run(form: str, extra: str, tmp_path) -> FormRun:
    model = parser.parse_model(DEFAULT.format(extra=extra))
    (tmp_path / form).mkdir()
    out = get_pass("ort:basic").run(model, tmp_path / form)
    assert out.ok, out.error
    return FormRun("c", form, "ort:basic", model, out, [], [], [])


def test_only_the_op_types_whose_every_kept_node_reads_a_default_are_excused(tmp_path):
    """Mutants killed in ``_behind_defaults``: ``values & {...}`` → ``|`` (every kept node counted as
    linked to the default once one is) and ``op_key(n) == op`` → ``!=``, ``>=``, ``<=`` (an op type
    judged by the nodes of other types)."""
    constant, default = _run("constant", "", tmp_path), _run("default", ", float[3] k", tmp_path)
    # onnxruntime folds Neg(k) only where k is a constant
    assert [n.op_type for n in constant.output.graph.node] == ["Abs", "Relu", "Add", "Mul"]
    assert [n.op_type for n in default.output.graph.node] == ["Neg", "Abs", "Relu", "Add", "Mul"]
    assert _kept(constant, default) == ["Neg"]
    assert _behind_defaults(["Neg"], default, constant) == {"Neg"}
    # had the pass also kept Abs and Relu (sorting on either side of Neg), they read no default and link to
    # Neg through no kept node: they stay a missed optimization
    assert _behind_defaults(["Abs", "Neg", "Relu"], default, constant) == {"Neg"}
    assert _behind_defaults(["Abs", "Relu"], default, constant) == set()


def test_the_casts_onnxruntime_inserts_leave_no_cast_op_type_behind(tmp_path):
    """Mutant killed: ``counts["Cast"] <= 0`` → ``< 0`` in ``_after``: the inserted Casts subtracted, a
    ``Cast: 0`` entry stayed, and parity reads ``set(_after(...))`` as the op types the pass output holds
    (``_kept``: "only eliminated nodes"; ``_expanded``; a finding's new op types)."""
    from passcheck.oracles.ort_own_ops import ORT_INSERTED_CAST
    from passcheck.oracles.parity import _after

    # Sin has no float16 CPU kernel: onnxruntime casts its input and output (InsertCastTransformer)
    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float16[3] h) => (float16[3] y) { y = Sin (h) }""")
    out = get_pass("ort:basic").run(model, tmp_path)
    assert [n.op_type for n in out.model.graph.node] == ["Cast", "Sin", "Cast"]
    assert all(n.name.startswith(ORT_INSERTED_CAST) for n in out.model.graph.node if n.op_type == "Cast")
    assert set(_after(FormRun("c", "common", "ort:basic", model, out, [], [], []))) == {"Sin"}


def test_an_op_its_opset_does_not_define_has_no_function_body():
    """Mutant killed: ``except onnx.defs.SchemaError`` → another class in ``_body`` (the lookup of an op
    type the form's opset lacks raised out of parity instead of saying "no body")."""
    from passcheck.oracles.parity import _body

    # Gelu is ai.onnx from opset 20 (Operators.md); MeanVarianceNormalization has a function body at 18
    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[1, 2, 3] x) => (float[1, 2, 3] y) { y = MeanVarianceNormalization (x) }""")
    run = FormRun("c", "common", "input", model, None, [], [], [])
    assert _body("Gelu", run) is None
    assert {"ReduceMean", "Sqrt", "Div"} <= _body("MeanVarianceNormalization", run)
