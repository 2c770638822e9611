"""The spelling kind ``omitted``: an optional parameter the schema gives no default, given vs left out.

onnx.defs marks such a parameter optional (an input with ``FormalParameterOption.Optional``, an attribute
with ``required`` false) without a ``default_value``: its omission means what the operator's prose says
(Operators.md: Squeeze-1/11/13 "If axes is not provided, all the single dimensions will be removed",
Split-2/11/13 "If not specified, the tensor is split to equal sized parts", Transpose "reverse the
dimensions", …), which no schema field states. So the pair is offered for every such parameter the node
gives, and the generator's gate (checker, onnxruntime, the reference evaluator, forms agree) keeps only
those where the node's value is what the omission means: Squeeze listing exactly the size-1 dims, Split
sizes that are equal parts. Where that meaning is read off the input's dims, a tool has to decide it from
the dims it is told, so the omission is also written with the graph input dims symbolic (dim_param; the
feeds stay the static form's).

Where the domain table states what the omission means (``defaults``, from the operator's prose) and the
node gives that value, the forms are alike by the spec (:attr:`Pair.alike`). A control-flow op's
parameter is offered only then: Loop's ``cond`` with ``M`` given (Operators.md Loop, "input
(trip_count, "")": a for loop of ``M`` iterations, as ``cond`` true with a body returning its ``cond``);
leaving out ``M`` leaves the loop to its body's condition.
"""

from __future__ import annotations

import numpy as np
import onnx
import onnx.defs

from passcheck.generate.pair import Ctx, Pair
from passcheck.generate.recipe import NO_VALUE, Input, Node, table_row

_OPTIONAL = onnx.defs.OpSchema.FormalParameterOption.Optional
A = onnx.AttributeProto


def _without(node: Node, name: str) -> Node | None:
    """``node`` with the parameter ``name`` left out: an attribute dropped, a trailing input removed,
    another input written as the empty name ``""``; None when the node does not give it."""
    out = node.copy()
    if name in out.attrs:
        out.attrs.pop(name)
        return out
    k = next((j for j, i in enumerate(out.inputs) if i.name == name and not i.empty), None)
    if k is None:
        return None
    if k == len(out.inputs) - 1:
        out.inputs.pop()
        while out.inputs and out.inputs[-1].empty:
            out.inputs.pop()
    else:
        out.inputs[k] = Input("", onnx.TensorProto.FLOAT, (), empty=True)
    return out


def omitted(node: Node, ctx: Ctx) -> list[Pair]:
    """One pair per optional, default-less parameter the node gives: forms ``common`` (given),
    ``omitted`` (left out) and ``omitted-symbolic`` (left out, graph input dims as dim_param)."""
    s = node.schema
    if s.name.startswith("Reduce"):  # their omitted axes (all axes) are the axes kind's "all" pair
        return []
    stated = table_row(s).get("defaults", {})
    names = [f.name for f in s.inputs if f.option == _OPTIONAL]
    if any(a.type in (A.GRAPH, A.GRAPHS) for a in s.attributes.values()):
        names = [n for n in names if n in stated]  # control flow: only an omission the table states
    # a seed left out means "one the runtime picks": the forms can never agree, so none is offered
    names += [
        a.name for a in s.attributes.values() if not a.required and a.default_value.type == 0 and a.name != "seed"
    ]
    out = []
    for name in names:
        if node.attrs.get(name) is NO_VALUE:  # the attr-no-value kind's spelling, not a given value
            continue
        none = _without(node, name)
        if none is None:
            continue
        forms = {
            "common": (node, "static", ""),
            "omitted": (none, "static", f"{name} left out (what the operator's prose says its omission means)"),
            "omitted-symbolic": (none, "symbolic", f"{name} left out, graph input dims as dim_param"),
        }
        given = next((i.value for i in node.inputs if i.name == name and not i.empty), node.attrs.get(name))
        alike = name in stated and given is not None and np.array_equal(np.asarray(given), np.asarray(stated[name]))
        out.append(Pair("omitted", name.lower().replace("_", "-"), forms, f"{name} given vs omitted", alike))
    return out
