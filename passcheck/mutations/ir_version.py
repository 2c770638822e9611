"""The IR version stamp moved within what the model's content allows (IR.md §ONNX Versioning;
Versioning.md: a newer IR version reads every older model's constructs the same way).

- ``ir-version-up``: to the newest IR version every supported environment reads (the IR that goes
  with :data:`~passcheck.cases.opsets.NEWEST_PORTABLE`, and no newer than the installed onnx's).
  From below IR 4, the initializers leave the graph input list (:func:`raise_ir`): kept there, they
  would become overridable defaults that no pass may fold, another model for a pass.
- ``ir-version-down``: to the oldest IR version that goes with the model's default opset
  (onnx.helper.VERSION_TABLE) and still has every construct the model uses (non-input initializers:
  4; sparse initializers: 6; training_info: 7; functions or optional types: 8; attribute defaults
  of functions, float8: 9; metadata_props below the model, overloads, int4: 10).

Left alone: a model whose subgraph lists an initializer as an input (allowed before IR 4 only).
Site: ``ir_version``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen, opset
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._scopes import scopes

if TYPE_CHECKING:
    import onnx


def portable_ir() -> int:
    """The newest IR version every supported environment reads (the one that goes with NEWEST_PORTABLE)."""
    import onnx

    from passcheck.cases.opsets import NEWEST_PORTABLE

    rows = [row[1] for row in onnx.helper.VERSION_TABLE if row[2] <= NEWEST_PORTABLE]
    return min(max(rows), onnx.IR_VERSION)


def _floor(model: onnx.ModelProto) -> int:
    """The oldest IR version the model's constructs allow (see the module doc)."""
    import onnx

    T = onnx.TensorProto
    v = opset(model)
    floor = min((row[1] for row in onnx.helper.VERSION_TABLE if row[2] >= v), default=onnx.IR_VERSION)
    text = model.SerializeToString()
    graphs = list(scopes(model, False))
    needs = [
        (4, any(t.name not in {i.name for i in s.body.input} for s in graphs for t in s.body.initializer)),
        (6, any(len(s.body.sparse_initializer) for s in scopes(model, False))),
        (7, len(model.training_info) > 0),
        (8, len(model.functions) > 0 or b"optional_type" in text),
        (9, any(len(f.attribute_proto) for f in model.functions)),
        (
            10,
            any(f.overload for f in model.functions)
            or any(
                len(s.body.metadata_props) or any(len(n.metadata_props) for n in s.body.node) for s in scopes(model)
            ),
        ),
    ]
    floor = max([floor, *(ir for ir, need in needs if need)])
    types = _elem_types(model)
    if types & {T.FLOAT8E4M3FN, T.FLOAT8E4M3FNUZ, T.FLOAT8E5M2, T.FLOAT8E5M2FNUZ}:
        floor = max(floor, 9)
    if types & {T.INT4, T.UINT4}:
        floor = max(floor, 10)
    return floor


def _elem_types(model: onnx.ModelProto) -> set[int]:
    found: set[int] = set()
    for s in scopes(model, False):
        g = s.body
        found.update(t.data_type for t in g.initializer)
        found.update(
            v.type.tensor_type.elem_type for v in [*g.input, *g.output, *g.value_info] if v.type.HasField("tensor_type")
        )
    return found


def _subgraph_initializer_inputs(model: onnx.ModelProto) -> bool:
    return any(
        {t.name for t in s.body.initializer} & {v.name for v in s.body.input}
        for s in scopes(model, False)
        if s.kind == "subgraph"
    )


def _move(model: onnx.ModelProto, only: frozenset[str] | None, up: bool) -> list[str]:
    if not chosen(only, "ir_version") or _subgraph_initializer_inputs(model):
        return []
    target = portable_ir() if up else _floor(model)
    if (up and target <= model.ir_version) or (not up and target >= model.ir_version):
        return []
    if up:
        raise_ir(model, target)
    else:
        model.ir_version = target
    return ["ir_version"]


def raise_ir(model: onnx.ModelProto, target: int) -> None:
    """Stamp ``model`` with the newer IR version ``target``, keeping what its initializers mean: below
    IR 4 every initializer had to be a graph input too, and runtimes read those as constants
    (onnxruntime folds them); from IR 4 an initializer listed as an input is an overridable default,
    which a pass may not fold. So when the stamp crosses 4, initializers leave the input list."""
    if model.ir_version < 4 <= target:
        inits = {t.name for t in model.graph.initializer}
        keep = [v for v in model.graph.input if v.name not in inits]
        del model.graph.input[:]
        model.graph.input.extend(keep)
    model.ir_version = target


def ir_up(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """The IR version raised to the newest every supported environment reads."""
    return _move(model, only, up=True)


def ir_down(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """The IR version lowered to the oldest the model's opset and constructs allow."""
    return _move(model, only, up=False)


REWRITES = (
    Rewrite(
        "ir-version-up",
        "the IR version → the newest every supported environment reads",
        ir_up,
        inverse="ir-version-down",
        detail="stamps",
    ),
    Rewrite(
        "ir-version-down",
        "the IR version → the oldest the model's opset and constructs allow",
        ir_down,
        inverse="ir-version-up",
        detail="stamps",
    ),
)

FREEDOMS = (
    Freedom(
        "ir-version-stamp",
        "graphs",
        "IR.md §ONNX Versioning, §Models (ir_version); Versioning.md",
        "A model may be stamped with any IR version that has every construct it uses; its meaning does not change.",
        ("ir-version-up", "ir-version-down"),
        "the model (one site); raised past 4, initializers leave the input list (they stay constants); composes "
        "with opset-stamp-up/down (the IR floor follows the opset).",
    ),
)
