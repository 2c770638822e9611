"""initializer-neighbours (IR.md §Graphs: the initializer list's order and length are free): sites, the list order,
the equivalence gate with real onnxruntime and shape inference, where it does not apply, and a planted pass that
unlinks the entry after the initializer it consumes (what onnx 1.16-1.21's converter IR did, `eraseInitializer`
reading a name that aliases the erased entry), caught on the rewritten form and not on the base."""

from __future__ import annotations

import numpy as np
import onnx

from passcheck.cases.builders import tensor
from passcheck.mutations import REWRITES
from passcheck.mutations.subject import mutation_subject

from ._models import assert_sites_gate_and_inverse, named, run_planted

RID = "initializer-neighbours"


def _model(opset: int = 13) -> onnx.ModelProto:
    """y = Add(Mul(x, c), d) with c, d read initializers, an unread one u, and an overridable default b."""
    m = named(
        """g (float[N, 3] x, float[3] b) => (float[N, 3] y) {
        a = Mul(x, c)
        e = Add(a, b)
        y = Add(e, d)
    }""",
        opset=opset,
        initializers=[
            tensor("c", np.array([0.5, -1.5, 2.0], np.float32)),
            tensor("u", np.array([7.0], np.float32)),
            tensor("b", np.zeros(3, np.float32)),
            tensor("d", np.array(1.0, np.float32)),
        ],
    )
    return m


def test_each_read_initializer_gets_a_read_neighbour_right_after_it_and_passes_the_gate():
    assert_sites_gate_and_inverse(RID, _model(), ["c", "d"])
    mutant, _ = REWRITES[RID].apply(_model())
    names = [t.name for t in mutant.graph.initializer]
    assert names == ["c", "c_neighbour", "u", "b", "d", "d_neighbour"], names
    readers = {x: n.op_type for n in mutant.graph.node for x in n.input}
    assert readers["c_neighbour"] == readers["d_neighbour"] == "Expand"
    assert [o.name for o in mutant.graph.output] == ["y"] and mutant.graph.node[-1].output[0] == "y"
    one, applied = REWRITES[RID].apply(_model(), ["d"])
    assert list(applied.nodes) == ["d"] and [t.name for t in one.graph.initializer][-1] == "d_neighbour"


def test_no_site_before_expand_before_ir4_or_without_a_ranked_output():
    assert REWRITES[RID].apply(_model(opset=7)) is None
    old = _model()
    old.ir_version = 3
    assert REWRITES[RID].apply(old) is None
    scalar = named(
        """g (float x) => (float y) {
        y = Mul(x, c)
    }""",
        opset=13,
        initializers=[tensor("c", np.array(2.0, np.float32))],
    )
    assert REWRITES[RID].apply(scalar) is None


def _unlink_next(model: onnx.ModelProto) -> onnx.ModelProto:
    """Planted: each Mul's constant operand c → a Constant node, c erased from the list together with the entry
    that follows it (the slot erase reads the name of whatever moved in)."""
    g = model.graph
    inits = list(g.initializer)
    for n in [n for n in g.node if n.op_type == "Mul"]:
        at = next((i for i, t in enumerate(inits) if t.name == n.input[1]), None)
        if at is None:
            continue
        const = onnx.helper.make_node("Constant", [], [n.input[1]], value=inits[at])
        g.node.insert(0, const)
        del inits[at : at + 2]
    del g.initializer[:]
    g.initializer.extend(inits)
    return model


def test_a_pass_that_unlinks_the_next_entry_is_caught_on_the_neighbour_form_only():
    base = named(
        """g (float[N, 3] x) => (float[N, 3] y) {
        y = Mul(x, c)
    }""",
        opset=13,
        initializers=[tensor("c", np.array([0.5, -1.5, 2.0], np.float32))],
    )
    subject, applied = mutation_subject(base, RID)
    assert RID in applied
    cells = run_planted(subject, "planted:unlink-next", _unlink_next)
    flagged = {c.form for c in cells if c.findings}
    assert RID in flagged and "common" not in flagged, flagged
