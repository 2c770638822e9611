"""Which rewrites reach a nested site: for each rewrite of the registry and each nested site kind (``subgraph``: a
body in the main graph; ``function``: a model-local function body; ``function-subgraph``: a body inside a function
body), whether the rewrite changes such a scope of some model of a corpus, by itself ("before") and with its
``in-body-`` twin too ("after"; :mod:`passcheck.mutations.nested_sites`).

The corpus: the ``common`` form of library cases, each embedded three ways — its main graph as both branches of an
If on ``IsNaN(ReduceSum(x))`` (names renamed per branch, initializers inside), as the body of a model-local function
the main graph calls (initializers as Constant nodes), and the If form's main graph as such a function body.

Usage: ``python scripts/nested_reach.py [--cases GLOB ...] [--every N] [--json OUT]``; prints one table line per
kind and the rewrites reached only after.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import onnx
from onnx import helper


def _renamed(g: onnx.GraphProto, prefix: str, keep: set[str]) -> onnx.GraphProto:
    from passcheck.mutations.names import _rename_graph as _rename
    from passcheck.mutations.nested_sites import _defined

    out = onnx.GraphProto()
    out.CopyFrom(g)
    _rename(out, {x: prefix + x for x in _defined(g) - keep})
    return out


def embed_if(m: onnx.ModelProto) -> onnx.ModelProto | None:
    """The main graph as both branches of an If on a condition no pass can fold."""
    g = m.graph
    inputs = {v.name for v in g.input}
    floats = [v.name for v in g.input if v.type.tensor_type.elem_type in (1, 10, 11)]
    if not floats or any(v.name in inputs for v in g.output):
        return None
    branches = []
    for p in ("t_", "e_"):
        b = _renamed(g, p, inputs)
        del b.input[:]
        b.name = p + "branch"
        branches.append(b)
    new = onnx.ModelProto()
    new.CopyFrom(m)
    del new.graph.node[:], new.graph.initializer[:], new.graph.value_info[:], new.graph.sparse_initializer[:]
    new.graph.node.extend(
        [
            helper.make_node("ReduceSum", [floats[0]], ["nest_s"], keepdims=0, name="nest_sum"),
            helper.make_node("IsNaN", ["nest_s"], ["nest_c"], name="nest_isnan"),
            helper.make_node(
                "If",
                ["nest_c"],
                [o.name for o in g.output],
                name="nest_if",
                then_branch=branches[0],
                else_branch=branches[1],
            ),
        ]
    )
    return new


def embed_function(m: onnx.ModelProto) -> onnx.ModelProto | None:
    """The main graph as the body of a model-local function the main graph calls once."""
    g = m.graph
    if g.sparse_initializer or any(o.name in {v.name for v in g.input} for o in g.output):
        return None
    consts = [helper.make_node("Constant", [], [t.name], name=f"{t.name}_k", value=t) for t in g.initializer]
    f = helper.make_function(
        "org.nest",
        "Body",
        [v.name for v in g.input],
        [o.name for o in g.output],
        [*consts, *g.node],
        list(m.opset_import),
    )
    new = onnx.ModelProto()
    new.CopyFrom(m)
    del new.graph.node[:], new.graph.initializer[:], new.graph.value_info[:]
    new.graph.node.append(
        helper.make_node("Body", [v.name for v in g.input], [o.name for o in g.output], domain="org.nest", name="call")
    )
    new.functions.append(f)
    new.opset_import.append(helper.make_opsetid("org.nest", 1))
    new.ir_version = max(new.ir_version, 8)
    return new


def corpus(patterns: list[str], every: int) -> list[tuple[str, str, onnx.ModelProto]]:
    from passcheck.cases import registry

    out = []
    for k, case in enumerate(registry().select(patterns)):
        if k % every:
            continue
        try:
            m = case.build("common")
        except Exception:  # noqa: BLE001 - a case that does not build here is left out
            continue
        sub = embed_if(m)
        fn = embed_function(m)
        both = embed_function(sub) if sub is not None else None
        out += [
            (case.id, kind, x)
            for kind, x in (("subgraph", sub), ("function", fn), ("function-subgraph", both))
            if x is not None
        ]
    return out


def _bodies(model: onnx.ModelProto) -> dict[str, tuple[str, bytes]]:
    from passcheck.mutations.nested_sites import _graph_at, kind, scopes

    out = {}
    for key, fi, path in scopes(model):
        body = model.functions[fi] if fi >= 0 else model.graph
        if path:
            body = _graph_at(body if fi < 0 else _fgraph(body), path)
        out[key] = (kind(fi, path), body.SerializeToString(deterministic=True))
    return out


def _fgraph(f: onnx.FunctionProto) -> onnx.GraphProto:
    g = onnx.GraphProto()
    g.node.extend(f.node)
    return g


def reached(r, model: onnx.ModelProto, before: dict) -> set[str]:
    """Kinds of nested scope ``r`` (all sites at once) changes in ``model``."""
    try:
        got = r.apply(model)
    except Exception:  # noqa: BLE001 - a rewrite that raises reaches nothing here
        return set()
    if got is None:
        return set()
    after = _bodies(got[0])
    return {k for key, (k, b) in before.items() if after.get(key, (k, None))[1] != b}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", nargs="*", default=["fusion*", "constant*", "axes*", "broadcast*", "optional*"])
    ap.add_argument("--every", type=int, default=12)
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    from passcheck.mutations import REWRITES
    from passcheck.mutations.nested_sites import PREFIX

    t0 = time.time()
    models = corpus(args.cases, args.every)
    base = [rid for rid in REWRITES if not rid.startswith(PREFIX)]
    kinds = ("subgraph", "function", "function-subgraph")
    before = {k: set() for k in kinds}
    after = {k: set() for k in kinds}
    for _cid, want, m in models:
        bodies = _bodies(m)
        for rid in base:
            if rid in before[want] and rid in after[want]:
                continue
            got = reached(REWRITES[rid], m, bodies) & {want}
            before[want] |= {rid} if got else set()
            after[want] |= {rid} if got else set()
            if rid not in after[want] and reached(REWRITES[PREFIX + rid], m, bodies) & {want}:
                after[want].add(rid)
    print(
        f"{len(models)} models from {len({c for c, _k, _m in models})} cases, {len(base)} rewrites, "
        f"{time.time() - t0:.1f} s"
    )
    for k in kinds:
        print(f"{k}: before {len(before[k])}, after {len(after[k])} (rewrites reaching it)")
    print("pairs: before", sum(map(len, before.values())), "after", sum(map(len, after.values())))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({k: {"before": sorted(before[k]), "after": sorted(after[k])} for k in kinds}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
