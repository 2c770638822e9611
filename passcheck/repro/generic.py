"""The standalone reproducer of any finding :mod:`passcheck.repro.claims` can state, and its ``REPORT.md``.

The script needs onnx, onnxruntime, numpy and the tool under test (onnxscript for its passes,
sympy for onnxruntime's symbolic shape inference). It rebuilds the form(s) (see
:mod:`passcheck.repro.source`), embeds the run's feeds as serialized tensors, calls the tool as
passcheck's adapter does (:mod:`passcheck.repro.tools`) and checks the oracle's claim with the
oracle's own judging functions (copied from :mod:`passcheck.oracles`). Exit status: 1 while the
bug is present (a ``BUG:`` line says what holds), 0 once fixed, 2 when its set-up or a premise
fails (no verdict).
"""

from __future__ import annotations

import base64
import inspect
import platform
from collections.abc import Mapping, Sequence

from passcheck.errors import PasscheckError
from passcheck.records import brief
from passcheck.repro.bisected import NOT_BISECTED
from passcheck.repro.tools import VERSIONED_EXTRAS

#: The scripts' op-type count, as the parity oracle counts (:func:`passcheck.oracles._context.op_counts`): every
#: node of the main graph and of every subgraph (If/Loop/Scan bodies) at any depth, a call of a model-local function
#: counted as its body's nodes, Constant nodes aside (a Constant node and an initializer spell one value). Counting
#: the main graph alone missed a fusion a pass left undone inside an If (session 15: triage "not reproduced").
COUNTS = '''def counts(model):
    """Op-type counts of the main graph and every subgraph, local-function calls as their bodies, Constants aside."""
    bodies = {(f.domain, f.name): f.node for f in model.functions}
    c = collections.Counter()

    def walk(nodes, calls):
        for n in nodes:
            key = (n.domain, n.op_type)
            if key in bodies and key not in calls:
                walk(bodies[key], calls | {key})
                continue
            c[n.op_type if n.domain in ("", "ai.onnx") else n.domain + "::" + n.op_type] += 1
            for a in n.attribute:
                for g in ([a.g] if a.HasField("g") else []) + list(a.graphs):
                    walk(g.node, calls)

    walk(model.graph.node, frozenset())
    c.pop("Constant", None)
    return c
'''


def _oracle_source() -> dict[str, str]:
    from passcheck.oracles import folding, numeric, parity, validity

    def src(*objs) -> str:
        return "\n\n".join(inspect.getsource(o) for o in objs)

    return {
        "compare": f"TOLERANCES = {numeric.TOLERANCES!r}\nDEFAULT_FLOAT = {numeric.DEFAULT_FLOAT!r}\n\n\n"
        + src(
            numeric.Comparison,
            numeric.tolerance,
            numeric.compare,
            numeric._each,
            numeric._leaf,
            numeric._desc,
            numeric._relative,
            numeric._py,
        ),
        "precision": "import re\nfrom collections import Counter\n\n"
        + f"GENERATED_DIM = re.compile({parity.GENERATED_DIM.pattern!r})\n\n\n"
        + src(
            parity.precision,
            parity.less_precise,
            parity.kept_as_declared,
            parity._declared,
            parity.inputs_say_less,
            parity.type_str,
            parity._dim_params,
            parity.fresh_dim_params,
        ),
        "checker_error": src(validity.checker_error),
        "dims_vary": src(folding._dims_vary),
    }


_OWN = {
    "run": '''def run(model, feeds, expose=()):
    """Output name -> value of one unoptimized onnxruntime run (annotations cleared, as passcheck runs models;
    ``expose``: intermediate values to return too)."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    g = m.graph
    del g.value_info[:]
    for vi in list(g.input) + list(g.output):
        if vi.type.HasField("tensor_type"):
            vi.type.tensor_type.ClearField("shape")
    have = {v.name for v in g.output} | {v.name for v in g.input} | {t.name for t in g.initializer}
    g.output.extend(onnx.ValueInfoProto(name=n) for n in expose if n not in have)
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.log_severity_level = 3
    so.intra_op_num_threads = 1
    sess = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    # a graph input with an initializer is an overridable default (IR.md §Graphs): passcheck's runs feed it too
    wanted = {i.name for i in sess.get_inputs()} | {i.name for i in sess.get_overridable_initializers()}
    got = sess.run(None, {k: v for k, v in feeds.items() if k in wanted})
    values = dict(zip([o.name for o in sess.get_outputs()], got))
    values.update({k: v for k, v in feeds.items() if k in expose})
    return values
''',
    "counts": COUNTS
    + '''

def kept(ba, aa, bb, ab):
    """Op types the pass removed from the first model and not from the second (before/after counts): the first
    lost every node of the type while the second kept some, or both had as many and the second lost fewer."""
    out = []
    for op in sorted(ba):
        removed_a, removed_b = ba[op] - aa[op], bb[op] - ab[op]
        if removed_a <= 0 or not bb[op]:
            continue
        if (aa[op] == 0 and ab[op] > 0) or (ba[op] == bb[op] and removed_b < removed_a):
            out.append(op)
    return out
''',
    "same_values": '''def same_values(model, out):
    """Raise unless ``out`` (the pass's output) computes what ``model`` computes on every feed set ``model`` runs on."""
    for i, feeds in enumerate(feed_sets()):
        try:
            expected = run(model, feeds)
        except Exception:
            continue
        try:
            got = run(out, feeds)
        except Exception as exc:  # the pass broke OTHER: no optimization FORM could have missed
            raise RuntimeError(f"premise fails: {PASS}'s output of {OTHER} fails to run where its input runs "
                               f"(binding {i}): {type(exc).__name__}: {exc}") from None
        for name, value in expected.items():
            c = compare(got.get(name), value, RTOL, ATOL)
            if not c.ok:
                raise RuntimeError(f"premise fails: {PASS}'s output of {OTHER} differs from its input "
                                   f"({name!r}, binding {i}: {c.message})")
''',
    "reference_run": '''def reference_run(model, feeds, name):
    """The value ``name`` as onnx's reference evaluator computes it on ``feeds`` (``name`` exposed as a graph
    output; the evaluator does not enforce annotations): the second engine passcheck's annotations oracle asks
    before it blames the runtime."""
    from onnx.reference import ReferenceEvaluator

    if name in feeds:
        return feeds[name]
    m = onnx.ModelProto()
    m.CopyFrom(model)
    if name not in {o.name for o in m.graph.output}:
        m.graph.output.append(onnx.ValueInfoProto(name=name))
    wanted = {i.name for i in m.graph.input}
    return ReferenceEvaluator(m).run([name], {k: v for k, v in feeds.items() if k in wanted})[0]
''',
    "violation": '''def violation(tp, value):
    """Why the array ``value`` breaks the tensor type ``tp`` (elem type, rank, each dim_value), or None."""
    tt = tp.tensor_type
    value = np.asarray(value)
    if tt.elem_type and value.dtype != np.dtype(helper.tensor_dtype_to_np_dtype(tt.elem_type)):
        return f"elem type {value.dtype}, annotated {np.dtype(helper.tensor_dtype_to_np_dtype(tt.elem_type))}"
    if not tt.HasField("shape"):
        return None
    if len(tt.shape.dim) != value.ndim:
        return f"shape {list(value.shape)} has rank {value.ndim}, annotated {type_str(tp)}"
    for i, (d, n) in enumerate(zip(tt.shape.dim, value.shape)):
        if d.HasField("dim_value") and d.dim_value != n:
            return f"shape {list(value.shape)}: axis {i} is {n}, annotated {type_str(tp)}"
    return None
''',
    "apply_in_child": '''def apply_in_child(model):
    """Run ``apply(model)`` in a child process (this script with ``--apply IN OUT``), so a tool that
    kills its process is seen: (the signal's name, e.g. SIGSEGV, or None; the error raised, or None)."""
    import signal
    import subprocess

    with tempfile.TemporaryDirectory() as d:
        src, dst = os.path.join(d, "in.onnx"), os.path.join(d, "out.onnx")
        onnx.save(model, src)
        r = subprocess.run([sys.executable, os.path.abspath(__file__), "--apply", src, dst],
                           capture_output=True, text=True)
    said = (r.stderr.strip().splitlines() or r.stdout.strip().splitlines() or [""])[-1]
    if r.returncode < 0:
        code = -r.returncode
        name = signal.Signals(code).name if code in signal.valid_signals() else f"signal {code}"
        return name, None
    return None, (said or f"exit {r.returncode}") if r.returncode else None

''',
    "reads_data": '''def reads_data(model, names):
    """What the values ``names`` read besides constants and graph-input shapes (Shape/Size outputs), sorted: graph
    inputs read as data (an initializer a graph input overrides is one), random ops, nodes with a subgraph."""
    g = model.graph
    fed = {i.name for i in g.input}
    constants = {t.name for t in g.initializer} - fed
    producer = {o: n for n in g.node for o in n.output if o}
    random = {"RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike", "Multinomial", "Bernoulli"}
    found, seen, todo = set(), set(), list(names)
    while todo:
        v = todo.pop()
        if not v or v in seen:
            continue
        seen.add(v)
        n = producer.get(v)
        if n is None:
            if v not in constants:
                found.add(f"graph input {v!r}")
        elif n.domain in ("", "ai.onnx") and n.op_type in ("Shape", "Size"):
            continue  # reads the shape only
        elif n.op_type in random or any(a.type in (a.GRAPH, a.GRAPHS) for a in n.attribute):
            found.add(f"{n.op_type} node {n.name!r}")
        else:
            todo.extend(n.input)
    return sorted(found)
''',
    "annotation": '''def annotation(model, name):
    """The tensor type ``model`` annotates the value ``name`` with (value_info or graph output), or None."""
    for vi in list(model.graph.value_info) + list(model.graph.output):
        if vi.name == name and vi.type.WhichOneof("value") == "tensor_type":
            return vi.type
    return None
''',
}

_TEMPLATE = '''#!/usr/bin/env python3
"""{title}

Tool under test: {doc}.
Expected: {expected}.
Exit status: 1 while the bug is present, 0 once fixed, 2 if the set-up or a premise fails.
Needs only: {needs}.
"""

import sys

try:
    import base64
    import collections
    import dataclasses
    import os
    import tempfile
    from typing import Any

    import numpy as np
    import onnx
    import onnxruntime as ort
    from onnx import helper, numpy_helper
{imports}
except ImportError as exc:  # not a verdict on the bug
    print("set-up failed:", exc, file=sys.stderr)
    sys.exit(2)

PASS = {pass_id!r}
FORM, OTHER = {form!r}, {other!r}
{constants}
#: One dict per feed set (input name -> serialized TensorProto, base64): the inputs passcheck ran the models on.
FEEDS = {feeds}


def feed_sets():
    return [{{k: numpy_helper.to_array(onnx.TensorProto.FromString(base64.b64decode(v))) for k, v in f.items()}}
            for f in FEEDS]


{builders}
{apply}


def applied(model):
    """``apply`` on a copy of ``model``: a tool may edit the model it is given (passcheck's input-mutated finding),
    and the script then runs and checks ``model`` itself as the tool's input."""
    given = onnx.ModelProto()
    given.CopyFrom(model)
    return apply(given)


def apply_here():
    """``--apply IN OUT``: apply the tool to the model IN and save what it returns as OUT (the child
    ``apply_in_child`` starts, when the check needs one; usable by hand on any model)."""
    onnx.save(apply(onnx.load(sys.argv[2])), sys.argv[3])
    return 0

{helpers}

def main():
    print({versions})
{body}

if __name__ == "__main__":
    if sys.argv[1:2] == ["--apply"]:
        sys.exit(apply_here())
    try:
        sys.exit(main())
    except Exception as exc:  # the set-up or a premise failed: not a verdict on the bug
        print("set-up failed:", type(exc).__name__, exc, file=sys.stderr)
        sys.exit(2)
'''


def encode_feeds(feeds: Sequence[Mapping]) -> str:
    """``FEEDS``' literal: each array as base64 of its TensorProto (exact).

    Raises:
        PasscheckError: a feed that is no array (a sequence or an absent optional).
    """
    import numpy as np
    from onnx import numpy_helper

    out = []
    for f in feeds:
        enc = {}
        for k, v in f.items():
            if not isinstance(v, np.ndarray):
                raise PasscheckError(f"input {k!r} is fed a {type(v).__name__}, which the script cannot embed")
            enc[k] = base64.b64encode(numpy_helper.from_array(v, k).SerializeToString()).decode()
        out.append(enc)
    return "[\n" + "".join("    {" + ", ".join(f"{k!r}: {v!r}" for k, v in e.items()) + "},\n" for e in out) + "]"


def script(finding, claim, call, a, b, feeds: Sequence[Mapping] = ()) -> tuple[str, dict[str, str]]:
    """(script text, how each form is spelled: ``helper`` or ``bytes``).

    ``claim``: :class:`~passcheck.repro.claims.Claim`; ``call``: :class:`~passcheck.repro.tools.ToolCall`;
    ``a``: the other form (None for a one-form claim), ``b``: the finding's form (ModelProtos);
    ``feeds``: one dict per binding (arrays), for a claim that runs models.

    Raises:
        PasscheckError: feeds the script cannot embed.
    """
    from passcheck.repro.source import model_source

    helpers = {**_oracle_source(), **_OWN}
    other = (claim.other or finding.details.get("other_form")) if claim.two_forms else None
    src_b, how_b = model_source(b, "build_form")
    how = {finding.form: how_b}
    builders = src_b
    if claim.two_forms:
        src_a, how[other] = model_source(a, "build_other")
        builders = src_a + "\n\n" + src_b
    needs = ", ".join(["onnx", "onnxruntime", "numpy", *call.needs])
    text = _TEMPLATE.format(
        title=_docstring_safe(
            f"{finding.pass_id}: {finding.kind} ({finding.oracle}) on form {finding.form!r} of {finding.case}: "
            f"{brief(finding.message, 160)}"
        ),
        doc=call.doc,
        expected=claim.expected,
        needs=needs,
        imports="".join(f"    {i}\n" for i in call.imports),
        pass_id=finding.pass_id,
        form=finding.form,
        other=other,
        constants="".join(f"{k} = {v!r}\n" for k, v in claim.constants.items()),
        feeds=encode_feeds(feeds) if claim.feeds else "[]",
        builders=builders,
        apply=call.source,
        helpers="\n\n".join(helpers[h] for h in claim.helpers) + ("\n" if claim.helpers else ""),
        versions="'onnx', onnx.__version__, '| onnxruntime', ort.__version__, '| numpy', np.__version__"
        + "".join(f", '| {m}', {m.replace('-', '_')}.__version__" for m in call.needs if m in VERSIONED_EXTRAS),
        body=claim.body.strip("\n"),
    )
    return text, how


def _docstring_safe(text: str) -> str:
    return text.replace("\\", "/").replace('"' * 3, "'" * 3)


def report_md(finding, claim, call, how: dict[str, str], versions: dict[str, str | None], first_bad: str = "") -> str:
    """``REPORT.md`` for a generic reproducer: environment, steps, expected vs actual, attribution,
    first bad version (``first_bad``: Markdown from :func:`passcheck.repro.bisected.first_bad`)."""
    from passcheck._versions import tool_version

    extras = {m: tool_version(m) for m in call.needs if m in VERSIONED_EXTRAS and m not in versions}
    env = (
        "\n".join(f"- {k} {v}" for k, v in {**versions, **extras}.items() if v)
        + f"\n- Python {platform.python_version()}, {platform.system()} {platform.machine()}"
    )
    from passcheck.repro.source import how_spelled

    spelled = how_spelled(how)
    needs = " ".join(["onnx", "onnxruntime", "numpy", *call.needs])
    attribution = ", ".join(f"`{n}`" for n in finding.attribution) if finding.attribution else "not computed"
    return f"""# {finding.pass_id}: {finding.kind} on a form of `{finding.case}`

## Environment
{env}

## Steps
1. `pip install {needs}`
2. `python repro.py` (builds the model{"s" if len(how) > 1 else ""} — {spelled} — \
and runs `{call.doc}`{" on the feeds passcheck used, embedded" if claim.feeds else ""})

## Expected
{claim.expected[0].upper() + claim.expected[1:]}.

## Actual
{finding.message}

`repro.py` exits 1 while this holds (its `BUG:` line says what it saw), 0 once fixed, 2 when its own set-up or a \
premise fails.

## Attribution
{attribution}

## First bad version
{first_bad or NOT_BISECTED}
"""
