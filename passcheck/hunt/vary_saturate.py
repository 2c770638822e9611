"""A neighbour that narrows a cast to an 8-bit float, with the attribute that acts only there written.

Operators.md Cast-19/21/23/24/25 and CastLike-19/21/23/24/25: the target element type may be a float8 type. Two
attributes act only for some of them:

- ``saturate`` (default 1) "is only used with float 8 types" (``float8e4m3fn``, ``float8e4m3fnuz``, ``float8e5m2``,
  ``float8e5m2fnuz``): a value beyond the target's largest finite value becomes that value (1) or NaN / ±inf by the
  table in the Cast doc (0);
- ``round_mode`` (Cast-24 / CastLike-24 on, default ``"up"``) is "only used for float8e8m0" (a power of two):
  ``"up"``, ``"down"`` or ``"nearest"`` picks the power of two a value between two of them becomes.

So such an attribute changes a result only where the node's target type is one of those and the input holds the
values it decides (beyond the range; between two powers of two). The bases cast float to float, and their feeds
(standard normal) stay within every float8 range, so a pass that replaces, folds, expands or re-spells the node (a
CastLike turned into a Cast, a function body, a folded Cast, a Cast chain merged) and drops or ignores the attribute
never changed a number there.

Form id ``vary:saturate-float8@<node>=<type>,<value>`` (:mod:`.variation`; family ``saturate``): the node, a
default-domain Cast or CastLike whose schema at the model's opset declares the type's attribute and admits ``<type>``
(``tensor(<type>)`` in its output's type constraint), reading a float, float16, double or bfloat16 value ``x``,
becomes:

- for a ``saturate`` type, ``x`` multiplied by :func:`scale` of the type (a power of two at least 4 times the type's
  largest finite value, so every feed ``|x| >= 1/4`` leaves the range; a constant of ``x``'s element type; exact);
  for ``float8e8m0``, ``x`` as it is (a standard normal value is seldom a power of two);
- the target ``<type>``: Cast's ``to``, or CastLike's ``target_type`` input replaced by a new one-element
  initializer of that type (CastLike reads only its element type);
- the type's attribute written ``<value>`` (``saturate`` 0 or 1; ``round_mode`` one of the three);
- the node's output renamed and cast back to the node's former element type under the former name, so every
  reader, graph output and annotation reads the type it read.

Sites: every such node whose input's and output's element types onnx shape inference knows, for each float8 type
whose :func:`scale` the input's type holds (float16's largest value is 65504: the e5m2 types are left out there),
and each value of its attribute. Not equivalent to the base (its own computation); the oracles compare a pass's
output with this model unoptimized.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from passcheck.hunt.value_names import fresh, graph_names

if TYPE_CHECKING:
    import onnx

KIND = "saturate-float8"
KINDS = (KIND,)
#: Ops whose schema carries ``saturate`` for their output type, and where that type is stated: an attribute name
#: or an input index (Operators.md Cast ``to``; CastLike ``target_type``).
TARGET = {"Cast": "to", "CastLike": 1}
#: float8 type name (TensorProto code, as in ``tensor(<name>)``) → its largest finite value (Operators.md Cast,
#: the float8 table; onnx ``numpy_helper`` / ml_dtypes agree).
FLOAT8 = {"float8e4m3fn": (17, 448.0), "float8e4m3fnuz": (18, 240.0), "float8e5m2": (19, 57344.0),
          "float8e5m2fnuz": (20, 57344.0), "float8e8m0": (24, 2.0**127)}  # fmt: skip
#: The attribute that acts only for a float8 type, and its values (Operators.md Cast-19 ``saturate``, Cast-24
#: ``round_mode``).
ATTRIBUTE = {"float8e8m0": ("round_mode", ("up", "down", "nearest"))}
SATURATE = ("saturate", ("0", "1"))
#: Float source types (code → largest finite value): float, float16, double, bfloat16.
SOURCES = {1: 3.4028235e38, 10: 65504.0, 11: 1.7976931348623157e308, 16: 3.3895314e38}


def is_kind(kind: str) -> bool:
    """Whether ``kind`` (without the ``vary:`` prefix) is this module's."""
    return kind in KINDS


def scale(name: str) -> float:
    """The factor of float8 type ``name``: the least power of two >= 4 × its largest finite value (a ``saturate``
    type), or 1 (``float8e8m0``: its attribute reads values inside the range)."""
    import math

    return 1.0 if name in ATTRIBUTE else 2.0 ** math.ceil(math.log2(4 * FLOAT8[name][1]))


def _schema(model: onnx.ModelProto, node: onnx.NodeProto):
    import onnx

    version = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None)
    if version is None or node.domain not in ("", "ai.onnx") or node.op_type not in TARGET:
        return None
    try:
        schema = onnx.defs.get_schema(node.op_type, version, "")
    except onnx.defs.SchemaError:
        return None
    return schema if "saturate" in schema.attributes else None


def _targets(schema) -> list[str]:
    """The float8 types ``schema``'s output type constraint admits and whose attribute it declares."""
    param = schema.outputs[0].type_str
    allowed = next((c.allowed_type_strs for c in schema.type_constraints if c.type_param_str == param), [])
    return [
        name
        for name in FLOAT8
        if f"tensor({name})" in allowed and ATTRIBUTE.get(name, SATURATE)[0] in schema.attributes
    ]


def _site_types(model: onnx.ModelProto, node: onnx.NodeProto, types) -> tuple[int, int] | None:
    """(input element type, output element type) of ``node`` when both are known and the input is a float source."""
    src = types.get(node.input[0]) if node.input else None
    dst = types.get(node.output[0]) if node.output else None
    if src is None or dst is None or src.elem_type not in SOURCES or not dst.elem_type:
        return None
    return src.elem_type, dst.elem_type


def candidates(model: onnx.ModelProto) -> Iterator[tuple[str, str]]:
    """(kind, site) of every narrowing neighbour of ``model`` (module docs); nodes are named as the caller's copy
    is."""
    from passcheck.mutations._shapes import known

    types = None
    for n in model.graph.node:
        schema = _schema(model, n) if n.name else None
        if schema is None:
            continue
        types = known(model) if types is None else types
        pair = _site_types(model, n, types)
        if pair is None:
            continue
        for name in _targets(schema):
            if scale(name) < SOURCES[pair[0]]:
                for value in ATTRIBUTE.get(name, SATURATE)[1]:
                    yield KIND, f"{n.name}={name},{value}"


def build(model: onnx.ModelProto, site: str) -> bool:
    """Narrow ``site``'s node in ``model`` in place (module docs); False when ``site`` is no site of it."""
    import numpy as np
    from onnx import helper, numpy_helper

    from passcheck.mutations._shapes import known

    node_name, _, spec = site.rpartition("=")
    name, _, value = spec.partition(",")
    g = model.graph
    node = next((n for n in g.node if n.name == node_name and n.name), None)
    schema = None if node is None else _schema(model, node)
    if schema is None or name not in _targets(schema) or value not in ATTRIBUTE.get(name, SATURATE)[1]:
        return False
    pair = _site_types(model, node, known(model))
    if pair is None or scale(name) >= SOURCES[pair[0]]:
        return False
    src, former = pair
    code = FLOAT8[name][0]
    taken = graph_names(model)
    factor, scaled = fresh(f"{node.name}__narrow_scale", taken), fresh(f"{node.input[0]}__narrow", taken)
    added = []
    if scale(name) != 1.0:
        arr = np.asarray(scale(name), dtype=helper.tensor_dtype_to_np_dtype(src))
        g.initializer.append(numpy_helper.from_array(arr, factor))
        added.append(helper.make_node("Mul", [node.input[0], factor], [scaled]))
        node.input[0] = scaled
    if TARGET[node.op_type] == "to":
        next(a for a in node.attribute if a.name == "to").i = code
    else:
        like, former_like = fresh(f"{node.name}__narrow_like", taken), node.input[1]
        g.initializer.append(helper.make_tensor(like, code, [1], [1.0]))
        node.input[1] = like
        _drop_unread(model, former_like)
    attr = ATTRIBUTE.get(name, SATURATE)[0]
    for a in list(node.attribute):
        if a.name == attr:
            node.attribute.remove(a)
    node.attribute.append(helper.make_attribute(attr, int(value) if attr == "saturate" else value))
    out = node.output[0]
    narrow = fresh(f"{out}__narrow", taken)
    node.output[0] = narrow
    back = helper.make_node("Cast", [narrow], [out], to=former)
    index = list(g.node).index(node)
    nodes = list(g.node)
    g.ClearField("node")
    g.node.extend([*nodes[:index], *added, nodes[index], back, *nodes[index + 1 :]])
    return True


def _drop_unread(model: onnx.ModelProto, name: str) -> None:
    """Remove initializer ``name`` when no node reads it and it is no graph input or output (the target type a
    CastLike read, now read by nothing; onnxruntime warns of such an initializer and removes it)."""
    g = model.graph
    read = {v for n in g.node for v in n.input} | {v.name for v in [*g.input, *g.output]}
    if name in read:
        return
    kept = [t for t in g.initializer if t.name != name]
    if len(kept) != len(g.initializer):
        g.ClearField("initializer")
        g.initializer.extend(kept)
