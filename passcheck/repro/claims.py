"""What a reproducer checks: the claim the oracle made, as the body of the script's ``main()``.

:func:`claim` maps a finding (oracle, kind, details) to a :class:`Claim`: which forms the script
builds, whether it needs the run's feeds, the helper functions it uses and the ``main()`` body.
The helpers that judge (numeric comparison, annotation precision, the checker's message) are the
oracles' own functions, copied into the script by :mod:`passcheck.repro.generic`, so the script
checks what the oracle checked. A finding no claim states faithfully gives a one-line reason.

Names the bodies use: ``PASS`` (the pass in words), ``FORM`` / ``OTHER`` (form names),
``build_form()`` / ``build_other()``, ``apply(model)`` (:mod:`passcheck.repro.tools`), ``applied(model)`` (``apply``
on a copy: every claim but input-mutated's, which watches what the tool does to the model it is given),
``feed_sets()`` (one dict per binding), ``run(model, feeds, expose=())`` (an unoptimized
onnxruntime run, annotations cleared as passcheck runs it) and the constants in ``Claim.constants``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from passcheck.oracles.annotations import RUNTIME_DEVIATES
from passcheck.passes import FAILED


@dataclasses.dataclass(frozen=True)
class Claim:
    """``body``: ``main()``'s body (4-space indented); ``helpers``: names from
    :data:`passcheck.repro.generic.HELPERS`; ``expected``: the property in words (REPORT.md)."""

    body: str
    expected: str
    two_forms: bool = False
    feeds: bool = False
    helpers: tuple[str, ...] = ()
    constants: dict[str, Any] = dataclasses.field(default_factory=dict)
    #: the other form a two-form claim builds, when the finding's details name none (``other_form``).
    other: str | None = None


_VALIDITY = """
    model = build_form()
    out = applied(model)
    before, after = checker_error(model), checker_error(out)
    print("checker on the input:", before or "accepts")
    if after is not None and after != before:
        print(f"BUG: the onnx checker (full_check=True) rejects the output of {PASS} on {FORM}: {after}")
        return 1
    print("fixed: the onnx checker accepts the output" if after is None
          else "fixed: the output is rejected only as its input is")
    return 0
"""

_ACCEPTANCE = """
    model = build_form()
    onnx.checker.check_model(model, full_check=True)  # premise: a valid model
    died, error = apply_in_child(model)  # in a child process: a tool that kills its process is the bug shown
    if died:
        print(f"BUG: {PASS} killed its process ({died}) on the valid model {FORM}")
        return 1
    if error:
        print(f"BUG: {PASS} fails on the valid model {FORM}: " + " ".join(error.split())[:400])
        return 1
    print(f"fixed: {PASS} accepts {FORM}")
    return 0
"""

_FORM_RUNS = """
    model = build_form()
    onnx.checker.check_model(model, full_check=True)  # premise: a valid model
    died, error = apply_in_child(model)  # onnxruntime runs the form in a child process: its death is the bug shown
    if died:
        print(f"BUG: onnxruntime killed its process ({died}) running the valid model {FORM}")
        return 1
    if error:
        print(f"BUG: onnxruntime cannot run the valid model {FORM}: " + " ".join(error.split())[:400])
        return 1
    print(f"fixed: onnxruntime runs {FORM} on every feed set")
    return 0
"""

_DISAGREEMENT = """
    model, other = build_form(), build_other()
    err, err_other = checker_error(model), checker_error(other)
    print(f"checker on {OTHER}:", err_other or "accepts")
    print(f"checker on {FORM}:", err or "accepts")
    if err is None:
        print(f"fixed: the onnx checker accepts {FORM} as it accepts {OTHER}")
        return 0
    if err_other is not None:
        raise RuntimeError(f"premise fails: the checker rejects {OTHER} too: {err_other}")
    for i, feeds in enumerate(feed_sets()):  # premise: onnxruntime runs FORM, and it computes what OTHER computes
        expected, got = run(other, feeds), run(model, feeds)
        for name, value in expected.items():
            c = compare(got.get(name), value, RTOL, ATOL)
            if not c.ok:
                raise RuntimeError(f"premise fails: {FORM} and {OTHER} differ on {name!r}, binding {i}: {c.message}")
    print(f"BUG: the onnx checker (full_check=True) rejects {FORM} but accepts {OTHER}, which computes the same "
          f"values, and onnxruntime runs {FORM} on all {len(feed_sets())} feed set(s): {err}")
    return 1
"""

_NUMERIC = """
    model = build_form()
    out = applied(model)
    compared = 0
    for i, feeds in enumerate(feed_sets()):
        try:
            expected = run(model, feeds)
        except Exception:  # the unoptimized model does not run on these feeds: nothing to compare with
            continue
        compared += 1
        try:
            got = run(out, feeds)
        except Exception as exc:
            print(f"BUG: the output of {PASS} on {FORM} fails to run (binding {i}) where its input runs: "
                  f"{type(exc).__name__}: {exc}")
            return 1
        for name, value in expected.items():
            if name not in got:
                print(f"BUG: graph output {name!r} is missing after {PASS} on {FORM}")
                return 1
            c = compare(got[name], value, RTOL, ATOL)
            if not c.ok:
                print(f"BUG: output {name!r} (binding {i}) of {FORM} after {PASS} differs from the unoptimized model: "
                      f"{c.message}")
                return 1
    if not compared:
        raise RuntimeError("the unoptimized model runs on none of the feeds: nothing compared")
    print(f"fixed: the output of {PASS} computes what {FORM} computes on {compared} feed set(s)")
    return 0
"""

_PARITY_OPS = """
    a, b = build_other(), build_form()
    out_a, out_b = applied(a), applied(b)
    same_values(a, out_a)  # premise: what the pass did to OTHER is right (else it is no optimization FORM missed)
    ba, aa, bb, ab = counts(a), counts(out_a), counts(b), counts(out_b)
    print(OTHER, dict(ba), "->", dict(aa))
    print(FORM, dict(bb), "->", dict(ab))
    if KEPT:
        bug = [op for op in KEPT if op in kept(ba, aa, bb, ab)]
        if bug:
            print("BUG:", "; ".join(f"{op} removed from {OTHER} ({ba[op]}->{aa[op]}) "
                                    f"but not from {FORM} ({bb[op]}->{ab[op]})" for op in bug))
            return 1
    else:
        new_a, new_b = sorted(set(aa) - set(ba)), sorted(set(ab) - set(bb))
        if aa != ab and new_a != new_b and not kept(ba, aa, bb, ab) and not kept(bb, ab, ba, aa):
            print(f"BUG: {PASS} rewrote the two models into different op types: {OTHER} {new_a}, {FORM} {new_b}")
            return 1
    print(f"fixed: {PASS} optimizes both models alike")
    return 0
"""

_PARITY_PRECISION = """
    a, b = build_other(), build_form()
    out_a, out_b = applied(a), applied(b)
    ta = next(o.type for o in out_a.graph.output if o.name == OUTPUT)
    tb = next(o.type for o in out_b.graph.output if o.name == OUTPUT)
    print(f"{OUTPUT!r} after {PASS}: {type_str(ta)} in {OTHER}, {type_str(tb)} in {FORM}")
    for i, feeds in enumerate(feed_sets()):  # premise: the more precise type holds when the output runs
        wrong = violation(ta, run(out_a, feeds)[OUTPUT])
        if wrong:
            raise RuntimeError(f"the type inferred for {OTHER} does not hold (binding {i}): {wrong}")
    # a tool's unknown-dim name used once and named by no input says no more than an unnamed dim (the oracle's rule)
    pa, pb = precision(ta, fresh_dim_params(a, out_a)), precision(tb, fresh_dim_params(b, out_b))
    if kept_as_declared(a, b, OUTPUT, pa, pb):  # the oracle's rule too: the gap is the models' own declarations
        print(f"fixed: {PASS} keeps what each model declares for {OUTPUT!r}")
        return 0
    own = _declared(b, OUTPUT)
    if own is not None and not less_precise(pb, own) and inputs_say_less(a, b):  # the oracle's rule too
        print(f"fixed: {FORM}'s graph inputs declare less than {OTHER}'s and {PASS} keeps what {FORM} declares")
        return 0
    if less_precise(pb, pa):
        print(f"BUG: graph output {OUTPUT!r} after {PASS}: {type_str(tb)} in {FORM} is less precise than "
              f"{type_str(ta)} in {OTHER} (which holds at run time)")
        return 1
    print(f"fixed: {FORM}'s type of {OUTPUT!r} is as precise as {OTHER}'s")
    return 0
"""

#: the annotation claim's script body around its verdict (one feed set's ``wrong``), shared by both claims
_ANNOTATION_HEAD = """
    model = build_form()
    out = applied(model)
    tp = annotation(out, VALUE)
    if tp is None:
        print(f"fixed: {PASS} no longer annotates {VALUE!r}")
        return 0
    print(f"{VALUE!r} after {PASS}: {type_str(tp)} ({helper.tensor_dtype_to_np_dtype(tp.tensor_type.elem_type)})")
    ran = 0
    for i, feeds in enumerate(feed_sets()):
        try:
            value = run(out, feeds, expose=[VALUE])[VALUE]
        except Exception:  # a run that fails observes nothing
            continue
        ran += 1
        wrong = violation(tp, value)
"""
_ANNOTATION_TAIL = """    if not ran:
        raise RuntimeError("the output runs on none of the feeds: nothing observed")
    print(f"fixed: the type of {VALUE!r} holds on {ran} feed set(s)")
    return 0
"""
_ANNOTATION = (
    _ANNOTATION_HEAD
    + """        if wrong:
            print(f"BUG: the type {PASS} gives {VALUE!r} on {FORM} does not hold at run time (binding {i}): {wrong}")
            return 1
"""
    + _ANNOTATION_TAIL
)

_ANNOTATION_RUNTIME = (
    _ANNOTATION_HEAD
    + """        if not wrong:
            continue
        ref = reference_run(out, feeds, VALUE)
        ref = np.asarray(ref)
        print(f"onnx's reference evaluator computes {VALUE!r} with shape {list(ref.shape)} ({ref.dtype})")
        if violation(tp, ref) is None:
            print(f"BUG: onnxruntime {ort.__version__} computes {VALUE!r} on {FORM} unlike onnx's reference evaluator "
                  f"and the type {PASS} gives it (binding {i}): {wrong}")
        else:
            print(f"BUG: the type {PASS} gives {VALUE!r} on {FORM} does not hold at run time (binding {i}): {wrong}; "
                  "onnx's reference evaluator disagrees with it too")
        return 1
"""
    + _ANNOTATION_TAIL
)

_MUTATION = """
    model = build_form()
    before = onnx.ModelProto()
    before.CopyFrom(model)
    out = apply(model)
    if out is model:
        print(f"fixed: {PASS} edits its input in place and returns it (its edits are its output)")
        return 0

    def unnamed(m):  # the names of tensors held in node attributes (a Constant's value) carry no meaning
        c = onnx.ModelProto()
        c.CopyFrom(m)
        graphs = [c.graph, *c.functions]
        while graphs:
            for n in graphs.pop().node:
                for a in n.attribute:
                    for t in ([a.t] if a.HasField("t") else []) + list(a.tensors):
                        t.ClearField("name")
                    graphs += ([a.g] if a.HasField("g") else []) + list(a.graphs)
        return c

    before, model = unnamed(before), unnamed(model)
    changed = [f.name for f in onnx.ModelProto.DESCRIPTOR.fields if getattr(before, f.name) != getattr(model, f.name)]
    changed += [f"graph.{f.name}" for f in onnx.GraphProto.DESCRIPTOR.fields
                if getattr(before.graph, f.name) != getattr(model.graph, f.name)]
    if changed:
        print(f"BUG: {PASS} changed the model it was given ({', '.join(changed)}); it returns a new model")
        return 1
    print(f"fixed: {PASS} leaves its input unchanged")
    return 0
"""

_FOLDING = """
    model = build_form()
    out = applied(model)
    producer = {o: n for n in out.graph.node for o in n.output if o}
    left = [o for o in OUTPUTS if o in producer and producer[o].op_type != "Constant"]
    if not left:
        print(f"fixed: no node of the output of {PASS} computes {OUTPUTS} (folded, or the node is gone)")
        return 0
    node = producer[left[0]]
    data = reads_data(out, left)
    if data:  # premise: the value reads constants (and, for SOURCE 'shapes', graph-input shapes) only
        raise RuntimeError(f"premise fails: {left} read(s) the data of {data}, not only constants and shapes")
    feeds = feed_sets()
    if SOURCE == "shapes" and not (len(feeds) >= 2 and _dims_vary(model, feeds)):
        raise RuntimeError("premise fails: the feed sets do not give every symbolic input dim two sizes")
    seen = [run(out, f, expose=left) for f in feeds]
    for o in left:
        first = seen[0][o]
        for i, got in enumerate(seen[1:], 1):
            if got[o].dtype != first.dtype or got[o].shape != first.shape or not np.array_equal(got[o], first):
                print(f"no bug: {o!r} is {first.tolist()} on feed set 0 but {got[o].tolist()} on feed set {i}: "
                      "it depends on the symbolic dims, so there is nothing to fold")
                return 0
    shown = ", ".join(str(seen[0][o].tolist()) for o in left)
    print(f"BUG: {PASS} left {node.op_type} node {node.name or '#' + str(list(out.graph.node).index(node))!r} "
          f"unfolded on {FORM}: it reads only {'constants' if SOURCE == 'constants' else 'constants and input shapes'}"
          f" and yields {shown} on all {len(seen)} feed set(s)"
          + (" (every symbolic input dim took two sizes or more)" if SOURCE == "shapes" else ""))
    return 1
"""

#: Annotation rules the script's :func:`violation` checks (one value at a time).
_VALUE_RULES = {"elem-type", "rank", "dim-value"}


def claim(finding, rtol: float | None = None, atol: float | None = None) -> Claim | str:
    """The claim of ``finding`` (``rtol`` / ``atol``: the case's tolerances), or why it cannot be
    scripted faithfully (one line)."""
    f, d = finding, finding.details
    key = (f.oracle, f.kind)
    if f.pass_id == "input":
        if key == ("runtime", "rejected"):
            return Claim(
                _FORM_RUNS,
                "onnxruntime runs the form, which the onnx checker (full_check=True) accepts, on every feed set",
                feeds=True,
                helpers=("run", "apply_in_child"),
            )
        if key == ("validity", "validity-disagreement") and f.form != "common":
            return Claim(
                _DISAGREEMENT,
                f"the onnx checker (full_check=True) judges {f.form!r} as it judges 'common': the two forms "
                "compute the same values and onnxruntime runs both",
                two_forms=True,
                feeds=True,
                helpers=("run", "compare", "checker_error"),
                constants={"RTOL": rtol, "ATOL": atol},
                other="common",
            )
        return (
            f"no standalone check states the {f.oracle} oracle's {f.kind!r} claim on a form itself (pass 'input') yet"
        )
    if key == ("validity", "invalid-model"):
        return Claim(
            _VALIDITY,
            "the onnx checker (full_check=True) accepts the pass's output, or rejects it only for the reason "
            "it rejects the input",
            helpers=("checker_error",),
        )
    if key == ("acceptance", "rejected"):
        if d.get("status") not in FAILED - {"timeout", "out-of-memory"}:
            return (
                f"the pass's status was {d.get('status')!r} "
                "(a time or memory limit, which a script cannot state portably)"
            )
        return Claim(
            _ACCEPTANCE,
            "the pass accepts the model, which the onnx checker (full_check=True) accepts"
            + (
                f" and which computes what {', '.join(map(repr, d['accepted_forms']))} (accepted) computes"
                if d.get("accepted_forms")
                else ""
            ),
            helpers=("apply_in_child",),
        )
    if key == ("numeric", "wrong-result"):
        return Claim(
            _NUMERIC,
            "the pass's output computes what its input computes: every graph output equal on every "
            "feed set the input runs on (integers exactly; floats within |a - e| <= atol + rtol * |e|, "
            "passcheck's dtype tolerances unless the case sets them)",
            feeds=True,
            helpers=("run", "compare"),
            constants={"RTOL": rtol, "ATOL": atol},
        )
    if key == ("parity", "missed-optimization") and d.get("other_form"):
        return Claim(
            _PARITY_OPS,
            "the two models compute the same values, so the pass should optimize them alike: what it removes from the "
            "first (its output shown to compute what its input does) it removes from the second",
            two_forms=True,
            feeds=True,
            helpers=("run", "compare", "counts", "same_values"),
            constants={"KEPT": list(d.get("kept_op_types") or []), "RTOL": rtol, "ATOL": atol},
        )
    if key == ("parity", "less-precise") and d.get("other_form") and d.get("output"):
        return Claim(
            _PARITY_PRECISION,
            f"the two models compute the same values, so the type the pass gives graph output {d['output']!r} "
            "should be as precise in both (rank known, as many dim_value, then as many named dims), "
            "given that the more precise one "
            "holds when the output runs",
            two_forms=True,
            feeds=True,
            helpers=("run", "precision", "violation"),
            constants={"OUTPUT": d["output"]},
        )
    if key == ("annotations", "annotation-violated"):
        value, rule = str(d.get("value") or ""), d.get("rule")
        if d.get("role") != "assertion" or rule not in _VALUE_RULES or any(c in value for c in "[{#") or "::" in value:
            return (
                f"its annotation rule {rule!r} ({d.get('role')}) on {value!r} needs passcheck's binding of "
                "symbols across values or scopes; "
                "the script checks one main-graph value's elem type, rank and dim values"
            )
        if RUNTIME_DEVIATES in f.message:  # the oracle blamed the runtime: the script says so, and why
            return Claim(
                _ANNOTATION_RUNTIME,
                f"the value onnxruntime computes for {value!r} is the one onnx's reference evaluator computes, and so "
                "holds the type the pass annotates it with: the elem type, rank and every dim_value",
                feeds=True,
                helpers=("run", "reference_run", "precision", "violation", "annotation"),
                constants={"VALUE": value},
            )
        return Claim(
            _ANNOTATION,
            f"the type the pass annotates {value!r} with holds at run time: the elem type, rank and every dim_value "
            "of the value onnxruntime computes",
            feeds=True,
            helpers=("run", "precision", "violation", "annotation"),
            constants={"VALUE": value},
        )
    if key == ("folding", "missed-optimization") and d.get("outputs") and d.get("inputs") in ("constants", "shapes"):
        return Claim(
            _FOLDING,
            f"a pass that folds constants leaves no node computing {', '.join(map(repr, d['outputs']))}: the value "
            + (
                "reads only constants"
                if d["inputs"] == "constants"
                else "reads only constants and graph-input shapes (through Shape/Size)"
            )
            + " and is the same on every feed set, the symbolic input dims taking two sizes or more",
            feeds=True,
            helpers=("run", "reads_data", "dims_vary"),
            constants={"OUTPUTS": list(d["outputs"]), "SOURCE": d["inputs"]},
        )
    if key == ("pass-contract", "input-mutated"):
        return Claim(_MUTATION, "a pass that returns a new model leaves the one it is given unchanged")
    return f"no standalone check states the {f.oracle} oracle's {f.kind!r} claim yet"
