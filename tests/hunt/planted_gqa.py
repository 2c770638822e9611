"""A planted pass that repeats Attention's key and value heads the way onnx 1.19.0's function body did, and the
base it is judged on (tests only).

- ``planted:attention-tile-heads``: every 4-D ``Attention(Q, K, V)`` whose ``Q`` declares more heads than ``K``
  (grouped-query attention, Operators.md Attention-23: ``q_num_heads`` a multiple of ``kv_num_heads``) reads
  ``Tile(K, [1, r, 1, 1])`` and ``Tile(V, [1, r, 1, 1])`` instead, ``r`` the ratio. Tile repeats the whole head
  list (``k0 k1 k0 k1``), where the operator gives query head ``h`` the key head ``h // r`` (``k0 k0 k1 k1``):
  right only while the heads are equal (``r`` 1, the pass leaves the node alone) or there is one key head.
  onnx 1.19.0's Attention body (``onnx/defs/nn/defs.cc``) did this; onnx/onnx#7274 (1.19.1, 1.20.0) repeats
  each head instead.

Base ``attention-test/gqa``: ``Y = Attention(Q, K, V)``, Q ``[1, 2, 3, 4]``, K and V ``[1, 2, 5, 4]``, opset 23:
the heads agree, as in the generated Attention bases.
"""

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from passcheck.cases import Case, Form, register
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

PASS_ID = "planted:attention-tile-heads"


def _dims(model, name):
    vi = next((v for v in model.graph.input if v.name == name), None)
    if vi is None:
        return None
    return [d.dim_value for d in vi.type.tensor_type.shape.dim]


def tile_heads(model):
    """Each 4-D Attention reading graph inputs with fewer K heads than Q heads reads K, V tiled (module docs)."""
    new = []
    for n in model.graph.node:
        q, k = _dims(model, n.input[0]), _dims(model, n.input[1])
        if n.op_type == "Attention" and q and k and len(q) == 4 and q[1] > k[1] and q[1] % k[1] == 0:
            reps = f"{n.name}_reps"
            model.graph.initializer.append(numpy_helper.from_array(np.array([1, q[1] // k[1], 1, 1], np.int64), reps))
            for i in (1, 2):
                tiled = f"{n.input[i]}_tiled"
                new.append(helper.make_node("Tile", [n.input[i], reps], [tiled]))
                n.input[i] = tiled
        new.append(n)
    del model.graph.node[:]
    model.graph.node.extend(new)
    return model


if PASS_ID not in known_pass_ids():
    register_pass(FunctionAdapter(PASS_ID, tile_heads, doc="test pass: GQA heads repeated by Tile"))


def base():
    """``Y = Attention(Q, K, V)`` with equal head counts (opset 23, IR 10)."""
    vi = helper.make_tensor_value_info
    graph = helper.make_graph(
        [helper.make_node("Attention", ["Q", "K", "V"], ["Y"], name="attn")],
        "gqa",
        [
            vi("Q", TensorProto.FLOAT, [1, 2, 3, 4]),
            vi("K", TensorProto.FLOAT, [1, 2, 5, 4]),
            vi("V", TensorProto.FLOAT, [1, 2, 5, 4]),
        ],
        [vi("Y", TensorProto.FLOAT, [1, 2, 3, 4])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 23)], ir_version=10)


FORMS = {"common": Form(base), "uncommon": Form(base, "the same model")}
register(Case(id="attention-test/gqa", forms=FORMS, doc="Y = Attention(Q, K, V), equal heads", opset=23))
