"""A runnable node for one operator schema: inputs, attributes and dtypes from the schema and the
domain table, assembled into a one-node model.

A :class:`Node` is a plain description (no protobuf) so spellings can copy and change one thing.
Graph inputs get random feeds (synthesized from their static shapes); inputs whose values matter
(indices, axes, sizes) are constants from the domain table (``domains.json``). An input the table
does not describe and that cannot take random data raises :class:`NoRecipe`.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
from importlib import resources
from typing import Any

import numpy as np
import onnx
import onnx.defs
import onnx.helper

from passcheck.generate import bodies, containers

#: Element types onnxruntime's CPU provider commonly runs, in order of preference for the "main" dtype.
CPU_TYPES = ("float", "double", "float16", "bfloat16", "int64", "int32", "int8", "uint8", "bool")
DEFAULT_SHAPE = (2, 3, 4)
ML = "ai.onnx.ml"

#: An attribute present with only its name and type (proto3 default value).
NO_VALUE = "<no value field>"


class NoRecipe(Exception):
    """The schema needs a domain-table row passcheck does not have (the message says what)."""


@functools.lru_cache(maxsize=None)
def domains() -> dict[str, Any]:
    """The per-operator domain table (``domains.json``): op name → row."""
    text = resources.files("passcheck.generate").joinpath("domains.json").read_text(encoding="utf-8")
    return {k: v for k, v in json.loads(text).items() if not k.startswith("_")}


def _merged(row: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """``row`` with ``over``'s keys; its inputs and attrs are merged name by name."""
    return {**row, **over, "inputs": {**row.get("inputs", {}), **over.get("inputs", {})},
            "attrs": {**row.get("attrs", {}), **over.get("attrs", {})}}


def table_row(schema: onnx.defs.OpSchema) -> dict[str, Any]:
    """The domain-table row for ``schema``: the op's row, with its ``Op-<since_version>`` row's keys
    (inputs and attrs merged name by name) on top."""
    return _merged(domains().get(schema.name, {}), domains().get(f"{schema.name}-{schema.since_version}", {}))


def elem_type(type_str: str) -> int:
    """``"tensor(float)"`` or ``"float"`` → TensorProto elem_type."""
    name = type_str[7:-1] if type_str.startswith("tensor(") else type_str
    if name not in CPU_TYPES:
        raise NoRecipe(f"type {type_str} is not one passcheck feeds ({', '.join(CPU_TYPES)})")
    return int(getattr(onnx.TensorProto, name.upper()))


def type_name(elem: int) -> str:
    return onnx.helper.tensor_dtype_to_string(elem).removeprefix("TensorProto.").lower()


def np_dtype(elem: int) -> np.dtype:
    return np.dtype(onnx.helper.tensor_dtype_to_np_dtype(elem))


@dataclasses.dataclass
class Input:
    """One node input. ``value`` None: a graph input fed at random; else a constant spelled by ``mode``
    (``initializer`` | ``constant`` (a Constant node) | ``computed`` (Add of a Constant and zero));
    ``name`` "" with ``omitted`` means an empty-name placeholder."""

    name: str
    elem: int
    shape: tuple[int, ...] = DEFAULT_SHAPE
    value: Any = None
    mode: str = "initializer"
    empty: bool = False
    wrap: str = ""  # "" (a tensor) | seq | optional | optional-seq (passcheck.generate.containers)


@dataclasses.dataclass
class Node:
    """A single-node computation at one opset."""

    schema: onnx.defs.OpSchema
    opset: int
    inputs: list[Input]
    attrs: dict[str, Any]
    outputs: list[str]
    attr_types: dict[str, int]
    dtypes: dict[str, int]  # type param → elem type
    wraps: dict[str, str] = dataclasses.field(default_factory=dict)  # type param → wrap (containers)

    @property
    def op(self) -> str:
        return self.schema.name

    @property
    def domain(self) -> str:
        return self.schema.domain

    def copy(self) -> "Node":
        return dataclasses.replace(self, inputs=[dataclasses.replace(i) for i in self.inputs], attrs=copy.deepcopy(self.attrs),
                                   attr_types=dict(self.attr_types), dtypes=dict(self.dtypes), outputs=list(self.outputs),
                                   wraps=dict(self.wraps))

    def main_elem(self) -> int:
        return next((i.elem for i in self.inputs if i.value is None and not i.empty), onnx.TensorProto.FLOAT)


def allowed(schema: onnx.defs.OpSchema, param: str) -> list[int]:
    """Element types a type parameter allows that the CPU provider commonly runs, preferred first
    (of the tensors, or of the tensors inside its sequences or optionals: :func:`containers.wrap_of`)."""
    wrap = containers.wrap_of(schema, param, param, table_row(schema))
    for c in schema.type_constraints:
        if c.type_param_str == param:
            names = containers.elem_names(c.allowed_type_strs, wrap)
            return [elem_type(t) for t in CPU_TYPES if t in names]
    return []


def _param_of(type_str: str) -> str | None:
    return None if type_str.startswith("tensor(") or type_str.startswith("seq(") else type_str


def build_node(schema: onnx.defs.OpSchema, opset: int, main: int | None = None, override: dict[str, Any] | None = None) -> Node:
    """The recipe for ``schema`` at ``opset`` with main dtype ``main`` (its first input's type param).

    Raises:
        NoRecipe: a required input or attribute has no domain-table row and cannot be random data,
            or an input type is not a tensor the CPU provider runs.
    """
    row = table_row(schema)
    if override:  # a variant row: its inputs and attrs replace the base row's
        row = _merged(row, override)
    if row.get("skip"):
        raise NoRecipe(row["skip"])
    dtypes: dict[str, int] = {}
    params = [_param_of(f.type_str) for f in schema.inputs] + [_param_of(f.type_str) for f in schema.outputs]
    for p, t in row.get("dtypes", {}).items():
        dtypes[p] = elem_type(t)
    wraps = {p: containers.wrap_of(schema, p, p, row) for p in params if p}
    for p in params:
        if p and p not in dtypes:
            choices = allowed(schema, p)
            if not choices:
                raise NoRecipe(f"type parameter {p} allows no tensor type the CPU provider runs")
            dtypes[p] = choices[0]
    first = _param_of(schema.inputs[0].type_str) if schema.inputs else None
    if main is not None and first:
        if main not in allowed(schema, first):
            raise NoRecipe(f"{first} does not allow {type_name(main)} under this schema")
        dtypes[first] = main
        if any(wraps.values()):  # a sequence/optional and its tensors hold one element type (seq(T), T)
            dtypes.update({p: main for p in wraps if p not in row.get("dtypes", {}) and main in allowed(schema, p)})
    if any(dtypes.get(p) == BF16 for p, w in wraps.items() if w):
        raise NoRecipe("a bfloat16 sequence or optional cannot be fed or returned through onnxruntime's Python API")
    shape = tuple(row.get("shape", DEFAULT_SHAPE))
    spec_in = row.get("inputs", {})
    inputs: list[Input] = []
    for k, f in enumerate(schema.inputs):
        p = _param_of(f.type_str)
        if p is None and not f.type_str.startswith("tensor("):
            raise NoRecipe(f"input {f.name} is of the fixed type {f.type_str}")
        wrap = wraps.get(p, "")
        elem = dtypes[p] if p else elem_type(f.type_str)
        if wrap and elem == BF16:
            raise NoRecipe(f"input {f.name}: a bfloat16 {wrap} cannot be fed")
        given = spec_in.get(f.name)
        opt = f.option == onnx.defs.OpSchema.FormalParameterOption.Optional
        if opt and given is None:
            continue  # optional inputs are omitted unless the table gives them
        count = 1
        if f.option == onnx.defs.OpSchema.FormalParameterOption.Variadic:
            count = max(f.min_arity if hasattr(f, "min_arity") else 1, int(row.get("variadic", 2)))
        for j in range(count):
            nm = f.name if count == 1 else f"{f.name}_{j}"
            if given is None:
                int_like = np_dtype(elem).kind in "iub" and p != first and k > 0
                if int_like:
                    raise NoRecipe(f"no input domain recipe for input {f.name!r} ({f.type_str})")
                inputs.append(Input(nm, elem, shape, wrap=wrap))
            elif "value" in given:
                if given.get("dtype"):
                    elem = elem_type(given["dtype"])
                    if p:
                        dtypes[p] = elem
                inputs.append(Input(nm, elem, tuple(np.shape(given["value"])), value=given["value"]))
            else:
                inputs.append(Input(nm, elem, tuple(given.get("shape", shape)), wrap=wrap))
    # Keep positions: an optional input the table gives after omitted ones needs "" placeholders.
    inputs = _positional(schema, inputs, spec_in)
    attrs: dict[str, Any] = {}
    attr_types: dict[str, int] = {}
    given_attrs = {**bodies.graph_attrs(schema, dtypes, len(shape)), **row.get("attrs", {})}
    for name, a in schema.attributes.items():
        attr_types[name] = int(a.type)
        if name in given_attrs:
            attrs[name] = given_attrs[name]
        elif a.required:
            raise NoRecipe(f"no recipe for required attribute {name!r}")
    outputs = []
    # "outputs": N takes the schema's first N outputs, optional ones included (a training-mode
    # BatchNormalization's running statistics); without it, the required outputs only
    wanted = row.get("outputs")
    for o in schema.outputs:
        if o.option == onnx.defs.OpSchema.FormalParameterOption.Variadic:
            outputs += [f"{o.name}_{j}" for j in range(int(row.get("variadic_outputs", 1)))]
        elif o.option != onnx.defs.OpSchema.FormalParameterOption.Optional or wanted is not None:
            outputs.append(o.name)
    outputs = outputs[:max(1, int(wanted if wanted is not None else 99))]
    if not outputs:
        outputs = [schema.outputs[0].name]
    return Node(schema, opset, inputs, attrs, outputs, attr_types, dtypes, wraps)


def _positional(schema, inputs: list[Input], spec_in) -> list[Input]:
    by_name = {i.name: i for i in inputs}
    out: list[Input] = []
    for f in schema.inputs:
        if f.option == onnx.defs.OpSchema.FormalParameterOption.Variadic:
            out += [i for i in inputs if i.name.startswith(f.name + "_") or i.name == f.name]
        elif f.name in by_name:
            out.append(by_name[f.name])
        elif f.option == onnx.defs.OpSchema.FormalParameterOption.Optional:
            out.append(Input("", onnx.TensorProto.FLOAT, (), empty=True))
    while out and out[-1].empty:
        out.pop()
    return out


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
    a = onnx.helper.make_attribute(name, value, attr_type=atype) if atype else onnx.helper.make_attribute(name, value)
    return a


def to_model(node: Node, shapes: str = "static") -> onnx.ModelProto:
    """A one-node model. ``shapes``: ``static`` | ``symbolic`` (dims ``d0``…) | ``anonymous`` on graph inputs.

    Output annotations carry the elem_type only (their shape is left to the tools).
    """
    import onnx.numpy_helper

    from passcheck.cases._support import ir_version_for

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
                graph_inputs.append(onnx.helper.make_tensor_value_info(i.name, onnx.TensorProto.FLOAT, dims if not spelled else list(i.shape)))
                nodes.append(onnx.helper.make_node("Cast", [i.name], [i.name + "_bf16"], to=BF16))
                names[-1] = i.name + "_bf16"
            else:
                graph_inputs.append(onnx.helper.make_tensor_value_info(i.name, i.elem, dims if not spelled else list(i.shape)))
            if spelled and i is data[-1]:
                names[-1] = i.name + "_b"
                if shapes == "expand":
                    full = onnx.numpy_helper.from_array(np.asarray(data[0].shape, np.int64), i.name + "_shape")
                    inits.append(full)
                    nodes.append(onnx.helper.make_node("Expand", [_src(i), full.name], [names[-1]]))
                else:
                    ax = onnx.numpy_helper.from_array(np.arange(len(data[0].shape) - len(i.shape), dtype=np.int64), i.name + "_axes")
                    inits.append(ax)
                    nodes.append(onnx.helper.make_node("Unsqueeze", [_src(i), ax.name], [names[-1]]))
            continue
        arr = np.asarray(i.value, dtype=np_dtype(i.elem))
        t = onnx.numpy_helper.from_array(arr, i.name)
        if i.mode == "initializer":
            inits.append(t)
        elif i.mode == "constant":
            nodes.append(onnx.helper.make_node("Constant", [], [i.name], value=t))
        elif i.mode == "computed":
            zero = onnx.numpy_helper.from_array(np.zeros_like(arr), "z")
            nodes.append(onnx.helper.make_node("Constant", [], [i.name + "_c"], value=onnx.numpy_helper.from_array(arr, "c")))
            nodes.append(onnx.helper.make_node("Constant", [], [i.name + "_z"], value=zero))
            nodes.append(onnx.helper.make_node("Add", [i.name + "_c", i.name + "_z"], [i.name]))
        else:
            raise ValueError(f"unknown input mode {i.mode!r}")
    attrs = [_attribute(k, v, node.attr_types.get(k, 0)) for k, v in node.attrs.items()]
    bf = [o for o in node.outputs if out_elem(node, o) == BF16]
    n = onnx.helper.make_node(node.op, names, [o + "_bf16" if o in bf else o for o in node.outputs], domain=node.domain or None)
    n.attribute.extend(attrs)
    nodes.append(n)
    nodes += [onnx.helper.make_node("Cast", [o + "_bf16"], [o], to=onnx.TensorProto.FLOAT) for o in bf]
    outs = [onnx.helper.make_value_info(o, containers.type_proto(out_elem(node, o), wrap)) if (wrap := out_wrap(node, o))
            else onnx.helper.make_tensor_value_info(o, onnx.TensorProto.FLOAT if o in bf else out_elem(node, o), None)
            for o in node.outputs]
    graph = onnx.helper.make_graph(nodes, "g", graph_inputs, outs, inits)
    opsets = [onnx.helper.make_opsetid("", node.opset if not node.domain else 17)]
    if node.domain:
        opsets.append(onnx.helper.make_opsetid(node.domain, node.schema.since_version))
    m = onnx.helper.make_model(graph, opset_imports=opsets, producer_name="passcheck-generate")
    m.ir_version = ir_version_for(node.opset if not node.domain else 17)
    if m.ir_version < 4:  # before IR 4 every initializer must also be a graph input
        m.graph.input.extend(onnx.helper.make_tensor_value_info(t.name, t.data_type, list(t.dims)) for t in m.graph.initializer)
    missing = _with_output_shapes(m)
    if missing and any(i.mode != "initializer" for i in node.inputs):
        # a computed constant hides the output shape from inference: take it from the same
        # computation spelled with initializers (the checker requires a shape on graph outputs)
        plain = node.copy()
        for i in plain.inputs:
            i.mode = "initializer"
        ref = {o.name: o for o in to_model(plain, shapes).graph.output}
        for o in m.graph.output:
            if o.name in missing and ref[o.name].type.tensor_type.HasField("shape"):
                o.type.tensor_type.shape.CopyFrom(ref[o.name].type.tensor_type.shape)
    if shapes in ("symbolic", "anonymous") and _shares_symbols(m):
        _unshare_wrong_dims(m, node, _run_shapes(to_model(node, "static")), fresh=shapes == "symbolic")
    return m


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
        for d, n in zip(vi.type.tensor_type.shape.dim, fed.get(vi.name, ())):
            if d.dim_param:
                bound.setdefault(d.dim_param, n)
    for o in m.graph.output:
        shape = produced.get(o.name)
        dims = o.type.tensor_type.shape.dim
        if shape is None or len(shape) != len(dims):
            continue
        for axis, (d, n) in enumerate(zip(dims, shape)):
            wrong = (d.HasField("dim_value") and d.dim_value != n) or (d.dim_param and bound.setdefault(d.dim_param, n) != n)
            if not wrong:
                continue
            d.Clear()
            if fresh:
                d.dim_param = f"{o.name}_d{axis}"
                bound[d.dim_param] = n


def _with_output_shapes(m: onnx.ModelProto) -> list[str]:
    """Give graph outputs onnx's inferred elem_type and shape (the checker requires a shape field
    on graph outputs); returns the outputs inference left without a shape."""
    import onnx.shape_inference

    probe = onnx.ModelProto()
    probe.CopyFrom(m)
    for o in probe.graph.output:
        o.ClearField("type")
    try:
        inferred = onnx.shape_inference.infer_shapes(probe)
    except Exception:  # noqa: BLE001 - inference trouble is for the gate to see
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
        else:
            missing.append(o.name)
    if missing:
        ranks = {k: len(v) for k, v in _run_shapes(m).items()}
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
    from passcheck.runtime.reference import run_reference

    try:
        r = run_reference(m, synthesize(m, {}, 0))
    except Exception:  # noqa: BLE001 - unknown rank: the checker will say so
        return {}
    return {} if r.error else {k: np.shape(v) for k, v in r.outputs.items()}


BF16 = onnx.TensorProto.BFLOAT16


def _src(i: Input) -> str:
    """The name carrying graph input ``i``'s value (after its bfloat16 Cast, if any)."""
    return i.name + "_bf16" if i.elem == BF16 else i.name


def _formal_output(node: Node, output: str):
    return next((o for o in node.schema.outputs if o.name == output), None) or \
        next(o for o in node.schema.outputs if output.startswith(o.name + "_"))


def out_wrap(node: Node, output: str) -> str:
    """The wrap of ``output`` (``""``: a tensor; else a sequence or optional, :mod:`.containers`)."""
    f = _formal_output(node, output)
    p = _param_of(f.type_str)
    return node.wraps.get(p, "") if p else ""


def out_elem(node: Node, output: str) -> int:
    f = next((o for o in node.schema.outputs if o.name == output), None) or next(o for o in node.schema.outputs if output.startswith(o.name + "_"))
    p = _param_of(f.type_str)
    row = table_row(node.schema)
    if output in row.get("output_dtypes", {}):
        return elem_type(row["output_dtypes"][output])
    if p is None:
        return elem_type(f.type_str)
    return node.dtypes[p]
