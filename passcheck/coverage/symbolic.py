"""onnxruntime's symbolic shape inference op handlers, and which a model triggers.

Catalogue: the keys of ``SymbolicShapeInference.dispatcher_`` (op type → handler), read from an
instance of the installed tool. Evidence, by effect: while ``infer_shapes`` runs, the handler of
the node's op was called (the instance's dispatcher is wrapped for the call) and the result
gives every output of that node a type.
"""

from __future__ import annotations

import contextlib
import functools
import os
import tempfile

from passcheck.coverage._graph import typed, types
from passcheck.coverage.entry import Entry, key

TOOL = "ort-symbolic-shape-infer"
PASSES = ("ort:symbolic-shape-infer",)


def handlers() -> list[str]:
    from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference

    return sorted(SymbolicShapeInference(2**31 - 1, False, False, 0).dispatcher_)


@functools.cache
def handler_names() -> frozenset[str]:
    """The op types ``SymbolicShapeInference.__init__`` puts in ``dispatcher_``, read from the installed tool's source
    (``ast``), without importing it: the tool imports sympy, which passcheck's own process never loads to list cases.
    Falls back to :func:`handlers` when the source cannot be read that way (a release that builds the table
    otherwise)."""
    import ast
    import importlib.util

    spec = importlib.util.find_spec("onnxruntime.tools.symbolic_shape_infer")
    names: set[str] = set()
    try:
        tree = ast.parse(open(spec.origin, encoding="utf-8").read()) if spec and spec.origin else None
    except (OSError, SyntaxError, ValueError):
        tree = None
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
            if any(isinstance(t, ast.Attribute) and t.attr == "dispatcher_" for t in node.targets):
                keys = [k for k in node.value.keys if isinstance(k, ast.Constant)]
                names.update(k.value for k in keys if isinstance(k.value, str))
    return frozenset(names) if names else frozenset(handlers())


def catalogue() -> list[Entry]:
    src = "SymbolicShapeInference.dispatcher_ (installed)"
    return [Entry(TOOL, "handler", op, PASSES, "dispatcher_", src) for op in handlers()]


def triggers(model) -> dict[str, str]:
    """Entry key → effect for every handler ``infer_shapes`` called on a node whose outputs it typed."""
    from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference

    called: dict[str, str] = {}
    init = SymbolicShapeInference.__init__

    def traced_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        for op, fn in list(self.dispatcher_.items()):

            def wrapped(node, _fn=fn, _op=op):
                called.setdefault(_op, node.name)
                for o in node.output:
                    called.setdefault(f"{_op}\0{o}", node.name)
                return _fn(node)

            self.dispatcher_[op] = wrapped

    here = os.getcwd()
    SymbolicShapeInference.__init__ = traced_init
    try:
        with tempfile.TemporaryDirectory(prefix="passcheck-cov-") as d:
            os.chdir(d)  # the tool may write a temporary model into the current folder
            result = None
            with contextlib.suppress(Exception):  # the tool failing is a finding elsewhere; what it called still counts
                result = SymbolicShapeInference.infer_shapes(model, auto_merge=False, guess_output_rank=False)
    finally:
        os.chdir(here)
        SymbolicShapeInference.__init__ = init
    if result is None:
        return {}
    got = types(result)
    out = {}
    for n in result.graph.node:
        outs = [o for o in n.output if o]
        ran = all(f"{n.op_type}\0{o}" in called and o in got and typed(got[o]) for o in outs)
        if n.op_type in called and outs and ran:
            out.setdefault(
                key(TOOL, "handler", n.op_type),
                f"infer_shapes called the {n.op_type} handler on node '{n.name}' and typed {', '.join(outs)}",
            )
    return out
