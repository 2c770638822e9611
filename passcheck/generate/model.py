"""A generated :class:`~passcheck.generate.recipe.Node` as a model: graph inputs (tensors fed at
random; bfloat16 fed as float and Cast inside; sequences and optionals built in the graph,
:mod:`.containers`), constants spelled as initializers, Constant nodes or computed, and graph
outputs annotated with what onnx shape inference gives them (the checker requires a shape field).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import onnx
import onnx.helper

from passcheck.generate import containers
from passcheck.generate.recipe import BF16, NO_VALUE, Input, Node, _param_of, elem_type, np_dtype, table_row


def _attribute(name: str, value: Any, atype: int) -> onnx.AttributeProto:
    if value == NO_VALUE:
        return onnx.AttributeProto(name=name, type=atype)
    if atype == onnx.AttributeProto.FLOAT:
        value = float(value)
    elif atype == onnx.AttributeProto.FLOATS:
        value = [float(v) for v in value]
    elif atype == onnx.AttributeProto.TENSOR:
        arr = np.asarray(value["value"], dtype=value.get("dtype", "float32"))
        return onnx.helper.make_attribute(name, onnx.numpy_helper.from_array(arr))
    elif atype == onnx.AttributeProto.SPARSE_TENSOR:  # every element stored, at linearized indices (onnx.proto)
        arr = np.asarray(value["value"], dtype=value.get("dtype", "float32"))
        values = onnx.numpy_helper.from_array(arr.ravel(), name + "_values")
        indices = onnx.numpy_helper.from_array(np.arange(arr.size, dtype=np.int64), name + "_indices")
        return onnx.helper.make_attribute(name, onnx.helper.make_sparse_tensor(values, indices, list(arr.shape)))
    a = onnx.helper.make_attribute(name, value, attr_type=atype) if atype else onnx.helper.make_attribute(name, value)
    return a


def to_model(
    node: Node, shapes: str = "static", infer: Callable[[onnx.ModelProto], onnx.ModelProto] | None = None
) -> onnx.ModelProto:
    """A one-node model. ``shapes``: ``static`` | ``symbolic`` (dims ``d0``…) | ``anonymous`` on graph inputs.

    Output annotations carry the elem_type only (their shape is left to the tools). ``infer`` runs
    onnx shape inference for the output shapes (default :func:`infer_shapes`, in this process; the
    generator runs it in its isolation worker, where a tool that crashes, as onnx 1.18.0's
    Einsum-12 inference segfaults, costs one form instead of the whole set).
    """
    import onnx.numpy_helper

    from passcheck._versions import ir_version_for

    nodes, inits, graph_inputs, names = [], [], [], []
    spelled = shapes in ("expand", "unsqueeze")
    data = [i for i in node.inputs if i.value is None and not i.empty and not i.wrap]
    for i in node.inputs:
        if i.empty:
            names.append("")
            continue
        names.append(i.name)
        if i.value is None:
            if shapes == "static":
                dims = list(i.shape)
            elif shapes == "symbolic":
                # one symbol per size: dims that are equal in the static form share a symbol, so
                # every input annotation holds on the feeds (synthesized from the static form)
                dims = [f"n{d}" if d else 0 for d in i.shape]
            else:
                dims = [None if d else 0 for d in i.shape]
            if i.wrap:  # a sequence or optional: built in the graph from tensor graph inputs
                vis, made = containers.build_input(i.name, i.elem, i.wrap, dims if not spelled else list(i.shape))
                graph_inputs += vis
                nodes += made
                continue
            if i.elem == BF16:  # onnxruntime's Python API takes no bfloat16 arrays: feed float, Cast inside
                graph_inputs.append(
                    onnx.helper.make_tensor_value_info(
                        i.name, onnx.TensorProto.FLOAT, dims if not spelled else list(i.shape)
                    )
                )
                nodes.append(onnx.helper.make_node("Cast", [i.name], [i.name + "_bf16"], to=BF16))
                names[-1] = i.name + "_bf16"
            else:
                graph_inputs.append(
                    onnx.helper.make_tensor_value_info(i.name, i.elem, dims if not spelled else list(i.shape))
                )
            if spelled and i is data[-1]:
                names[-1] = i.name + "_b"
                if shapes == "expand":
                    full = onnx.numpy_helper.from_array(np.asarray(data[0].shape, np.int64), i.name + "_shape")
                    inits.append(full)
                    nodes.append(onnx.helper.make_node("Expand", [_src(i), full.name], [names[-1]]))
                else:
                    ax = onnx.numpy_helper.from_array(
                        np.arange(len(data[0].shape) - len(i.shape), dtype=np.int64), i.name + "_axes"
                    )
                    inits.append(ax)
                    nodes.append(onnx.helper.make_node("Unsqueeze", [_src(i), ax.name], [names[-1]]))
            continue
        arr = np.asarray(i.value, dtype=np_dtype(i.elem))
        t = onnx.numpy_helper.from_array(arr, i.name)
        if i.mode == "initializer":
            inits.append(t)
        elif i.mode == "constant":
            nodes.append(onnx.helper.make_node("Constant", [], [i.name], value=t))
        elif i.mode == "constant-attr":  # Constant-12's value_int(s) / value_float(s): a scalar or 1-D
            nodes.append(_typed_constant(i.name, arr))
        elif i.mode == "computed":
            zero = onnx.numpy_helper.from_array(np.zeros_like(arr), "z")
            nodes.append(
                onnx.helper.make_node("Constant", [], [i.name + "_c"], value=onnx.numpy_helper.from_array(arr, "c"))
            )
            nodes.append(onnx.helper.make_node("Constant", [], [i.name + "_z"], value=zero))
            nodes.append(onnx.helper.make_node("Add", [i.name + "_c", i.name + "_z"], [i.name]))
        else:
            raise ValueError(f"unknown input mode {i.mode!r}")
    attrs = [_attribute(k, v, node.attr_types.get(k, 0)) for k, v in node.attrs.items()]
    bf = [o for o in node.outputs if out_elem(node, o) == BF16]
    n = onnx.helper.make_node(
        node.op, names, [o + "_bf16" if o in bf else o for o in node.outputs], domain=node.domain or None
    )
    n.attribute.extend(attrs)
    nodes.append(n)
    if node.reader and node.outputs[0] not in bf:
        read, inits_ = _channel_reader(node, n)
        nodes.append(read)
        inits += inits_
    nodes += [onnx.helper.make_node("Cast", [o + "_bf16"], [o], to=onnx.TensorProto.FLOAT) for o in bf]
    outs = [
        onnx.helper.make_value_info(o, containers.type_proto(out_elem(node, o), wrap))
        if (wrap := out_wrap(node, o))
        else onnx.helper.make_tensor_value_info(o, onnx.TensorProto.FLOAT if o in bf else out_elem(node, o), None)
        for o in node.outputs
    ]
    graph = onnx.helper.make_graph(nodes, "g", graph_inputs, outs, inits)
    opsets = [onnx.helper.make_opsetid("", node.opset if not node.domain else 17)]
    if node.domain:
        opsets.append(onnx.helper.make_opsetid(node.domain, node.schema.since_version))
    m = onnx.helper.make_model(graph, opset_imports=opsets, producer_name="passcheck-generate")
    m.ir_version = ir_version_for(max(node.opset, 7) if not node.domain else 17)  # IR 3 also holds opsets 1-6
    if m.ir_version < 4:  # before IR 4 every initializer must also be a graph input
        m.graph.input.extend(
            onnx.helper.make_tensor_value_info(t.name, t.data_type, list(t.dims)) for t in m.graph.initializer
        )
    # a rank inference leaves open is read off a run on the static form's dims (the feeds every form shares)
    ran = (lambda: to_model(node, "static", infer)) if shapes in ("symbolic", "anonymous") else (lambda: m)
    missing = _with_output_shapes(m, infer or infer_shapes, ran)
    if missing and any(i.mode != "initializer" for i in node.inputs):
        # a computed constant hides the output shape from inference: take it from the same
        # computation spelled with initializers (the checker requires a shape on graph outputs)
        plain = node.copy()
        for i in plain.inputs:
            i.mode = "initializer"
        ref = {o.name: o for o in to_model(plain, shapes, infer).graph.output}
        for o in m.graph.output:
            if o.name in missing and ref[o.name].type.tensor_type.HasField("shape"):
                o.type.tensor_type.shape.CopyFrom(ref[o.name].type.tensor_type.shape)
    if shapes in ("symbolic", "anonymous") and _shares_symbols(m):
        _unshare_wrong_dims(m, node, _run_shapes(to_model(node, "static", infer)), fresh=shapes == "symbolic")
    return m


def _typed_constant(name: str, arr: np.ndarray) -> onnx.NodeProto:
    """``Constant`` writing ``arr`` (int64 or float32, rank 0 or 1) with its typed attribute
    (Operators.md Constant-12: ``value_int`` / ``value_float`` a scalar, ``value_ints`` /
    ``value_floats`` a 1-D tensor, an empty list included)."""
    base = "value_int" if arr.dtype == np.int64 else "value_float"
    if arr.ndim == 0:
        return onnx.helper.make_node("Constant", [], [name], **{base: arr.item()})
    kind = onnx.AttributeProto.INTS if arr.dtype == np.int64 else onnx.AttributeProto.FLOATS
    n = onnx.helper.make_node("Constant", [], [name])
    n.attribute.append(onnx.helper.make_attribute(base + "s", arr.tolist(), attr_type=kind))
    return n


def _channel_reader(node: Node, n: onnx.NodeProto) -> tuple[onnx.NodeProto, list[onnx.TensorProto]]:
    """``node.reader`` reading ``n``'s output 0 per channel, under that output's name (``n`` writes ``<name>_pre``),
    and its per-channel initializers (:func:`recipe.channels` entries, the output's element type). Readers:
    BatchNormalization (Operators.md: ``scale``, ``B``, ``input_mean``, ``input_var`` of shape ``[C]``, inference
    mode), Add (a bias ``[C, 1, …]`` broadcast over the spatial axes)."""
    import onnx.numpy_helper

    from passcheck.generate.recipe import channels

    out = node.outputs[0]
    c = channels(node.op, node.inputs, node.attrs)
    dtype = np_dtype(out_elem(node, out))
    n.output[0] = f"{out}_pre"
    ramp = np.linspace(0.5, 1.5, c)  # distinct per channel: a channel read from the wrong place shows
    if node.reader == "Add":
        rank = len(next(i for i in node.inputs if i.name == "W").shape)
        bias = onnx.numpy_helper.from_array(ramp.reshape([c] + [1] * (rank - 2)).astype(dtype), f"{out}_bias")
        return onnx.helper.make_node("Add", [n.output[0], bias.name], [out]), [bias]
    if node.reader != "BatchNormalization":
        raise ValueError(f"unknown channel reader {node.reader!r}")
    params = {"scale": ramp, "B": ramp - 1.0, "mean": ramp / 4, "var": ramp[::-1]}
    inits = [onnx.numpy_helper.from_array(v.astype(dtype), f"{out}_{k}") for k, v in params.items()]
    return onnx.helper.make_node("BatchNormalization", [n.output[0], *(t.name for t in inits)], [out]), inits


def _shares_symbols(m: onnx.ModelProto) -> bool:
    """Whether an output dim's ``dim_param`` also annotates an input or another output dim (a claim
    of equality, which inference may get wrong; a wrong ``dim_value`` the gate drops)."""
    seen = {d.dim_param for vi in m.graph.input for d in vi.type.tensor_type.shape.dim if d.dim_param}
    for o in m.graph.output:
        for d in o.type.tensor_type.shape.dim:
            if d.dim_param and d.dim_param in seen:
                return True
            seen.add(d.dim_param)
    return False


def _unshare_wrong_dims(m: onnx.ModelProto, node: Node, produced: dict[str, tuple[int, ...]], fresh: bool) -> None:
    """Make the output dims inference gave ``m`` hold on the feeds (the static shapes of ``node``).

    Inference may tie an output dim to an input symbol it does not equal (onnx's Slice-10
    inference copies the sliced axis' ``dim_param``): such a dim, or a ``dim_value`` the run does
    not produce, gets a fresh symbol (``fresh``) or neither field. ``produced``:
    output name → the shape the reference evaluator produced on the static form; an output it
    does not cover, or whose rank differs, is left for the gate to judge.
    """
    bound: dict[str, int] = {}
    fed = {i.name: i.shape for i in node.inputs if i.value is None and not i.empty}
    for vi in m.graph.input:
        for d, n in zip(vi.type.tensor_type.shape.dim, fed.get(vi.name, ()), strict=False):
            if d.dim_param:
                bound.setdefault(d.dim_param, n)
    for o in m.graph.output:
        shape = produced.get(o.name)
        dims = o.type.tensor_type.shape.dim
        if shape is None or len(shape) != len(dims):
            continue
        for axis, (d, n) in enumerate(zip(dims, shape, strict=True)):
            wrong = (d.HasField("dim_value") and d.dim_value != n) or (
                d.dim_param and bound.setdefault(d.dim_param, n) != n
            )
            if not wrong:
                continue
            d.Clear()
            if fresh:
                d.dim_param = f"{o.name}_d{axis}"
                bound[d.dim_param] = n


def infer_shapes(model: onnx.ModelProto) -> onnx.ModelProto:
    """``onnx.shape_inference.infer_shapes(model)`` (importable by name, for the isolation worker)."""
    import onnx.shape_inference

    return onnx.shape_inference.infer_shapes(model)


def _with_output_shapes(
    m: onnx.ModelProto,
    infer: Callable[[onnx.ModelProto], onnx.ModelProto],
    ran: Callable[[], onnx.ModelProto],
) -> list[str]:
    """Give graph outputs onnx's inferred elem_type and shape (the checker requires a shape field
    on graph outputs), else the rank of the outputs of a reference run of ``ran()`` (the same node with
    the dims the feeds have); returns the outputs left without a shape. A dim onnx could not know, which its
    inference names ``unk__N`` (:data:`passcheck.oracles.parity.GENERATED_DIM`) and no graph input declares, is
    written unknown (neither dim_value nor dim_param, IR.md §Static tensor shapes): the name is inference's
    placeholder, and declared it is a symbol that a pass reading the model's shapes (onnx_ir) tells apart from an
    unknown dim, so an ``anonymous`` form would not be anonymous at its outputs."""
    from passcheck.oracles.parity import GENERATED_DIM

    given = {d.dim_param for v in m.graph.input for d in v.type.tensor_type.shape.dim if d.dim_param}
    probe = onnx.ModelProto()
    probe.CopyFrom(m)
    for o in probe.graph.output:
        o.ClearField("type")
    try:
        inferred = infer(probe)
    except Exception:  # noqa: BLE001 - inference trouble (or its worker dying) is for the gate to see
        inferred = probe
    known = {v.name: v for v in list(inferred.graph.output) + list(inferred.graph.value_info)}
    missing = []
    for o in m.graph.output:
        v = known.get(o.name)
        if not o.type.HasField("tensor_type"):  # a sequence or optional output keeps its declared type
            continue
        if v is not None and v.type.tensor_type.elem_type:
            o.type.tensor_type.elem_type = v.type.tensor_type.elem_type
        if v is not None and v.type.tensor_type.HasField("shape"):
            o.type.tensor_type.shape.CopyFrom(v.type.tensor_type.shape)
            for d in o.type.tensor_type.shape.dim:
                if d.dim_param not in given and GENERATED_DIM.fullmatch(d.dim_param):
                    d.ClearField("dim_param")
        else:
            missing.append(o.name)
    if missing:
        ranks = {k: len(v) for k, v in _run_shapes(ran()).items()}
        for o in m.graph.output:
            if o.name in missing and o.name in ranks:
                # inference could not tell: declare the rank the reference evaluator produced, dims anonymous
                o.type.tensor_type.shape.SetInParent()
                for _ in range(ranks[o.name]):
                    o.type.tensor_type.shape.dim.add()
                missing.remove(o.name)
    return missing


def _run_shapes(m: onnx.ModelProto) -> dict[str, tuple[int, ...]]:
    """Output name → shape, from one reference-evaluator run on small random feeds ({} on failure)."""
    from passcheck.runtime import synthesize
    from passcheck.runtime.isolated_tools import run_reference  # in the front door's worker (M261)

    try:
        r = run_reference(m, synthesize(m, {}, 0))
    except Exception:  # noqa: BLE001 - unknown rank: the checker will say so
        return {}
    return {} if r.error else {k: np.shape(v) for k, v in r.outputs.items()}


def _src(i: Input) -> str:
    """The name carrying graph input ``i``'s value (after its bfloat16 Cast, if any)."""
    return i.name + "_bf16" if i.elem == BF16 else i.name


def _formal_output(node: Node, output: str):
    return next((o for o in node.schema.outputs if o.name == output), None) or next(
        o for o in node.schema.outputs if output.startswith(o.name + "_")
    )


def out_wrap(node: Node, output: str) -> str:
    """The wrap of ``output`` (``""``: a tensor; else a sequence or optional, :mod:`.containers`)."""
    f = _formal_output(node, output)
    p = _param_of(f.type_str)
    return node.wraps.get(p, "") if p else ""


def out_elem(node: Node, output: str) -> int:
    if output in node.out_elems:
        return node.out_elems[output]
    f = next((o for o in node.schema.outputs if o.name == output), None) or next(
        o for o in node.schema.outputs if output.startswith(o.name + "_")
    )
    p = _param_of(f.type_str)
    row = table_row(node.schema)
    if output in row.get("output_dtypes", {}):
        return elem_type(row["output_dtypes"][output])
    if p is None:
        return elem_type(f.type_str, table=True)  # a fixed tensor(string) output (StringNormalizer)
    return node.dtypes[p]
