"""The runtime meaning of shape annotations (seed 000) checked against observed values.

Rules (seed 000, "Checking a value against its annotation"):

1. no ``shape`` field → rank unknown → the check passes;
2. a rank different from the value's → fails;
3. ``dim_value = k`` → the axis must equal k; ``dim_param = "N"`` → every axis annotated N in
   the run has one size (β binds on first sight, later occurrences verify); a dim with neither
   asserts nothing.

Graph inputs of the main graph are preconditions (a violation is bad input, not a model bug);
value_info, graph outputs and every annotation inside a subgraph (If/Loop/Scan bodies) or a
model-local function are assertions. Symbols are global to the model (IR.md, "Static tensor
shapes"): one binding map per run covers every scope. Every TypeProto kind of seed 001 is
checked: tensor (elem_type, shape), sequence (each element), optional (absent passes), map (key
type, each value), sparse tensor (elem_type, dense shape); opaque is counted as unchecked.

Observations (the ``observed`` argument of :func:`check`) are keyed by :attr:`Annotated.key`:
the plain name for main-graph values, ``<scope>::<name>`` inside subgraphs and functions, where
a value is produced once per iteration or call and is given as :class:`Repeated`.

Every violation is reported, and for a symbol conflict every occurrence, sorted, so the result
does not depend on the order values were checked in (seed 000, "Order-independence").
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from passcheck.oracles.binding import ASSERTION, PRECONDITION, BindingMap, Occurrence
from passcheck.runtime.plan import (  # noqa: F401 - re-exported: the annotation scan lives with the runtime
    Annotated,
    AnnotationPlan,
    Observed,
    Repeated,
    annotated_values,
    annotations,
    graph_scopes,
    has_subscopes,
    node_label,
    plan_of,
    scope_key,
)
from passcheck.runtime.plan import (
    want_dtype as _want_dtype,
)
from passcheck.runtime.profile import TensorMeta
from passcheck.typestr import elem_name, shape_str

if TYPE_CHECKING:
    import onnx

#: Reason given for an opaque-typed value (seed 001: an opaque type has no runtime rule).
OPAQUE = "opaque type: nothing to check at run time"


@dataclasses.dataclass
class Violation:
    """One annotation that does not hold in this run.

    Attributes:
        value: the value (``name``, ``name[i]`` for a sequence element, ``name{k}`` for a map
            value, ``name#i`` for iteration/call i of a subgraph value); for a symbol conflict
            among assertions only, the symbol.
        role: ``precondition`` or ``assertion``.
        rule: ``elem-type``, ``rank``, ``dim-value``, ``symbol``, ``kind`` or ``key-type``.
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
    ``unobserved`` maps the others to the reason they could not be checked; ``unobservable`` is
    the part of ``unobserved`` the engine could not see (a limit of passcheck's engine, not of
    the run: such a value may violate its annotation unseen); ``unchecked`` maps observed
    values with nothing checkable (opaque types) to why.
    """

    violations: list[Violation]
    binding: dict[str, int]
    annotated: int
    checked: int
    unobserved: dict[str, str]
    unchecked: dict[str, str] = dataclasses.field(default_factory=dict)
    unobservable: dict[str, str] = dataclasses.field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.violations

    @property
    def bad_input(self) -> bool:
        """Some precondition (graph-input annotation) does not hold: the caller's inputs are wrong."""
        return any(v.role == PRECONDITION for v in self.violations)

    def coverage(self) -> dict[str, Any]:
        """Counts, and ``reasons``: value → why it was not checked (unobserved and unchecked)."""
        return {
            "annotated": self.annotated,
            "checked": self.checked,
            "unobserved": len(self.unobserved),
            "unobservable": len(self.unobservable),
            "unchecked": len(self.unchecked),
            "reasons": {**self.unobserved, **self.unchecked},
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "binding": self.binding,
            "coverage": self.coverage(),
            "unobserved": self.unobserved,
            "unobservable": self.unobservable,
            "unchecked": self.unchecked,
            "violations": [v.to_json() for v in self.violations],
        }


def _holds(rule: tuple, value: Any, label: str, role: str, bmap: BindingMap) -> bool:
    """Whether a tensor-like value (numpy dtype and shape) satisfies ``rule``; its symbol occurrences are recorded then.

    False when it does not, or is not tensor-like: :func:`_check_value` then judges it in full.
    """
    dtype = getattr(value, "dtype", None)
    if not isinstance(dtype, np.dtype) or not hasattr(value, "shape"):
        return False
    want, rank, exact, fixed, params = rule
    if want is not None and dtype is not want and not _dtype_ok(want, dtype, True):
        return False
    if rank is None:
        return True
    shape = value.shape
    if type(shape) is not tuple:
        shape = tuple(shape)
    if exact is not None:
        return shape == exact
    if len(shape) != rank or any(shape[axis] != v for axis, v in fixed):
        return False
    for axis, sym in params:
        bmap.add(Occurrence(sym, label, axis, int(shape[axis]), role))
    return True


def check(
    model: onnx.ModelProto,
    observed: Mapping[str, Any],
    *,
    unobservable: Mapping[str, str] | None = None,
    unknown_dim_param: str | re.Pattern[str] | None = None,
    plan: AnnotationPlan | None = None,
) -> AnnotationReport:
    """Check every annotation of ``model`` against the values of one run.

    Args:
        model: the model whose annotations are judged.
        observed: :attr:`Annotated.key` → runtime value for this run: a numpy array (tensor),
            list (sequence), None or a value (optional), dict (map), an object with
            ``dense_shape`` and ``values`` (sparse tensor); :class:`Repeated` for values inside
            subgraphs and functions.
        unobservable: key → why it could not be observed (reported, never counted as checked).
        unknown_dim_param: a regex; a ``dim_param`` it fully matches (``\\?``, ``unk__\\d+``: some
            tools' spelling of "unknown") asserts nothing, like a dim with neither field. Default:
            every dim_param is a symbol (seed 000).
        plan: ``model``'s :class:`AnnotationPlan` when the caller has it (:func:`plan_of`);
            otherwise the one ``observed`` carries for this model object, else :func:`plan_of`.

    Returns:
        An :class:`AnnotationReport` with every violation (empty when all hold).

    Raises:
        re.error: ``unknown_dim_param`` is not a valid regex.
    """
    if plan is None:
        plan = getattr(observed, "plan", None)
        if not isinstance(plan, AnnotationPlan) or getattr(observed, "of", None) is not model:
            plan = plan_of(model)
    bmap = BindingMap(re.compile(unknown_dim_param) if isinstance(unknown_dim_param, str) else unknown_dim_param)
    violations: list[Violation] = []
    why = dict(unobservable or {})
    unobserved: dict[str, str] = {}
    unchecked: dict[str, str] = {}
    checked: set[str] = set()
    for key, _name, tp, role, scope, kind, rule in plan.steps:
        value = observed.get(key, _MISSING)
        repeated = isinstance(value, Repeated)
        if value is _MISSING or (repeated and not value):
            unobserved[key] = why.get(
                key, "not produced in this run" + (" (its subgraph or function never ran)" if scope else "")
            )
            continue
        if kind == "opaque_type":
            unchecked[key] = OPAQUE
            continue
        checked.add(key)
        if rule is not None and type(value) is TensorMeta and value.dtype is rule[0] and value.shape == rule[2]:
            continue  # a profiled tensor matching a fully static annotation: what _holds finds, without the call
        for label, v in ((f"{key}#{i}", v) for i, v in enumerate(value)) if repeated else ((key, value),):
            if rule is None or not _holds(rule, v, label, role, bmap):
                violations.extend(_check_value(label, tp, v, role, bmap))
    violations.extend(_symbol_violations(bmap))
    violations.sort(key=lambda v: (v.rule, v.value, v.message))
    unobserved = {k: v for k, v in unobserved.items() if k not in checked}
    blind = {k: v for k, v in unobserved.items() if k in why}
    return AnnotationReport(violations, bmap.resolve(), plan.count, len(checked), unobserved, unchecked, blind)


_MISSING = object()


def _check_value(label: str, tp: onnx.TypeProto, value: Any, role: str, bmap: BindingMap) -> list[Violation]:
    kind = tp.WhichOneof("value")
    if kind == "tensor_type":
        return _check_tensor(label, tp.tensor_type, value, role, bmap, "tensor")
    if kind == "sparse_tensor_type":
        return _check_tensor(label, tp.sparse_tensor_type, value, role, bmap, "sparse")
    if kind == "sequence_type":
        if not isinstance(value, (list, tuple)) or isinstance(value, Repeated):
            return [_kind(label, role, "a sequence", value)]
        return [
            v
            for i, e in enumerate(value)
            for v in _check_value(f"{label}[{i}]", tp.sequence_type.elem_type, e, role, bmap)
        ]
    if kind == "optional_type":
        return [] if value is None else _check_value(label, tp.optional_type.elem_type, value, role, bmap)
    if kind == "map_type":
        return _check_map(label, tp.map_type, value, role, bmap)
    return []  # opaque, or no kind: nothing asserted


def _kind(label: str, role: str, want: str, value: Any) -> Violation:
    return Violation(label, role, "kind", f"{label}: annotated as {want} but the run produced {_describe(value)}")


def _describe(value: Any) -> str:
    if value is None:
        return "no value (None)"
    if isinstance(value, np.ndarray):
        return f"a tensor {value.dtype} {list(value.shape)}"
    return f"a {type(value).__name__}"


def _sparse_parts(value: Any) -> tuple[Any, tuple[int, ...]] | None:
    """(values, dense shape) of a sparse tensor value (passcheck SparseValue or onnxruntime SparseTensor)."""
    dense, vals = getattr(value, "dense_shape", None), getattr(value, "values", None)
    if dense is None or vals is None:
        return None
    dense, vals = dense() if callable(dense) else dense, vals() if callable(vals) else vals
    return np.asarray(vals), tuple(int(d) for d in dense)


def _dtype_ok(want: np.dtype, got: np.dtype, exact: bool) -> bool:
    if want.kind in "OUS" and got.kind in "OUS":
        return True  # STRING: numpy object (onnx) or unicode (reference evaluator)
    if want.kind == "V" and want.itemsize == 1 and got == np.uint8:
        return True  # a one-byte ml_dtypes type (float8e4m3fn): onnxruntime's Python API returns its bytes as uint8
    return want == got if exact else want.kind == got.kind or {want.kind, got.kind} <= set("iu")


def _check_tensor(label: str, tt, value: Any, role: str, bmap: BindingMap, kind: str) -> list[Violation]:
    exact = True
    if kind == "sparse":
        parts = _sparse_parts(value)
        if parts is None:
            return [_kind(label, role, "a sparse tensor", value)]
        values, shape = parts
        dtype = values.dtype
    elif isinstance(value, (np.ndarray, np.generic)) or (
        hasattr(value, "shape") and isinstance(getattr(value, "dtype", None), np.dtype)
    ):
        dtype, shape = value.dtype, tuple(value.shape)
    elif isinstance(value, (bool, int, float, str)):
        dtype, shape, exact = np.asarray(value).dtype, (), False  # a map value from a runtime: kind only
    else:
        return [_kind(label, role, "a tensor", value)]
    out = []
    want = _want_dtype(tt.elem_type) if tt.elem_type else None
    if want is not None and not _dtype_ok(want, dtype, exact):
        out.append(
            Violation(
                label,
                role,
                "elem-type",
                f"{label}: annotated elem_type {elem_name(tt.elem_type)}, run produced {dtype}",
            )
        )
    if not tt.HasField("shape"):
        return out
    dims = tt.shape.dim
    if len(dims) != len(shape):
        return out + [
            Violation(
                label,
                role,
                "rank",
                f"{label}: annotated rank {len(dims)} {shape_str(tt.shape)}, run produced shape {list(shape)}",
            )
        ]
    for axis, (d, size) in enumerate(zip(dims, shape)):
        which = d.WhichOneof("value")
        if which == "dim_value":
            if d.dim_value != size:
                out.append(
                    Violation(
                        label,
                        role,
                        "dim-value",
                        f"{label}: axis {axis} annotated {d.dim_value}, run produced {size} (shape {list(shape)})",
                    )
                )
        elif which == "dim_param":
            bmap.add(Occurrence(d.dim_param, label, axis, int(size), role))
    return out


_INT_KEYS = {"INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32", "UINT64"}


def _check_map(label: str, mt, value: Any, role: str, bmap: BindingMap) -> list[Violation]:
    if not isinstance(value, Mapping):
        return [_kind(label, role, "a map", value)]
    out = []
    key_name = elem_name(mt.key_type)
    want_str = key_name == "STRING"
    for k, v in value.items():
        is_str = isinstance(k, (str, bytes, np.str_, np.bytes_))
        is_int = isinstance(k, (int, np.integer)) and not isinstance(k, bool)
        if (want_str and not is_str) or (key_name in _INT_KEYS and not is_int):
            out.append(
                Violation(
                    label,
                    role,
                    "key-type",
                    f"{label}: annotated key type {key_name}, run produced key {k!r} ({type(k).__name__})",
                )
            )
        out.extend(_check_value(f"{label}{{{k!r}}}", mt.value_type, v, role, bmap))
    return out


#: dim_param spellings some tools write for "unknown" on unrelated axes (not a symbol meant to bind).
UNKNOWN_SPELLINGS = re.compile(r"\?|unk__\d+")


def _convention(sym: str) -> str:
    """The note naming an unknown-dim spelling, for a conflict on ``sym`` ('' for another name)."""
    if not UNKNOWN_SPELLINGS.fullmatch(sym):
        return ""
    pattern = re.escape(sym) if sym == "?" else r"unk__\d+"
    return (
        f"; {sym!r} is bound to several sizes: the tool uses it for unknown dims "
        f"(--unknown-dim-param {pattern!r} treats such names as unknown)"
    )


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
                    out.append(
                        Violation(
                            o.value,
                            o.role,
                            "symbol",
                            f"{o.value}: axis {o.axis} annotated {sym!r}, bound to {bound} by the inputs, "
                            f"run produced {o.size} (all occurrences: {where})",
                            occs,
                        )
                    )
        else:
            out.append(
                Violation(
                    sym,
                    ASSERTION,
                    "symbol",
                    f"symbol {sym!r} takes different sizes in one run: {where}{_convention(sym)}",
                    occs,
                )
            )
    return out
