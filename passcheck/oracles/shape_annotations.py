"""The runtime meaning of shape annotations (seed 000) checked against observed values.

Rules (seed 000, "Checking a value against its annotation"):

1. no ``shape`` field → rank unknown → the check passes;
2. a rank different from the value's → fails;
3. ``dim_value = k`` → the axis must equal k; ``dim_param = "N"`` → every axis annotated N in
   the run has one size (β binds on first sight, later occurrences verify); a dim with neither
   asserts nothing.

Graph inputs are preconditions (a violation is bad input, not a model bug); value_info and graph
outputs are assertions. Symbols are global to the model. The elem_type of a tensor must equal
the value's dtype. Every violation is reported, and for a symbol conflict every occurrence.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from passcheck.oracles.binding import ASSERTION, PRECONDITION, BindingMap, Occurrence

if TYPE_CHECKING:
    import onnx


@dataclasses.dataclass
class Violation:
    """One annotation that does not hold in this run.

    Attributes:
        value: the value name (for a symbol conflict among assertions only, the symbol).
        role: ``precondition`` or ``assertion``.
        rule: ``elem-type``, ``rank``, ``dim-value``, ``symbol`` or ``kind``.
        message: one line.
        occurrences: for ``symbol``, every occurrence of the symbol in the run.
    """

    value: str
    role: str
    rule: str
    message: str
    occurrences: list[Occurrence] = dataclasses.field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["occurrences"] = [o.to_json() for o in self.occurrences]
        return d


@dataclasses.dataclass
class AnnotationReport:
    """All violations of one run, the binding found, and coverage.

    ``annotated`` counts values with an annotation; ``checked`` those observed and checked;
    ``unobserved`` maps the others to the reason they could not be checked.
    """

    violations: list[Violation]
    binding: dict[str, int]
    annotated: int
    checked: int
    unobserved: dict[str, str]

    @property
    def ok(self) -> bool:
        return not self.violations

    def coverage(self) -> dict[str, Any]:
        return {"annotated": self.annotated, "checked": self.checked, "unobserved": len(self.unobserved)}


def annotations(model: "onnx.ModelProto") -> list[tuple[str, "onnx.TypeProto", str]]:
    """(value name, TypeProto, role) for every annotated value of the main graph.

    Inputs that have an initializer are overridable defaults: still preconditions.
    Outputs and value_info are assertions; a name annotated twice is checked against both.
    """
    out = [(vi.name, vi.type, PRECONDITION) for vi in model.graph.input]
    out += [(vi.name, vi.type, ASSERTION) for vi in model.graph.output]
    out += [(vi.name, vi.type, ASSERTION) for vi in model.graph.value_info]
    return [(n, t, r) for n, t, r in out if t.WhichOneof("value") is not None]


def check(model: "onnx.ModelProto", observed: Mapping[str, Any], *, unobservable: Mapping[str, str] | None = None) -> AnnotationReport:
    """Check every annotation of ``model`` against the values of one run.

    Args:
        model: the model whose annotations are judged.
        observed: value name → runtime value (numpy array for tensors) for this run.
        unobservable: value name → why it could not be observed (reported, never as checked).

    Returns:
        An :class:`AnnotationReport` with every violation (empty when all hold).
    """
    import onnx.helper

    bmap = BindingMap()
    violations: list[Violation] = []
    unobserved: dict[str, str] = dict(unobservable or {})
    checked = 0
    annotated = annotations(model)
    for name, tp, role in annotated:
        if name not in observed:
            unobserved.setdefault(name, "not produced in this run")
            continue
        kind = tp.WhichOneof("value")
        if kind != "tensor_type":
            unobserved.setdefault(name, f"{kind} values are not checked yet")
            continue
        checked += 1
        violations.extend(_check_tensor(name, tp.tensor_type, observed[name], role, bmap))
    violations.extend(_symbol_violations(bmap))
    unobserved = {k: v for k, v in unobserved.items() if k not in observed}
    del onnx
    return AnnotationReport(violations, bmap.resolve(), len({n for n, _, _ in annotated}), checked, unobserved)


def _check_tensor(name: str, tt, value: Any, role: str, bmap: BindingMap) -> list[Violation]:
    import onnx.helper

    if not isinstance(value, np.ndarray):
        return [Violation(name, role, "kind", f"{name}: annotated as a tensor but the run produced {type(value).__name__}")]
    out = []
    if tt.elem_type:
        try:
            want = np.dtype(onnx.helper.tensor_dtype_to_np_dtype(tt.elem_type))
        except (KeyError, TypeError, ValueError):
            want = None
        if want is not None and want != value.dtype and not (want.kind in "OUS" and value.dtype.kind in "OUS"):
            tname = onnx.TensorProto.DataType.Name(tt.elem_type)
            out.append(Violation(name, role, "elem-type", f"{name}: annotated elem_type {tname}, run produced {value.dtype}"))
    if not tt.HasField("shape"):
        return out
    dims = tt.shape.dim
    if len(dims) != value.ndim:
        return out + [Violation(name, role, "rank", f"{name}: annotated rank {len(dims)} {_fmt(dims)}, run produced shape {list(value.shape)}")]
    for axis, (d, size) in enumerate(zip(dims, value.shape)):
        if d.HasField("dim_value"):
            if d.dim_value != size:
                out.append(Violation(name, role, "dim-value", f"{name}: axis {axis} annotated {d.dim_value}, run produced {size} (shape {list(value.shape)})"))
        elif d.HasField("dim_param") and d.dim_param:
            bmap.add(Occurrence(d.dim_param, name, axis, int(size), role))
    return out


def _symbol_violations(bmap: BindingMap) -> list[Violation]:
    out = []
    for sym, occs in bmap.conflicts().items():
        where = ", ".join(f"{o.value}[{o.axis}]={o.size}" for o in occs)
        pre_sizes = {o.size for o in occs if o.role == PRECONDITION}
        if len(pre_sizes) > 1:
            out.append(Violation(sym, PRECONDITION, "symbol", f"inputs disagree on symbol {sym!r}: {where}", occs))
            continue
        if pre_sizes:
            bound = next(iter(pre_sizes))
            for o in occs:
                if o.size != bound:
                    out.append(Violation(o.value, o.role, "symbol", f"{o.value}: axis {o.axis} annotated {sym!r}, bound to {bound} by the inputs, run produced {o.size} (all occurrences: {where})", occs))
        else:
            out.append(Violation(sym, ASSERTION, "symbol", f"symbol {sym!r} takes different sizes in one run: {where}", occs))
    return out


def _fmt(dims) -> str:
    return "[" + ", ".join(str(d.dim_value) if d.HasField("dim_value") else (f'"{d.dim_param}"' if d.dim_param else "?") for d in dims) + "]"
