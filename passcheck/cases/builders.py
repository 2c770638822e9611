"""Deterministic model construction for case forms.

Every form is a ModelProto with a fixed default-domain opset and the oldest ir_version that
opset allows (so onnx 1.16 / onnxruntime 1.17 load everything up to opset 18, IR 8).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
import onnx
import onnx.helper
import onnx.numpy_helper
import onnx.parser

from passcheck._versions import ir_version_for


def rng(*key: object) -> np.random.Generator:
    """A generator seeded from ``key`` (e.g. the case id), stable across runs and platforms."""
    digest = hashlib.sha256(repr(key).encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))


def tensor(name: str, array: np.ndarray | Sequence, dtype=None) -> onnx.TensorProto:
    """A TensorProto named ``name`` holding ``array`` (stored as raw_data)."""
    return onnx.numpy_helper.from_array(np.asarray(array, dtype=dtype), name)


def model(
    nodes: Sequence[onnx.NodeProto],
    inputs: Sequence[onnx.ValueInfoProto],
    outputs: Sequence[onnx.ValueInfoProto],
    *,
    opset: int,
    initializers: Sequence[onnx.TensorProto] = (),
    value_info: Sequence[onnx.ValueInfoProto] = (),
    functions: Sequence[onnx.FunctionProto] = (),
    extra_opsets: dict[str, int] | None = None,
    name: str = "passcheck",
) -> onnx.ModelProto:
    """Assemble a model with the oldest ir_version ``opset`` allows."""
    graph = onnx.helper.make_graph(
        list(nodes), name, list(inputs), list(outputs), list(initializers), value_info=list(value_info)
    )
    opsets = [onnx.helper.make_opsetid("", opset)] + [
        onnx.helper.make_opsetid(d, v) for d, v in (extra_opsets or {}).items()
    ]
    m = onnx.helper.make_model(graph, opset_imports=opsets, functions=list(functions), producer_name="passcheck")
    m.ir_version = ir_version_for(opset)
    return m


def parse(
    text: str, *, opset: int, initializers: Sequence[onnx.TensorProto] = (), extra_opsets: dict[str, int] | None = None
) -> onnx.ModelProto:
    """Build a model from ONNX textual syntax for the graph (``name (inputs) => (outputs) {…}``).

    The ``<ir_version, opset_import>`` header is written here from ``opset`` (plus
    ``extra_opsets``, domain → version); numpy initializers are appended after parsing. Model-local
    functions may follow the graph in the text. A node input or output written ``""`` (an omitted
    optional one, ONNX IR spec "Optional Inputs and Outputs") is built the same on a parser that
    rejects it (onnx 1.16: "Expected character ) not found"): parsed under a stand-in name, then emptied.

    Raises:
        onnx.parser.ParseError: the text is not valid ONNX textual syntax (a case bug).
    """
    imports = ", ".join(f'"{d}" : {v}' for d, v in {"": opset, **(extra_opsets or {})}.items())
    header = f"<ir_version: {ir_version_for(opset)}, opset_import: [{imports}]>\n"
    try:
        m = onnx.parser.parse_model(header + text)
    except onnx.parser.ParseError:
        stand_in = _empty_names_stood_in(text)
        if stand_in == text:
            raise
        m = onnx.parser.parse_model(header + stand_in)  # onnx 1.16's parser: "" is no node input or output name
        _restore_empty_names(m)
    m.graph.initializer.extend(initializers)
    m.producer_name = "passcheck"
    return m


#: The name an empty node input/output name stands in as while an old parser reads the text.
EMPTY_STAND_IN = "passcheck__empty__"


def _empty_names_stood_in(text: str) -> str:
    """``text`` with every ``""`` in a node's input or output list (after ``(``, ``,`` or a line's
    start; before ``,``, ``)`` or ``=``; not inside ``[…]``, where strings are attribute values or
    opset domains) written :data:`EMPTY_STAND_IN`."""
    out, depth, i = [], 0, 0
    while i < len(text):
        c = text[i]
        if c == '"':
            end = text.index('"', i + 1)
            before = text[:i].rstrip(" \t")
            after = text[end + 1 :].lstrip(" \t")
            if end == i + 1 and depth == 0 and (not before or before[-1] in "(,\n") and after[:1] in (",", ")", "="):
                out.append(EMPTY_STAND_IN)
            else:
                out.append(text[i : end + 1])
            i = end + 1
            continue
        depth += (c == "[") - (c == "]")
        out.append(c)
        i += 1
    return "".join(out)


def _restore_empty_names(model: onnx.ModelProto) -> None:
    """Write ``""`` back for :data:`EMPTY_STAND_IN` in every node of ``model``'s graph, its
    subgraphs and its functions."""

    def nodes(graph_nodes):
        for n in graph_nodes:
            yield n
            for a in n.attribute:
                for g in [a.g] if a.HasField("g") else list(a.graphs):
                    yield from nodes(g.node)

    every = list(nodes(model.graph.node)) + [n for f in model.functions for n in nodes(f.node)]
    for n in every:
        for names in (n.input, n.output):
            names[:] = ["" if x == EMPTY_STAND_IN else x for x in names]


def vi(name: str, elem_type: int, shape: Sequence[int | str | None] | None) -> onnx.ValueInfoProto:
    """A tensor ValueInfoProto; ``None`` dims are anonymous, ``None`` shape means rank unknown."""
    return onnx.helper.make_tensor_value_info(name, elem_type, shape)


def node(
    op: str, inputs: Sequence[str], outputs: Sequence[str], name: str = "", domain: str = "", **attrs
) -> onnx.NodeProto:
    return onnx.helper.make_node(op, list(inputs), list(outputs), name=name or None, domain=domain or None, **attrs)


FLOAT = onnx.TensorProto.FLOAT
INT64 = onnx.TensorProto.INT64


def text_form(text: str, doc: str = "", *, opset: int, initializers=(), extra_opsets: dict[str, int] | None = None):
    """A :class:`~passcheck.cases.Form` whose build parses ``text`` with :func:`parse`.

    ``initializers`` is a sequence of TensorProtos or a callable returning one (built per run).
    """
    from passcheck.case_model import Form

    def build() -> onnx.ModelProto:
        inits = initializers() if callable(initializers) else initializers
        return parse(text, opset=opset, initializers=inits, extra_opsets=extra_opsets)

    return Form(build, doc)


def text_forms(
    signature: str,
    constants: str,
    forms,
    *,
    opset: int,
    initializers=(),
    extra_opsets: dict[str, int] | None = None,
    functions: str = "",
):
    """Forms that share one graph signature and differ in their node lists.

    Args:
        signature: ``(inputs) => (outputs)`` in ONNX textual syntax.
        constants: ``<…>`` initializer list in textual syntax, or ``""``.
        forms: form name → ``(nodes, doc)`` or ``(nodes, doc, opset)`` (a form may use another opset).
        functions: model-local functions in textual syntax, appended after the graph.

    Returns:
        form name → :class:`~passcheck.cases.Form`.
    """
    out = {}
    for name, spec in forms.items():
        body, doc, form_opset = (*spec, opset)[:3]
        out[name] = text_form(
            f"g {signature} {constants} {{\n{body}\n}}\n{functions}",
            doc,
            opset=form_opset,
            initializers=initializers,
            extra_opsets=extra_opsets,
        )
    return out
