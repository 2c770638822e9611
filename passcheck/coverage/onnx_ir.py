"""onnx_ir's common passes (``onnx_ir.passes.common``), and which a model triggers.

Catalogue: one ``pass`` entry per class :func:`passcheck.passes.onnx_ir_common.pass_classes` finds
in the installed module, run by its own pass id (``onnx-ir:<name>``). Its ``scope`` is what the
class says it acts on: the op types its own source compares ``op_type`` with (``op_type !=
"Identity"`` in ``IdentityEliminationPass``), or ``any op``, then the first line of its docstring.

Evidence, by effect: the pass, run with its defaults on the IR of the model, gives a model whose
serialization differs from the IR's own round trip of the same model (so a difference is the
pass's, not the serializer's); the effect names the op types whose node count changed (``replaced
Identity node …`` when nodes of an op were removed, the wording :mod:`passcheck.hunt.nearness`
reads op types from) and the node, initializer and function counts before and after. A pass that
leaves the base unchanged is observed again on the base as the hunt spells it with
``node-as-local-function`` (what a pass acting on local functions, ``InlinePass``, is given in a
hunt), and the effect says so. A pass that raises gives no evidence (its failure is a finding of
the hunt, not an effect).
"""

from __future__ import annotations

import collections
import importlib
import inspect
import re
from functools import cache

from passcheck.coverage._graph import AS_FUNCTION, as_function
from passcheck.coverage.entry import Entry, key
from passcheck.passes import onnx_ir_common

TOOL = "onnx-ir"
_OP_COMPARED = re.compile(r"""op_type\s*(?:==|!=)\s*["'](\w+)["']""")


@cache
def read_ops(class_name: str) -> tuple[str, ...]:
    """The op types the source of class ``class_name`` compares a node's ``op_type`` with (sorted)."""
    cls = getattr(importlib.import_module(onnx_ir_common.MODULE), class_name)
    try:
        text = inspect.getsource(cls)
    except (OSError, TypeError):  # no source installed (a zipped or compiled build): nothing read
        return ()
    return tuple(sorted(set(_OP_COMPARED.findall(text))))


def _summary(class_name: str) -> str:
    cls = getattr(importlib.import_module(onnx_ir_common.MODULE), class_name)
    doc = (inspect.getdoc(cls) or "").strip().splitlines()
    return doc[0] if doc else "no docstring"


def catalogue() -> list[Entry]:
    """One entry per class of the installed ``onnx_ir.passes.common`` (see module docs)."""
    out = []
    for name in onnx_ir_common.pass_classes():
        ops = read_ops(name)
        scope = f"{'ops ' + ', '.join(ops) if ops else 'any op'}: {_summary(name)}"
        src = f"{onnx_ir_common.MODULE}.{name} (installed: class, module source, docstring)"
        out.append(Entry(TOOL, "pass", name, (onnx_ir_common.pass_id(name),), scope, src))
    return out


def _counts(proto) -> tuple[collections.Counter, int, int, int]:
    ops = collections.Counter(n.op_type for n in proto.graph.node)
    return ops, len(proto.graph.node), len(proto.graph.initializer), len(proto.functions)


def triggers(model) -> dict[str, str]:
    """Entry key → effect for every pass that changes ``model``, or else the model as the hunt
    spells it with ``node-as-local-function`` (see module docs)."""
    out = _changed(model, "")
    if len(out) < len(onnx_ir_common.pass_classes()) and (spelled := as_function(model)) is not None:
        for k, effect in _changed(spelled, f" (the base spelled by {AS_FUNCTION})").items():
            out.setdefault(k, effect)
    return out


def _changed(model, how: str) -> dict[str, str]:
    import onnx_ir

    module = importlib.import_module(onnx_ir_common.MODULE)
    reference = onnx_ir.serde.serialize_model(onnx_ir.serde.deserialize_model(model))
    before = reference.SerializeToString(deterministic=True)
    ops0, n0, i0, f0 = _counts(reference)
    out: dict[str, str] = {}
    for name in onnx_ir_common.pass_classes():
        try:
            result = getattr(module, name)()(onnx_ir.serde.deserialize_model(model))
            got = onnx_ir.serde.serialize_model(result.model)
        except Exception:  # noqa: BLE001 - the pass failing on a base is a finding elsewhere, not an effect
            continue
        if got.SerializeToString(deterministic=True) == before:
            continue
        ops1, n1, i1, f1 = _counts(got)
        gone = sorted(op for op in ops0 if ops1[op] < ops0[op])
        what = f"replaced {gone[0]} node" if gone else "changed the model"
        out[key(TOOL, "pass", name)] = (
            f"{onnx_ir_common.pass_id(name)}: {what} (nodes {n0}→{n1}, initializers {i0}→{i1}, "
            f"functions {f0}→{f1}){how}"
        )
    return out
