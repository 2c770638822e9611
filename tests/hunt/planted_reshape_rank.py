"""A planted pass that takes every Reshape of a computed value for a layout-only step, loaded with --cases-from by
the reshape-rank tests (tests only).

- ``planted:reshape-skip``: every Reshape whose data input is computed (not a constant) → ``Identity`` of that
  input, as a fusion that walks through Reshape nodes without reading their shape does (onnxruntime's
  MatmulBNFusion, ``matmul_bn_fusion.cc`` ``ignorable_nodes``). Right where the Reshape kept every element's index
  on the axes its reader reads (a last dim split into ``(d, 1)``), wrong where it regrouped them.
"""

from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

SKIP_ID = "planted:reshape-skip"


def _skip(model):
    g = model.graph
    static = {t.name for t in g.initializer} | {o for n in g.node if n.op_type == "Constant" for o in n.output}
    for n in g.node:
        if n.op_type == "Reshape" and n.input[0] not in static:
            n.op_type = "Identity"
            del n.input[1:]
            del n.attribute[:]
    return model


if SKIP_ID not in known_pass_ids():
    register_pass(FunctionAdapter(SKIP_ID, _skip, doc="test pass: Reshape(x, s) → x for a computed x"))
