"""Structural neighbours of a base: an intermediate value that is also a graph output, or read once more; a node's
inputs read once more by a copy of it; a graph input also returned, through an Identity; a float initializer read
by one more node.

ONNX IR.md ("Graphs", "Nodes") lets a value be both a graph output and read by nodes, and be read by any
number of nodes. A fusion or elimination that removes the node producing a value, or merges it into its
reader, is only right when no one else needs that value: onnxruntime states it in its own sources
(``graph_utils::CanRemoveNode``, ``!graph.NodeProducesGraphOutput(node)``, ``GetOutputEdgesCount() == 1``,
``optimizer_utils::CheckOutputEdges``), onnxscript's rewriter checks the uses of the nodes it removes. A pass
that forgets it drops a graph output or computes it wrong (the numeric oracle: ``graph output … is missing``
or a wrong value), or stops fusing where it still could.

Form ids use the variation grammar ``vary:<kind>@<site>`` (:mod:`.variation`), site: the value's name:

==============  ==========================================================================================
kind            change
==============  ==========================================================================================
``expose``      the value also becomes a graph output (its type as onnx shape inference infers it: element
                type and shape, or the element type alone)
``fanout``      one more node reads it, a unary op whose result (``<value>__fanout``) is a new graph output:
                the first of :data:`READERS` whose schema at the model's opset accepts the value's element
                type and that runs on onnxruntime's CPU provider (a kernel, or a float16 input cast around a
                float one: :func:`passcheck.runtime.kernels.node_runs_on_cpu`, as the generator asks);
                none of them is a no-op a pass may remove (Neg, Not, BitwiseNot of their types; Abs last, for
                the unsigned types where only it applies)
``fanout-copy`` site: a node's first output. A copy of that node (same op, domain, inputs, attributes) is appended,
                its outputs ``<output>__copy`` new graph outputs; named ``<name>__copy`` when the node is
                named, unnamed when it is not (IR.md "Nodes": a node name is optional). Every value the node
                reads is then read twice by the same op type, the shape a pass that keys what it inserts
                per reader (a Cast per blocked node's input, named after the value or the node) must survive
``expose-input`` site: a graph input. ``Identity(input)`` writes a new graph output ``<input>__passthrough``: the
                input is also returned unchanged, as exporters write a pass-through output (IR.md "Graphs": a
                graph output is a node's output; Operators.md Identity). A pass that erases the Identity by
                rewiring its readers to the input (an elimination of Identity / Dropout / a neutral op) must
                keep a producer for that graph output
==============  ==========================================================================================

``fanout-initializer`` (site: a float initializer one node reads): one more node reads it (the ``fanout`` reader of
its element type), its result ``<initializer>__fanout`` a new graph output. IR.md ("Graphs": an initializer is a
value with a default; a value may be read by any number of nodes) lets one weight feed many nodes, as tied
embeddings and shared projections do. A pass that re-lays out, refolds or requantizes a weight for the node it
rewrites in place (onnxruntime's quantizer up to 1.28, ``ONNXModel.__replace_gemm_with_matmul``: "assume B is not
used by any other node", the transposed B written under B's own name) changes it for every other reader: the
numeric oracle sees the new output wrong, or onnxruntime rejects the other reader.

``fanout-initializer`` sites are the main-graph initializers of a float element type (float, float16, double: the
weights a pass re-lays out or folds; an integer constant is an axes, shape or index input, whose values the op's
schema reads) with at least one element, no graph input of the same name (an overridable input is another spelling)
and exactly one reader among the main-graph nodes.

``expose-input`` sites are the main-graph inputs with no initializer of the same name whose tensor element type is
known and not bfloat16. ``fanout-copy`` sites are the main-graph nodes (a Constant's left out) holding no graph
attribute, every output of which has a known element type other than bfloat16. The other kinds' sites are main-graph
node outputs (a Constant's left out) that are no graph output, that exactly one node reads (the edges a fusion
joins: the producer of a fused pair has one output edge) and whose element type is known and not bfloat16 (no numpy
type for it in onnxruntime's binding: the output could not be fetched). Every other graph output keeps its name and
place: the new one is appended, so the base's outputs are compared as before and the new one against the unoptimized
neighbour like any output.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from passcheck.hunt.value_names import fresh, graph_names

if TYPE_CHECKING:
    import onnx

COPY = "fanout-copy"
PASSTHROUGH = "expose-input"
INITIALIZER = "fanout-initializer"
KINDS = ("expose", "fanout", COPY, PASSTHROUGH, INITIALIZER)
COPY_SUFFIX = "__copy"
PASSTHROUGH_SUFFIX = "__passthrough"
#: Unary readers of ``fanout``, in the order tried (see module docs).
READERS = ("Neg", "Not", "BitwiseNot", "Abs")
SUFFIX = "__fanout"
#: onnxruntime's Python binding has no numpy type for a bfloat16 graph output (as for elem neighbours).
BFLOAT16 = 16


def is_structural(kind: str) -> bool:
    """Whether ``kind`` (without the ``vary:`` prefix) is one of this module's."""
    return kind in KINDS


def candidates(model: onnx.ModelProto, types: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(kind, site) of every structural neighbour of ``model`` (see module docs); ``types``: value name →
    TypeProto (inferred)."""
    for value in sites(model, types):
        yield "expose", value
        if _reader(model, types[value].tensor_type.elem_type) is not None:
            yield "fanout", value
    for node in copy_sites(model, types):
        yield COPY, node.output[0]
    for x in input_sites(model):
        yield PASSTHROUGH, x.name
    for name in initializer_sites(model):
        yield INITIALIZER, name


#: Float element types of ``fanout-initializer`` sites: FLOAT, FLOAT16, DOUBLE (bfloat16: see :data:`BFLOAT16`).
WEIGHT_TYPES = (1, 10, 11)


def initializer_sites(model: onnx.ModelProto) -> list[str]:
    """The initializers ``fanout-initializer`` may give one more reader (see module docs), in initializer order."""
    inputs = {x.name for x in model.graph.input}
    readers = _readers(model)
    out = []
    for t in model.graph.initializer:
        size = 1
        for d in t.dims:
            size *= d
        if t.name in inputs or readers.get(t.name) != 1 or t.data_type not in WEIGHT_TYPES or size < 1:
            continue
        if _reader(model, t.data_type) is not None:
            out.append(t.name)
    return out


def input_sites(model: onnx.ModelProto) -> list:
    """The graph inputs (ValueInfoProto) ``expose-input`` may return unchanged (see module docs), in input order."""
    inits = {t.name for t in model.graph.initializer}
    return [x for x in model.graph.input if x.name not in inits and _elem(x.type) not in (0, BFLOAT16)]


def copy_sites(model: onnx.ModelProto, types: Mapping[str, Any]) -> list:
    """The nodes ``fanout-copy`` may copy (see module docs), in node order."""
    out = []
    for n in model.graph.node:
        if n.op_type == "Constant" and n.domain in ("", "ai.onnx"):
            continue
        if any(a.HasField("g") or len(a.graphs) for a in n.attribute) or not n.output or not n.output[0]:
            continue
        outs = [o for o in n.output if o]
        if all(o in types and _elem(types[o]) not in (0, BFLOAT16) for o in outs):
            out.append(n)
    return out


def sites(model: onnx.ModelProto, types: Mapping[str, Any]) -> list[str]:
    """The values a structural kind may name in ``model``, in node order (see module docs)."""
    outputs = {o.name for o in model.graph.output}
    readers = _readers(model)
    out = []
    for n in model.graph.node:
        if n.op_type == "Constant" and n.domain in ("", "ai.onnx"):
            continue
        for v in n.output:
            t = types.get(v)
            if v and v not in outputs and readers.get(v) == 1 and t is not None and _elem(t) not in (0, BFLOAT16):
                out.append(v)
    return out


def build(model: onnx.ModelProto, kind: str, site: str, types: Mapping[str, Any]) -> bool:
    """Change ``model`` in place as ``kind@site`` says; False when ``site`` is no site of it (see :func:`sites`)
    or no reader fits its element type."""
    from onnx import helper

    if kind == COPY:
        return _copy(model, site, types)
    if kind == PASSTHROUGH:
        return _passthrough(model, site)
    if kind == INITIALIZER:
        return _fanout_initializer(model, site)
    if site not in sites(model, types):
        return False
    t = types[site]
    if kind == "expose":
        keep = [vi for vi in model.graph.value_info if vi.name != site]
        del model.graph.value_info[:]
        model.graph.value_info.extend(keep)
        model.graph.output.append(helper.make_value_info(site, t))
        return True
    op = _reader(model, t.tensor_type.elem_type)
    if kind != "fanout" or op is None:
        return False
    taken = graph_names(model)
    out = fresh(f"{site}{SUFFIX}", taken)
    node = helper.make_node(op, [site], [out], name=fresh(f"{op}{SUFFIX}_{site}", taken))
    model.graph.node.append(node)
    model.graph.output.append(helper.make_value_info(out, t))
    return True


def _copy(model: onnx.ModelProto, site: str, types: Mapping[str, Any]) -> bool:
    from onnx import helper

    node = next((n for n in copy_sites(model, types) if n.output[0] == site), None)
    if node is None:
        return False
    taken = graph_names(model)
    copy = model.graph.node.add()
    copy.CopyFrom(node)
    copy.name = fresh(f"{node.name}{COPY_SUFFIX}", taken) if node.name else ""
    for i, o in enumerate(node.output):
        if o:
            copy.output[i] = fresh(f"{o}{COPY_SUFFIX}", taken)
            model.graph.output.append(helper.make_value_info(copy.output[i], types[o]))
    return True


def _fanout_initializer(model: onnx.ModelProto, site: str) -> bool:
    from onnx import helper

    if site not in initializer_sites(model):
        return False
    t = next(t for t in model.graph.initializer if t.name == site)
    op = _reader(model, t.data_type)
    taken = graph_names(model)
    out = fresh(f"{site}{SUFFIX}", taken)
    model.graph.node.append(helper.make_node(op, [site], [out], name=fresh(f"{op}{SUFFIX}_{site}", taken)))
    model.graph.output.append(helper.make_tensor_value_info(out, t.data_type, list(t.dims)))
    return True


def _passthrough(model: onnx.ModelProto, site: str) -> bool:
    from onnx import helper

    x = next((x for x in input_sites(model) if x.name == site), None)
    if x is None:
        return False
    taken = graph_names(model)
    out = fresh(f"{site}{PASSTHROUGH_SUFFIX}", taken)
    model.graph.node.append(helper.make_node("Identity", [site], [out], name=fresh(f"Identity_{out}", taken)))
    model.graph.output.append(helper.make_value_info(out, x.type))
    return True


def added(form_kind: str, site: str, base: onnx.ModelProto | None = None) -> int:
    """How many graph outputs the neighbour ``form_kind@site`` appends (0 for other kinds): one, or for
    ``fanout-copy`` one per output of the node copied (read from ``base``)."""
    if form_kind == COPY and site:
        node = next((n for n in base.graph.node if n.output and n.output[0] == site), None) if base else None
        return sum(1 for o in node.output if o) if node is not None else 0
    return 1 if is_structural(form_kind) and site else 0


def _readers(model: onnx.ModelProto) -> dict[str, int]:
    """Value name → how many main-graph nodes read it (a node reading it twice counts once)."""
    readers: dict[str, int] = {}
    for n in model.graph.node:
        for v in dict.fromkeys(n.input):
            readers[v] = readers.get(v, 0) + 1
    return readers


def _elem(t) -> int:
    return t.tensor_type.elem_type if t.HasField("tensor_type") else 0


def _reader(model, elem: int) -> str | None:
    """The first of :data:`READERS` whose schema at ``model``'s opset accepts ``elem`` and that runs on onnxruntime's
    CPU provider (:func:`passcheck.runtime.kernels.node_runs_on_cpu`: a kernel, or a float16 input cast around a float
    one, as the generator and the rewrites ask, M263)."""
    import onnx
    from onnx import helper

    from passcheck.runtime.kernels import node_runs_on_cpu
    from passcheck.typestr import schema_type

    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 0)
    for op in READERS:
        try:
            schema = onnx.defs.get_schema(op, opset, "")
        except Exception:  # noqa: BLE001 - no such op at this opset
            continue
        if not any(schema_type(elem) in c.allowed_type_strs for c in schema.type_constraints):
            continue
        if node_runs_on_cpu(helper.make_node(op, ["x"], ["y"]), schema, lambda _v: elem):
            return op
    return None
