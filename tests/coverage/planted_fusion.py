"""A planted pass that misbehaves only inside one rule's pattern, loaded with --cases-from by the
coverage-guided hunt test (tests only).

``planted:cast-identity`` does what onnxscript's ``CastIdentity`` rule does (a Cast to the
element type its input already has becomes an Identity), but it rewrites the node in place and
drops only the ``to`` attribute: a Cast spelled with its other attributes written out
(``saturate``, ``round_mode``: the ``explicit-defaults`` spelling) becomes an Identity carrying
attributes Identity does not have, which the checker rejects. Outside the pattern (a Cast to
another type, any other op) it changes nothing. No hand-written case has the pattern; the
generated set does (a Cast whose ``to`` equals its input's elem type).
"""

from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass


def _cast_identity(model):
    types = {v.name: v.type.tensor_type.elem_type for v in model.graph.input}
    types.update({t.name: t.data_type for t in model.graph.initializer})
    for n in model.graph.node:
        to = next((a.i for a in n.attribute if a.name == "to"), None)
        if n.op_type == "Cast" and to is not None and types.get(n.input[0]) == to:
            n.op_type = "Identity"
            kept = [a for a in n.attribute if a.name != "to"]
            del n.attribute[:]
            n.attribute.extend(kept)
    return model


if "planted:cast-identity" not in known_pass_ids():
    _adapter = FunctionAdapter(
        "planted:cast-identity", _cast_identity, doc="test pass: Cast to its own type → Identity"
    )
    _adapter.tools = ("onnxscript",)  # it stands for an onnxscript rewrite: the hunt steers by onnxscript's entries
    register_pass(_adapter)
