"""The scopes an annotation plan names (IR.md §Graphs: subgraphs nest; ``<parent>/<node label>.<attribute>``,
an unnamed node labelled ``op#index``) and which annotations belong to the main graph: behaviours survivors of
``bench/mutation_score.py`` showed unguarded (``passcheck.runtime.plan``), on a model onnx's checker accepts."""

from __future__ import annotations

import onnx
from onnx import parser

from passcheck.runtime.plan import annotations, graph_scopes

#: ``y = If(c)``, whose then-branch holds another If: a subgraph two levels down; every branch annotates a value.
NESTED_IF = """<ir_version: 8, opset_import: ["" : 18]>
g (bool c, float[2] x) => (float[2] y) {
  y = If (c) <
    then_branch = then () => (float[2] t) <float[2] then_v> {
      then_v = Identity (x)
      t = If (c) <
        then_branch = leaf () => (float[2] a) <float[2] leaf_v> { leaf_v = Relu (then_v)  a = Neg (leaf_v) },
        else_branch = other () => (float[2] b) <float[2] other_v> { other_v = Abs (then_v)  b = Neg (other_v) }
      >
    },
    else_branch = els () => (float[2] e) <float[2] else_v> { else_v = Identity (x)  e = Neg (else_v) }
  >
}"""


def _nested_if() -> onnx.ModelProto:
    m = parser.parse_model(NESTED_IF)
    onnx.checker.check_model(m, full_check=True)
    return m


def test_a_subgraph_inside_a_subgraph_is_scoped_under_its_parent():
    """Mutants killed in ``graph_scopes``: ``scope + '/'`` → ``*`` or ``-`` (a subgraph below the main graph's
    made the walk raise)."""
    assert sorted(s for s, _ in graph_scopes(_nested_if())) == [
        "",
        "If#0.else_branch",
        "If#0.then_branch",
        "If#0.then_branch/If#1.else_branch",
        "If#0.then_branch/If#1.then_branch",
    ]


def test_the_main_graphs_annotations_leave_out_every_subgraphs():
    """Mutant killed: ``if not a.scope`` → ``if a.scope`` in ``annotations``: the subgraphs' annotations were
    listed as the main graph's, and the main graph's left out."""
    assert [(name, role) for name, _, role in annotations(_nested_if())] == [
        ("c", "precondition"),
        ("x", "precondition"),
        ("y", "assertion"),
    ]
