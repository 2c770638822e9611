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
    functions may follow the graph in the text.

    Raises:
        onnx.parser.ParseError: the text is not valid ONNX textual syntax (a case bug).
    """
    imports = ", ".join(f'"{d}" : {v}' for d, v in {"": opset, **(extra_opsets or {})}.items())
    header = f"<ir_version: {ir_version_for(opset)}, opset_import: [{imports}]>\n"
    m = onnx.parser.parse_model(header + text)
    m.graph.initializer.extend(initializers)
    m.producer_name = "passcheck"
    return m


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
