"""The strict data-propagation pass (``onnx:infer-shapes-data-prop-strict``) known wherever its non-strict sibling
is: the coverage catalogue scopes it to onnx's inference and data-propagation entries (not the version converter's,
which an unnamed ``onnx`` pass would count as run), a less-precise finding of it is attributed to the node where the
typing falls behind (real onnx shape inference in the isolation worker), and the hunt's cost table states its
seconds per item."""

from __future__ import annotations

import onnx.parser

from passcheck.coverage import shapes
from passcheck.coverage.entry import Entry, PassScope
from passcheck.mutations.registry import REWRITES

STRICT, SIBLING = "onnx:infer-shapes-data-prop-strict", "onnx:infer-shapes-data-prop"


def test_coverage_scopes_it_to_inference_and_data_propagation():
    converter = Entry("onnx-version-converter", "adapter", "Concat:12->13", ("onnx:convert-opset-up",), "", "")
    entries = [*shapes.catalogue(), converter]
    scope = PassScope(entries)
    for kind in ("inference", "data-propagation"):
        ours = {e.name for e in entries if e.kind == kind and scope.runs(e, STRICT)}
        theirs = {e.name for e in entries if e.kind == kind and scope.runs(e, SIBLING)}
        assert ours == theirs and "Concat@13" in ours, kind
    assert not scope.runs(converter, STRICT)


def test_a_less_precise_finding_is_attributed_to_a_node():
    from passcheck.attribution.dispatch import covered
    from passcheck.attribution.shapes import attribute_precision
    from passcheck.passes.isolation import IsolatedExecutor
    from passcheck.records import Finding

    finding = Finding("less-precise", "parity", "c", "u", STRICT, "y typed [a, 3] where 'common' types [2, 3]", {})
    assert covered(finding)
    a = onnx.parser.parse_model("""
        <ir_version: 8, opset_import: ["" : 17]>
        g (float[2, 3] x) => (float[a, b] y)
        {
            head = Shape <start = 0, end = 1> (x)
            tail = Shape <start = 1> (x)
            c = Concat <axis = 0> (head, tail)
            y = Reshape(x, c)
        }""")
    b, _ = REWRITES["empty-fill-add"].apply(a)  # ConstantOfShape has no data propagator: the head's value is lost
    with IsolatedExecutor() as ex:
        got = attribute_precision(a, b, STRICT, ex)
    assert got.names == ["Reshape node '#6' (output 'y')"], got


def test_the_cost_table_states_its_seconds():
    from passcheck.hunt.cost import TABLE

    assert TABLE.get(STRICT, 0) > 0
