"""A runnable node for one operator schema: inputs, attributes and dtypes from the schema and the
domain table (assembled into a model by :mod:`.model`, which imports this module: no re-export back).

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
#: Element types a domain-table row may name (``dtypes``) beyond :data:`CPU_TYPES`: no type parameter is bound
#: to them unless a row says so (the feeds synthesize strings: :func:`passcheck.runtime.feeds.synthesize`).
TABLE_TYPES = CPU_TYPES + ("string",)
DEFAULT_SHAPE = (2, 3, 4)
ML = "ai.onnx.ml"

BF16 = onnx.TensorProto.BFLOAT16

#: An attribute present with only its name and type (proto3 default value).
NO_VALUE = "<no value field>"


class NoRecipe(Exception):
    """The schema needs a domain-table row passcheck does not have (the message says what)."""


@functools.cache
def domains() -> dict[str, Any]:
    """The per-operator domain table (``domains.json``): op name → row."""
    text = resources.files("passcheck.generate").joinpath("domains.json").read_text(encoding="utf-8")
    return {k: v for k, v in json.loads(text).items() if not k.startswith("_")}


def _merged(row: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """``row`` with ``over``'s keys; its inputs and attrs are merged name by name (an attribute ``over`` sets
    to None is dropped: a variant that spells a parameter with another attribute, LabelEncoder's ``values_*``)."""
    return {
        **row,
        **over,
        "inputs": {**row.get("inputs", {}), **over.get("inputs", {})},
        "attrs": {k: v for k, v in {**row.get("attrs", {}), **over.get("attrs", {})}.items() if v is not None},
    }


def table_row(schema: onnx.defs.OpSchema) -> dict[str, Any]:
    """The domain-table row for ``schema``: the op's row, with its ``Op-<since_version>`` row's keys
    (inputs and attrs merged name by name) on top."""
    return _merged(domains().get(schema.name, {}), domains().get(f"{schema.name}-{schema.since_version}", {}))


def elem_type(type_str: str, table: bool = False) -> int:
    """``"tensor(float)"`` or ``"float"`` → TensorProto elem_type (``table``: a type a domain-table row names,
    :data:`TABLE_TYPES`)."""
    name = type_str[7:-1] if type_str.startswith("tensor(") else type_str
    if name not in (TABLE_TYPES if table else CPU_TYPES):
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
    #: output name → elem type, where an attribute sets it (Cast's ``to``) other than the table's ``output_dtypes``
    out_elems: dict[str, int] = dataclasses.field(default_factory=dict)
    #: an op reading output 0 per channel (axis 1) after the node, every form the same (:func:`channels`); "" none
    reader: str = ""

    @property
    def op(self) -> str:
        return self.schema.name

    @property
    def domain(self) -> str:
        return self.schema.domain

    def copy(self) -> Node:
        return dataclasses.replace(
            self,
            inputs=[dataclasses.replace(i) for i in self.inputs],
            attrs=copy.deepcopy(self.attrs),
            attr_types=dict(self.attr_types),
            dtypes=dict(self.dtypes),
            outputs=list(self.outputs),
            wraps=dict(self.wraps),
            out_elems=dict(self.out_elems),
        )

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


def only_strings(schema: onnx.defs.OpSchema, param: str) -> list[int]:
    """``[STRING]`` when type parameter ``param`` allows ``tensor(string)`` (under its wrap) and no type of
    :data:`CPU_TYPES`, else ``[]``: the text ops (StringConcat, StringSplit, RegexFullMatch; Operators.md) are
    fed strings, which the feeds synthesize (IR.md: ``string`` is a tensor element type)."""
    if allowed(schema, param):
        return []
    wrap = containers.wrap_of(schema, param, param, table_row(schema))
    for c in schema.type_constraints:
        if c.type_param_str == param and "string" in containers.elem_names(c.allowed_type_strs, wrap):
            return [int(onnx.TensorProto.STRING)]
    return []


def _param_of(type_str: str) -> str | None:
    return None if type_str.startswith("tensor(") or type_str.startswith("seq(") else type_str


def build_node(
    schema: onnx.defs.OpSchema, opset: int, main: int | None = None, override: dict[str, Any] | None = None
) -> Node:
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
        dtypes[p] = elem_type(t, table=True)
    wraps = {p: containers.wrap_of(schema, p, p, row) for p in params if p}
    for p in params:
        if p and p not in dtypes:
            choices = allowed(schema, p) or only_strings(schema, p)
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
        elem = dtypes[p] if p else elem_type(f.type_str, table=True)  # a fixed tensor(string) is fed strings
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
                value = given.get("by_dtype", {}).get(type_name(elem), given["value"])  # a value the spec fixes
                inputs.append(Input(nm, elem, tuple(np.shape(value)), value=value))
            elif given.get("constant"):  # a constant of that shape: evenly spaced, no two entries equal
                dims = tuple(given["shape"])
                ramp = np.linspace(-1.5, 1.5, int(np.prod(dims)) + 1)[1:].reshape(dims)
                inputs.append(Input(nm, elem, dims, value=ramp.tolist()))
            else:
                inputs.append(Input(nm, elem, tuple(given.get("shape", shape)), wrap=wrap))
    # Keep positions: an optional input the table gives after omitted ones needs "" placeholders.
    inputs = _positional(schema, inputs, spec_in)
    attrs: dict[str, Any] = {}
    attr_types: dict[str, int] = {}
    given_attrs = {**bodies.graph_attrs(schema, dtypes, len(shape), opset), **row.get("attrs", {})}
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
    outputs = outputs[: max(1, int(wanted if wanted is not None else 99))]
    if not outputs:
        outputs = [schema.outputs[0].name]
    reader = row.get("reader", "")
    if reader and channels(schema.name, inputs, attrs) is None:
        raise NoRecipe(f"a {reader} reader needs the output channel count, which {schema.name}'s weight does not give")
    return Node(schema, opset, inputs, attrs, outputs, attr_types, dtypes, wraps, reader=reader)


def channels(op: str, inputs: list[Input], attrs: dict[str, Any]) -> int | None:
    """Output channel count (axis 1 of output 0) of a Conv / ConvTranspose recipe, read off its weight ``W``
    (Operators.md Conv: ``[M, C/group, k…]``; ConvTranspose: ``[C, M/group, k…]``, M = ``group × W[1]``); None
    for other ops or without a weight."""
    w = next((i for i in inputs if i.name == "W" and not i.empty), None)
    if w is None or len(w.shape) < 3 or op not in ("Conv", "ConvTranspose"):
        return None
    return w.shape[0] if op == "Conv" else w.shape[1] * int(attrs.get("group", 1))


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


__all__ = ["NoRecipe", "Input", "Node", "build_node", "allowed", "channels", "table_row"]
