"""How many (op, since_version) schema entries of the default and ai.onnx.ml domains have a
generated base whose outputs onnx shape inference types (issue 26's shape-inference target).

Denominator: every schema entry of an op that onnxruntime's CPU provider has a kernel for (any
version) or the reference evaluator implements, except the entries that deprecate an op (the
version from which no model may use it: the checker rejects it, nothing runs it; counted apart). Numerator: those
entries with a generated case (tag ``since:N``, ``op:Op``), or a reference-only base (a schema
superseded before opset 7, which onnxruntime has no kernel for), whose common form, with the graph
outputs' types cleared, gets an elem_type for every node output from ``onnx.shape_inference``.

Entries "with a base whose outputs inference leaves untyped" (e.g. Relu-1: that schema has no
inference function) are listed apart from those with no base at all.

Usage: ``python scripts/generated_inference_coverage.py [--json FILE] [--missing]`` (reads the
generated set of the installed onnx, generating it first when not cached).
"""

from __future__ import annotations

import argparse
import json
import sys


def runnable_ops() -> set[tuple[str, str]]:
    """(domain, op) onnxruntime's CPU provider or the reference evaluator runs."""
    import onnx.reference.ops._op_list as op_list
    import onnxruntime.capi.onnxruntime_pybind11_state as ort_c

    ops = {
        (k.domain if k.domain != "ai.onnx" else "", k.op_name)
        for k in ort_c.get_all_opkernel_def()
        if k.provider == "CPUExecutionProvider"
    }
    ops |= {("", name.split("_")[0]) for name in dir(op_list) if name[:1].isupper()}
    import onnx.reference.ops.aionnxml as ml

    ops |= {("ai.onnx.ml", name.split("_")[0]) for name in dir(ml) if name[:1].isupper()}
    return ops


def typed(model) -> bool:
    """Whether shape inference types every output of the model's last node (the op under test)."""
    import onnx
    import onnx.shape_inference

    probe = onnx.ModelProto()
    probe.CopyFrom(model)
    for o in probe.graph.output:
        o.ClearField("type")
    try:
        inferred = onnx.shape_inference.infer_shapes(probe, strict_mode=False)
    except Exception:  # noqa: BLE001 - an inference failure is an untyped output
        return False
    known = {v.name: v for v in list(inferred.graph.output) + list(inferred.graph.value_info)}
    node = next(n for n in reversed(probe.graph.node) if n.op_type != "Cast" or len(probe.graph.node) == 1)
    return all(o in known and known[o].type.WhichOneof("value") for o in node.output if o)


def main(argv=None) -> int:
    import onnx
    import onnx.defs

    from passcheck.generate import cases, index

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", metavar="FILE")
    ap.add_argument("--missing", action="store_true", help="list the entries without a typed base")
    args = ap.parse_args(argv)
    runnable = runnable_ops()
    schemas = [
        s
        for s in onnx.defs.get_all_schemas_with_history()
        if s.domain in ("", "ai.onnx.ml") and (s.domain, s.name) in runnable
    ]
    entries = {(s.domain, s.name, s.since_version) for s in schemas if not s.deprecated}
    deprecated = sorted(
        f"{s.domain + ':' if s.domain else ''}{s.name}-{s.since_version}" for s in schemas if s.deprecated
    )
    covered: set[tuple[str, str, int]] = set()
    based: set[tuple[str, str, int]] = set()  # entries with a base at all (typed or not)
    doc = index()
    for c in cases(doc) + cases(doc, reference_only=True):
        op = next(t[3:] for t in c.tags if t.startswith("op:"))
        since = int(next(t[6:] for t in c.tags if t.startswith("since:")))
        domain = "ai.onnx.ml" if "domain:ai.onnx.ml" in c.tags else ""
        key = (domain, op, since)
        based.add(key)
        if key in entries and key not in covered and typed(c.build("common")):
            covered.add(key)
    missing = sorted(entries - covered)
    untyped = sorted(f"{d + ':' if d else ''}{op}-{v}" for d, op, v in (entries & based) - covered)
    share = 100 * len(covered) / len(entries) if entries else 0.0
    print(
        f"onnx {onnx.__version__}: {len(covered)}/{len(entries)} (op, since_version) entries of ops onnxruntime or "
        f"the reference evaluator runs have a generated base whose outputs shape inference types ({share:.1f}%); "
        f"{len(deprecated)} entries that deprecate an op left out ({', '.join(deprecated)}); of the {len(missing)} "
        f"without, {len(untyped)} have a base whose outputs inference leaves untyped, "
        f"{len(missing) - len(untyped)} none"
    )
    if args.missing:
        for d, op, v in missing:
            print(f"  {d + ':' if d else ''}{op}-{v}")
    if args.json:
        names = [f"{d + ':' if d else ''}{op}-{v}" for d, op, v in missing]
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(
                {
                    "onnx": onnx.__version__,
                    "covered": len(covered),
                    "total": len(entries),
                    "percent": round(share, 1),
                    "missing": names,
                    "deprecated_left_out": deprecated,
                    "based_but_untyped": untyped,
                },
                fh,
                indent=1,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
