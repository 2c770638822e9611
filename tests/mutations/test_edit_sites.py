"""edit_sites, the site loop the in-place rewrites share (passcheck/mutations/_graph_edit.py): only the chosen
nodes are edited, each labelled as it was before its edit, and the constants an edit stopped reading are
removed once nothing reads them (a constant another node still reads stays)."""

from __future__ import annotations

import onnx

from passcheck.cases.builders import parse
from passcheck.mutations._graph_edit import edit_sites

MODEL = """g (float[2, 3] x, float[2, 3] z) => (float[2, 3] y, float[2, 3] w, float[2, 3] v) {
    a = Constant<value = float {0.5}>()
    b = Constant<value = float {2.0}>()
    y = CastLike(x, a)
    w = CastLike(z, b)
    v = Add(x, b)
}"""


def _as_cast(_i: int, n: onnx.NodeProto) -> list[str] | None:
    """CastLike(x, like) → Cast(x, to=FLOAT), freeing ``like``; another node: not a site."""
    if n.op_type != "CastLike":
        return None
    freed = [n.input[1]]
    n.op_type = "Cast"
    del n.input[1:]
    n.attribute.append(onnx.helper.make_attribute("to", onnx.TensorProto.FLOAT))
    return freed


def test_every_site_is_edited_and_the_constants_nothing_reads_go():
    m = parse(MODEL, opset=17)
    assert edit_sites(m.graph, None, _as_cast) == ["#2:CastLike", "#3:CastLike"]  # labels before the edit
    assert [n.op_type for n in m.graph.node] == ["Constant", "Cast", "Cast", "Add"]  # a goes, b is still read
    assert [n.output[0] for n in m.graph.node if n.op_type == "Constant"] == ["b"]
    onnx.checker.check_model(m, full_check=True)


def test_only_the_chosen_sites_are_edited():
    m = parse(MODEL, opset=17)
    assert edit_sites(m.graph, frozenset({"#3:CastLike"}), _as_cast) == ["#3:CastLike"]
    assert [n.op_type for n in m.graph.node] == ["Constant", "Constant", "CastLike", "Cast", "Add"]
    assert edit_sites(m.graph, frozenset({"nowhere"}), _as_cast) == []
    onnx.checker.check_model(m, full_check=True)
