"""Parity behaviours a survivor of ``bench/mutation_score.py`` showed unguarded, on real onnxruntime outputs."""

from __future__ import annotations

from onnx import parser

from passcheck.oracles._context import FormRun
from passcheck.oracles.parity import _behind_defaults, _kept
from passcheck.passes import PassOutcome, get_pass

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


#: Form "constant" folds a chain of Negs of ``k``; form "default" keeps it (``k`` overridable) and has
#: MatMul + Add where the other has Relu, which onnxruntime fuses into Gemm: a new op type on one side.
CHAIN = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3] x{extra}) => (float[2, 3] y)
  <float[3] k = {{1.0, -2.0, 3.0}}, float[3, 3] w = {{1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0}}> {{
  n1 = Neg (k)
{chain}  {tail}
  y = Add (m, n{negs})
}}"""


def _chain(form: str, negs: int, tmp_path) -> FormRun:
    chain = "".join(f"  n{i} = Neg (n{i - 1})\n" for i in range(2, negs + 1))
    default = form == "default"
    tail = "p = MatMul (x, w)\n  m = Add (p, k)" if default else "m = Relu (x)"
    text = CHAIN.format(extra=", float[3] k" if default else "", chain=chain, tail=tail, negs=negs)
    model = parser.parse_model(text)
    (tmp_path / f"{form}{negs}").mkdir()
    out = get_pass("ort:basic").run(model, tmp_path / f"{form}{negs}")
    assert out.ok, out.error
    return FormRun("c", form, "ort:basic", model, out, [], [], [])


def test_a_missed_optimization_message_counts_and_lists_what_each_form_kept(tmp_path):
    """Mutants killed in ``_finding``: ``new_a != new_b`` → ``>`` (the new op types left out when only the
    form that kept ops gained one) and ``len(kept_nodes) > 4`` → ``> 5`` (a fifth kept node not counted)."""
    from passcheck.oracles.parity import _finding

    for negs in (4, 5):
        a, b = _chain("constant", negs, tmp_path), _chain("default", negs, tmp_path)
        assert [n.op_type for n in a.output.graph.node] == ["Relu", "Add"]
        assert [n.op_type for n in b.output.graph.node] == ["Gemm", *["Neg"] * negs, "Add"]
        assert _kept(a, b) == ["Neg"]
        shown = ", ".join(["#1", "#2 after Neg #1", "#3 after Neg #2", "#4 after Neg #3"])
        assert _finding(a, b, ["Neg"]).message == (
            f"ort:basic removed Neg {negs}→0 in 'constant' but {negs}→{negs} in 'default'; "
            f"nodes after: constant 2, default {negs + 2}; new op types: constant none, default ['Gemm']; "
            f"kept in 'default': {shown}" + (", … (5 in all)" if negs == 5 else "")
        )


def test_a_form_with_fewer_nodes_of_a_type_renamed_none_of_them(tmp_path):
    """Mutant killed in ``_kept``: ``bb[op] - ba[op]`` → ``+`` (nodes of a type ``b`` has fewer of counted
    as ``b``'s spelling of ``a``'s other ops, hiding the one ``b`` kept)."""
    # "constant" folds its two Negs; "default" has one Neg, kept, and no Relu
    a, b = _chain("constant", 2, tmp_path), _chain("default", 1, tmp_path)
    assert [n.op_type for n in b.output.graph.node] == ["Gemm", "Neg", "Add"]
    assert _kept(a, b) == ["Neg"]


def _form(form: str, body: str, tmp_path, inputs: str = "float[2, 1] x") -> FormRun:
    text = f"""<ir_version: 8, opset_import: ["" : 18]>
g ({inputs}) => (float[2, 3] y) {{
  c = Constant <value = float[1, 3] {{1, 2, 3}}> ()
  d = Constant <value = float[2, 1] {{4, 5}}> ()
  s = Constant <value = int64[2] {{2, 3}}> ()
  r = Constant <value = int64[2] {{1, 3}}> ()
  q = Constant <value = int64[2] {{2, 1}}> ()
{body}
}}"""
    model = parser.parse_model(text)
    (tmp_path / form).mkdir()
    out = get_pass("ort:basic").run(model, tmp_path / form)
    assert out.ok, out.error
    return FormRun("c", form, "ort:basic", model, out, [], [], [])


def _ops(run: FormRun) -> list[str]:
    return sorted(n.op_type for n in run.output.graph.node)


def test_a_renaming_counts_the_other_types_of_every_name(tmp_path):
    """Mutant killed in ``_kept``: ``o != op`` → ``o > op`` (the types ``a`` writes ``b``'s extra nodes as
    counted only when they sort after ``op``: Expand, written Tile in ``b``, sorts before Tile)."""
    # the constant Tile folds in both; the one reading x stays, as Expand or as Tile (tile-as-expand)
    expanded = _form("expanded", "  t = Tile (c, q)\n  e = Expand (x, s)\n  y = Add (t, e)", tmp_path)
    tiled = _form("tiled", "  t = Tile (c, q)\n  e = Tile (x, r)\n  y = Add (t, e)", tmp_path)
    assert _ops(expanded) == ["Add", "Expand"] and _ops(tiled) == ["Add", "Tile"]
    assert _kept(expanded, tiled) == [] and _kept(tiled, expanded) == []


def test_renamed_nodes_the_pass_folded_leave_no_kept_node_behind(tmp_path):
    """Mutant killed in ``_kept``: ``ab.get(op, 0) > renamed`` → ``!=`` (``b`` keeping fewer nodes of the
    type than its renamed ones made the type kept)."""
    # a writes two Expands of b as Tiles; each form folds its constant Expand and its constant renamed node
    tiles = _form(
        "tiles",
        "  e = Expand (c, s)\n  t = Tile (x, r)\n  u = Tile (d, r)\n  v = Add (e, t)\n  y = Add (v, u)",
        tmp_path,
    )
    expands = _form(
        "expands",
        "  e = Expand (c, s)\n  t = Expand (x, s)\n  u = Expand (d, s)\n  v = Add (e, t)\n  y = Add (v, u)",
        tmp_path,
    )
    assert _ops(tiles) == ["Add", "Add", "Tile"] and _ops(expands) == ["Add", "Add", "Expand"]
    assert _kept(tiles, expands) == []


def test_a_form_that_removed_more_of_a_type_kept_none_of_it(tmp_path):
    """Mutant killed in ``_kept``: ``removed_b < removed_a`` → ``!=`` (a form that removed more nodes of a
    type than the other was said to keep them)."""
    both = "  e = Expand (c, s)\n  f = Expand (d, s)\n  y = Add (e, f)"
    # the same two Expands; in "partly" the second reads a graph input, so only the first folds
    folded = _form("folded", both, tmp_path)
    partly = _form("partly", both.replace("(d, s)", "(dd, s)"), tmp_path, inputs="float[2, 1] x, float[2, 1] dd")
    assert _ops(folded) == [] and _ops(partly) == ["Add", "Expand"]
    assert _kept(partly, folded) == []
    assert _kept(folded, partly) == ["Add", "Expand"]


GEMM = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3] x) => (float[2, 3] y{outputs})
  <float[3, 3] w = {{1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0}}, float[3] b = {{1.0, 2.0, 3.0}}> {{
{body}
}}"""
EINSUM = '  p = Einsum <equation = "ij,jk->ik"> (x, w)\n  y = Sum (p, b)'


def _gemm_forms(bodies, tmp_path, outputs: str = "") -> list[FormRun]:
    runs = []
    for form, body in bodies:
        model = parser.parse_model(GEMM.format(body=body, outputs=outputs))
        (tmp_path / form).mkdir()
        out = get_pass("ort:basic").run(model, tmp_path / form)
        assert out.ok, out.error
        runs.append(FormRun("c", form, "ort:basic", model, out, [], [], [], optimizes=True))
    return runs


def test_forms_rewritten_to_the_same_ops_beside_an_interface_identity_are_alike(tmp_path):
    """Mutants killed in ``_ops``: ``_after(c) - _isolated_identities(...)`` → ``+`` (either form): the
    Identity from graph input x to graph output z, which no pass can remove, counted twice on one side
    made two equal outputs differ."""
    from passcheck.oracles.parity import check

    bodies = (("common", "  y = Gemm (x, w, b)"), ("matmul-add", "  p = MatMul (x, w)\n  y = Add (p, b)"))
    runs = _gemm_forms([(f, "  z = Identity (x)\n" + b) for f, b in bodies], tmp_path, ", float[2, 3] z")
    # onnxruntime fuses MatMul + Add into Gemm (a new op type of that form only)
    assert [sorted(n.op_type for n in r.output.graph.node) for r in runs] == [["Gemm", "Identity"]] * 2
    assert check(runs, frozenset({"ops"})) == []


def test_forms_one_pass_fused_and_the_other_not_were_rewritten_into_different_ops(tmp_path):
    """Mutants killed in ``_ops``: ``new_c != new_f`` → ``<`` and ``_delta(c) != _delta(f)`` → ``<`` (a
    new op type on the common form only, ``['Gemm']`` against none, compares as not less)."""
    from passcheck.oracles.parity import check

    runs = _gemm_forms((("common", "  p = MatMul (x, w)\n  y = Add (p, b)"), ("einsum", EINSUM)), tmp_path)
    # onnxruntime fuses MatMul + Add into Gemm, and leaves Einsum and Sum
    assert [[n.op_type for n in r.output.graph.node] for r in runs] == [["Gemm"], ["Einsum", "Sum"]]
    assert [(f.form, f.kind, f.message) for f in check(runs, frozenset({"ops"}))] == [
        (
            "einsum",
            "missed-optimization",
            "ort:basic rewrote the forms into different ops: new op types: common ['Gemm'], einsum none; "
            "nodes after: common 1, einsum 2",
        )
    ]


def test_an_op_the_pass_wrote_more_of_was_not_expanded():
    """Mutant killed in ``_expansions``: ``ba[op] > aa.get(op, 0)`` → ``!=`` (an op type whose count grew
    counted as inlined, its function body's types excused as expansion). The pass output is written
    here: Softsign's body (Operators.md: Abs, Add, Div) holds the Abs it gained."""
    from passcheck.oracles.parity import _expansions

    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[3] x) => (float[3] y) { y = Softsign (x) }""")
    output = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[3] x) => (float[3] y) { a = Abs (x)  s = Softsign (a)  y = Softsign (s) }""")
    run = FormRun("c", "common", "p", model, PassOutcome("p", "changed", output), [], [], [])
    assert _expansions(run) == set()
    # as many Softsigns as before (kills ``>`` → ``>=``): none was inlined either
    kept = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[3] x) => (float[3] y) { a = Abs (x)  y = Softsign (a) }""")
    assert _expansions(FormRun("c", "common", "p", model, PassOutcome("p", "changed", kept), [], [], [])) == set()


def test_a_constant_node_is_no_op_of_the_count():
    """Mutant killed in ``op_counts``: the loop over ``SPELLINGS`` never run (a Constant node, one spelling
    of a value an initializer also spells, counted as an op: Operators.md Constant)."""
    from collections import Counter

    from passcheck.oracles.parity import op_counts

    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[3] x) => (float[3] y) { c = Constant <value = float[3] {1, 2, 3}> ()  y = Add (x, c) }""")
    assert op_counts(model) == Counter({"Add": 1}) and "Constant" not in op_counts(model)


def test_more_dim_values_are_never_less_precise_than_more_named_dims():
    """Mutant killed in ``less_precise``: ``ra[1] == pb[1]`` → ``<=`` (an annotation with more ``dim_value``
    judged less precise than one with fewer, because the other names more dims)."""
    from onnx import helper

    from passcheck.oracles.parity import less_precise, precision

    valued = precision(helper.make_tensor_type_proto(1, [3, None]))  # [3, ?]
    named = precision(helper.make_tensor_type_proto(1, ["N", "M"]))  # ["N", "M"]
    assert (valued, named) == ((1, 1, 0), (1, 0, 2))
    assert not less_precise(valued, named)
    assert less_precise(named, valued)


def _unchanged(form: str, text: str) -> FormRun:
    """A form whose pass output is ``text``; the form itself has every ``unk__N`` dim unnamed."""
    import re

    model, output = parser.parse_model(re.sub(r"unk__\d+", "?", text)), parser.parse_model(text)
    return FormRun("c", form, "p", model, PassOutcome("p", "changed", output), [], [], [])


def test_a_made_up_dim_name_two_outputs_share_relates_them():
    """Mutant killed in ``fresh_names``: ``k == 1`` → ``>=`` (a tool's ``unk__N`` shared by two graph
    outputs counted as saying no more than an unknown dim; the shared name says the dims are equal)."""
    from passcheck.oracles.parity import fresh_names

    once = _unchanged(
        "once",
        """<ir_version: 8, opset_import: ["" : 18]>
g (float[3] x) => (float[unk__0] y, float[unk__1] z) { y = Relu (x)  z = Neg (x) }""",
    )
    shared = _unchanged(
        "shared",
        """<ir_version: 8, opset_import: ["" : 18]>
g (float[3] x) => (float[unk__0] y, float[unk__0] z, float[unk__1] w) { y = Relu (x)  z = Neg (x)  w = Abs (x) }""",
    )
    assert fresh_names(once) == {"unk__0", "unk__1"}
    assert fresh_names(shared) == {"unk__1"}


def test_outputs_one_form_lacks_or_does_not_type_as_a_tensor_are_skipped():
    """Mutants killed in ``_precision``: ``o.name not in pa or pa[o.name][0] is None`` → ``and`` (a KeyError
    on an output the other form lacks) and ``[0]`` → ``[1]`` (a sequence output compared as a tensor)."""
    from passcheck.oracles.parity import check

    seq = _unchanged(
        "seq",
        """<ir_version: 8, opset_import: ["" : 18]>
g (float[3] x) => (seq(float[3]) y) { y = SequenceConstruct (x) }""",
    )
    tensor = _unchanged(
        "tensor",
        """<ir_version: 8, opset_import: ["" : 18]>
g (float[3] x) => (float[?] y, float[?] z) { y = Relu (x)  z = Neg (x) }""",
    )
    assert check([seq, tensor], frozenset({"precision"})) == []
    assert check([tensor, seq], frozenset({"precision"})) == []
