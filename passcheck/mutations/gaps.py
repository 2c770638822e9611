"""The catalogue's gaps: freedoms the spec gives that no rewrite produces yet.

Two sources. The operator schemas are walked (``onnx.defs.get_all_schemas_with_history()``, default
domain, deprecated schemas skipped) for parameter-level freedoms whose wording the schemas share:

- an axis attribute or input that accepts negative values ("Negative value means counting dimensions
  from the back", or a ``[-r, …]`` range): the sign rewrites must know the op
  (:data:`passcheck.mutations.axes.AXIS_ATTRS`, :data:`passcheck.mutations.index_sign.AXES_INPUTS`);
- an ``indices`` or ``position`` input whose description gives a range with a negative lower bound
  (``[-s, s-1]``, ``[-depth, depth-1]``, ``[-n, n - 1]``): Gather's index sign rewrites
  (:mod:`passcheck.mutations.index_sign`), :data:`passcheck.mutations.element_index_sign.INDEX_INPUTS` or
  :data:`passcheck.mutations.sequence_position.POSITION_OPS`;
- an optional input whose description says an empty value and no value mean the same ("either not
  provided or explicitly empty"): :data:`passcheck.mutations.axes_presence.AXES_INPUT_SINCE`;
- an attribute freedom only the attribute's own text states, every domain, onnxruntime's too (a negative value
  counting from the back under any name, a default stated as a literal the schema does not carry):
  :func:`passcheck.mutations.attr_text.table`, written by :mod:`passcheck.mutations.text_attrs`.

The element types of ``onnx.TensorProto.DataType`` are walked too: each has a raw_data and a typed
spelling (onnx.proto TensorProto) that typed-data / raw-data must know
(:data:`passcheck.mutations.raw_data._TYPED`), or a reason it has one spelling only.

Freedoms of IR.md and onnx.proto have no machine-readable form; :data:`IR_ROWS` lists those the
catalogue has no row for, each with the section it rests on and why it is not built (yet).

Usage: ``python -m passcheck.mutations.gaps`` prints every row (``gap``: nothing produces it;
``rewrite``: which one does; ``left out``: why none will).
"""

from __future__ import annotations

import dataclasses
import re
import sys

#: (op, parameter) → why the sign rewrites leave it alone although the schema accepts negative values.
AXIS_LEFT_OUT: dict[tuple[str, str], str] = {
    ("Scan", "scan_input_axes"): "one axis per scan input, each against that input's rank (Scan is not rewritten)",
    ("Scan", "scan_output_axes"): "one axis per scan output, each against that output's rank",
    ("ConcatFromSequence", "axis"): "counted against the rank of the sequence's elements, which no rewrite reads",
    ("Scatter", "axis"): "Scatter is deprecated from opset 11 in favour of ScatterElements, whose axis is rewritten",
    ("DFT", "axis input"): "an input since DFT-20 ([-r, -2] or [0, r-2], r counting the real/imaginary dim); "
    "only the DFT-17 attribute is rewritten",
    ("CumProd", "axis input"): "CumProd-26 is newer than every pinned onnxruntime",
}


@dataclasses.dataclass(frozen=True)
class Gap:
    """One audited freedom.

    Attributes:
        family: the kind of freedom (``axis-sign``, ``empty-or-omitted``, or an IR row's id).
        where: the op and parameter (``LayerNormalization.axis``), or the proto field / IR construct.
        spec: the section it rests on (``Operators.md LayerNormalization-17``, ``IR.md §Nodes``).
        status: ``rewrite``, ``gap`` or ``left out``.
        detail: the rewrite ids, or why nothing produces it.
    """

    family: str
    where: str
    spec: str
    status: str
    detail: str


_NEGATIVE = re.compile(r"negative value|\[-r|\[-rank|`\[-r", re.IGNORECASE)


def _schemas():
    import onnx.defs

    for s in onnx.defs.get_all_schemas_with_history():
        if not s.domain and not s.deprecated:
            yield s


def axis_parameters() -> dict[tuple[str, str], int]:
    """(op, parameter) → the first opset whose schema says that axis attribute or ``axis``/``axes`` input
    takes negative values; an input's parameter is its name and `` input``."""
    import onnx

    A = onnx.AttributeProto
    found: dict[tuple[str, str], int] = {}
    for s in _schemas():
        params = [(n, a.description) for n, a in s.attributes.items() if a.type in (A.INT, A.INTS)]
        params += [(f"{f.name} input", f.description) for f in s.inputs]
        for name, doc in params:
            if ("axis" in name or "axes" in name) and _NEGATIVE.search(doc or ""):
                key = (s.name, name)
                found[key] = min(found.get(key, s.since_version), s.since_version)
    return found


def axis_rows() -> list[Gap]:
    """Each axis parameter that accepts negative values, with the rewrite that flips its sign."""
    from passcheck.mutations.axes import AXIS_ATTRS
    from passcheck.mutations.index_sign import AXES_INPUTS

    rows = []
    for (op, name), since in sorted(axis_parameters().items()):
        spec = f"Operators.md {op}-{since} ({name}: negative counts from the back)"
        attr = AXIS_ATTRS.get(op)
        if attr is not None and attr[0] == name:
            status, detail = "rewrite", "negative-axes, positive-axes"
        elif op in AXES_INPUTS and name.endswith(" input"):
            status, detail = "rewrite", "axes-input-negative, axes-input-positive"
        elif (op, name) in AXIS_LEFT_OUT:
            status, detail = "left out", AXIS_LEFT_OUT[(op, name)]
        else:
            status, detail = "gap", "no sign rewrite knows this parameter"
        rows.append(Gap("axis-sign", f"{op}.{name}", spec, status, detail))
    return rows


_NEGATIVE_RANGE = re.compile(r"\[-(s|n|depth)\b")


def index_parameters() -> dict[tuple[str, str], int]:
    """(op, input) → the first opset whose schema gives that ``indices``/``position`` input a range with a
    negative lower bound (a negative entry counting from the back)."""
    found: dict[tuple[str, str], int] = {}
    for s in _schemas():
        for f in s.inputs:
            if f.name in ("indices", "position") and _NEGATIVE_RANGE.search(f.description or ""):
                key = (s.name, f.name)
                found[key] = min(found.get(key, s.since_version), s.since_version)
    return found


def index_rows() -> list[Gap]:
    """Each indices/position input that accepts negative entries, with the rewrite that flips their sign."""
    from passcheck.mutations.element_index_sign import INDEX_INPUTS
    from passcheck.mutations.sequence_position import POSITION_OPS

    rows = []
    for (op, name), since in sorted(index_parameters().items()):
        spec = f"Operators.md {op}-{since} ({name}: negative counts from the back)"
        if op == "Gather":
            status, detail = "rewrite", "gather-index-negative, gather-index-positive"
        elif op in POSITION_OPS:
            status, detail = "rewrite", "sequence-position-negative, sequence-position-positive"
        elif INDEX_INPUTS.get(op) == since:
            status, detail = "rewrite", "element-indices-negative, element-indices-positive"
        else:
            status, detail = "gap", "no sign rewrite knows this input"
        rows.append(Gap("index-sign", f"{op}.{name}", spec, status, detail))
    return rows


def empty_input_rows() -> list[Gap]:
    """Each optional input whose schema says an empty value means the same as none."""
    import onnx.defs

    from passcheck.mutations.axes_presence import AXES_INPUT_SINCE

    optional = onnx.defs.OpSchema.FormalParameterOption.Optional
    found: dict[tuple[str, str], int] = {}
    for s in _schemas():
        for f in s.inputs:
            if f.option == optional and "explicitly empty" in (f.description or ""):
                key = (s.name, f.name)
                found[key] = min(found.get(key, s.since_version), s.since_version)
    return [
        Gap(
            "empty-or-omitted",
            f"{op}.{name}",
            f"Operators.md {op}-{since} ({name}: not provided or explicitly empty)",
            "rewrite" if AXES_INPUT_SINCE.get(op) == since else "gap",
            "reduce-axes-empty, reduce-axes-empty-omitted"
            if AXES_INPUT_SINCE.get(op) == since
            else "no rewrite writes the empty spelling",
        )
        for (op, name), since in sorted(found.items())
    ]


#: element type name → why typed-data / raw-data leave its tensors alone.
STORAGE_LEFT_OUT: dict[str, str] = {
    "STRING": "one spelling: raw_data cannot hold strings (string_data only)",
    "COMPLEX64": "float_data pairs (real, imaginary) are a second spelling, but onnxruntime registers no complex "
    "tensor type: no mutant could pass the gate",
    "COMPLEX128": "double_data pairs, as COMPLEX64",
}


def storage_rows() -> list[Gap]:
    """Each element type of onnx.TensorProto.DataType with its raw_data vs typed-field rewrite."""
    import onnx

    from passcheck.mutations.raw_data import _TYPED

    rows = []
    for name, value in onnx.TensorProto.DataType.items():
        if name == "UNDEFINED":
            continue
        if value in _TYPED:
            status, detail = "rewrite", "typed-data, raw-data"
        elif name in STORAGE_LEFT_OUT:
            status, detail = "left out", STORAGE_LEFT_OUT[name]
        else:
            status, detail = "gap", "typed-data does not know this element type"
        rows.append(
            Gap(
                "raw-or-typed-storage",
                f"TensorProto {name}",
                "onnx.proto TensorProto (raw_data or the typed field of the element type)",
                status,
                detail,
            )
        )
    return rows


#: IR.md / onnx.proto freedoms with no catalogue row: (id, where, spec, status, detail).
IR_ROWS: tuple[Gap, ...] = (
    Gap(
        "tensor-segment",
        "TensorProto.segment",
        "onnx.proto TensorProto.Segment (a tensor may be stored in segments)",
        "left out",
        "onnx.numpy_helper and onnxruntime do not read segments: no tool would see the same tensor",
    ),
)


def text_rows() -> list[Gap]:
    """Each attribute freedom only the schema's text states (:func:`passcheck.mutations.attr_text.table`, every
    domain), with the rewrite that writes it: negative-axes for the attributes its table names, else the text rewrites
    of :mod:`passcheck.mutations.text_attrs`."""
    from passcheck.mutations.attr_text import table
    from passcheck.mutations.axes import AXIS_ATTRS

    out = []
    for r in table():
        spec = f"{r.domain or 'ai.onnx'} {r.op}-{r.versions[0]} schema text ({r.attr}: '{r.quote}')"
        axes = AXIS_ATTRS.get(r.op) if not r.domain else None
        if r.kind == "stated-default":
            detail = "text-default-explicit, text-default-omitted"
        elif axes is not None and axes[0] == r.attr and all(axes[1] <= v <= axes[2] for v in r.versions):
            detail = "negative-axes, positive-axes"
        else:
            detail = "text-axis-negative, text-axis-positive (negative-axes where its table names the opset)"
        out.append(Gap(f"text-{r.kind}", f"{r.domain or 'ai.onnx'}:{r.op}.{r.attr}", spec, "rewrite", detail))
    return out


def rows() -> list[Gap]:
    """Every audited row: the schema walks, the element types, then the IR rows."""
    return [*axis_rows(), *index_rows(), *empty_input_rows(), *text_rows(), *storage_rows(), *IR_ROWS]


def markdown() -> str:
    """The audit as a Markdown table, open gaps first."""
    order = {"gap": 0, "rewrite": 1, "left out": 2}
    lines = ["| family | where | spec | status | rewrites, or why none |", "|---|---|---|---|---|"]
    for g in sorted(rows(), key=lambda g: (order[g.status], g.family, g.where)):
        lines.append(f"| {g.family} | {g.where} | {g.spec} | {g.status} | {g.detail} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Print :func:`markdown`; exit 0."""
    del argv
    print(markdown())
    return 0


if __name__ == "__main__":
    sys.exit(main())
