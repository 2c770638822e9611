"""One model-local function or several overloads of it (issue 27). ONNX spec: IR.md §Functions and
onnx.proto FunctionProto.overload / NodeProto.overload (IR >= 10: a function is identified by
(domain, name, overload), and a call names the overload it means). Two call sites of one body may
call the same function or two overloads whose bodies are the same.

- ``function-overload-split``: every call site of a model-local function after the first (main
  graph, subgraphs, other function bodies, in model order) calls its own overload, a copy of the
  function named ``pN``; the IR version is raised to 10 when lower.
- ``function-overload-merge``: overloads of a function whose body, inputs, outputs and attributes
  equal another overload's are dropped, their callers calling that one.

Sites: the function labels ``DOMAIN:NAME`` (an overload: ``DOMAIN:NAME:OVERLOAD``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen, subgraphs
from passcheck.mutations._freedom import Freedom
from passcheck.mutations.ir_version import raise_ir

if TYPE_CHECKING:
    import onnx

IR_OVERLOADS = 10


def _label(f) -> str:
    return f"{f.domain}:{f.name}" + (f":{f.overload}" if f.overload else "")


def _calls(model: onnx.ModelProto) -> Iterator[onnx.NodeProto]:
    """Every node of the model in order: main graph, nested graphs, function bodies."""

    def walk(nodes) -> Iterator[onnx.NodeProto]:
        for n in nodes:
            yield n
            for sg in subgraphs(n):
                yield from walk(sg.node)

    yield from walk(model.graph.node)
    for f in list(model.functions):
        yield from walk(f.node)


def split(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each call after the first of a model-local function → a call of its own overload (a copy)."""
    import onnx

    sites: list[str] = []
    taken = {(f.domain, f.name, f.overload) for f in model.functions}
    for f in list(model.functions):
        label = _label(f)
        if not chosen(only, label):
            continue
        calls = [n for n in _calls(model) if (n.domain, n.op_type, n.overload) == (f.domain, f.name, f.overload)]
        for k, call in enumerate(calls[1:], start=1):
            name = next(f"p{j}" for j in range(k, k + len(taken) + 2) if (f.domain, f.name, f"p{j}") not in taken)
            taken.add((f.domain, f.name, name))
            copy = onnx.FunctionProto()
            copy.CopyFrom(f)
            copy.overload = name
            model.functions.append(copy)
            call.overload = name
        if len(calls) > 1:
            sites.append(label)
    if sites and model.ir_version < IR_OVERLOADS:
        raise_ir(model, IR_OVERLOADS)
    return sites


def _body(f) -> bytes:
    import onnx

    c = onnx.FunctionProto()
    c.CopyFrom(f)
    c.overload = ""
    c.doc_string = ""
    return c.SerializeToString(deterministic=True)


def merge(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Overloads equal to an earlier overload of the same function → dropped, their calls redirected."""
    first: dict[tuple, str] = {}
    gone: dict[tuple, str] = {}
    sites = []
    for f in model.functions:
        key = (f.domain, f.name, _body(f))
        if key not in first:
            first[key] = f.overload
        elif chosen(only, _label(f)):
            gone[(f.domain, f.name, f.overload)] = first[key]
            sites.append(_label(f))
    if not gone:
        return []
    for n in _calls(model):
        if (n.domain, n.op_type, n.overload) in gone:
            n.overload = gone[(n.domain, n.op_type, n.overload)]
    keep = [f for f in model.functions if (f.domain, f.name, f.overload) not in gone]
    del model.functions[:]
    model.functions.extend(keep)
    return sites


REWRITES = (
    Rewrite(
        "function-overload-split",
        "each further call of a model-local function → a call of its own overload (IR >= 10)",
        split,
        inverse="function-overload-merge",
        detail="functions",
    ),
    Rewrite(
        "function-overload-merge",
        "overloads with equal bodies → one function, their callers calling it",
        merge,
        inverse="function-overload-split",
        detail="functions",
    ),
)

FREEDOMS = (
    Freedom(
        "function-overload",
        "functions",
        "IR.md §Functions; onnx.proto FunctionProto.overload, NodeProto.overload (IR >= 10: (domain, name, "
        "overload) identifies a function)",
        "Two call sites of the same body may call one function or two overloads of it.",
        ("function-overload-split", "function-overload-merge"),
        "model-local functions with two or more call sites in any scope (main graph, subgraphs, function bodies); "
        "the IR raised to 10 when lower; at depth 2 after node-as-local-function",
    ),
)
