"""interior/*: one node of every ai.onnx and ai.onnx.ml op read from and written to other nodes, not to the graph's
own inputs and outputs (M347).

Spec freedom: IR.md §Graphs / §Nodes: a node's input is a value, whichever produced it (a graph input, an
initializer, another node's output), and a graph output is any value; ``Mul(x, 1)`` is ``x`` bit for bit for every
numeric element type (Operators.md Mul-14: elementwise product; IEEE 754: ``x × 1 = x``, ``-0`` and NaN included;
integers exactly). So an op reading ``Mul(x, 1)`` instead of the graph input ``x``, and writing a value that
``Mul(·, 1)`` hands to the graph output, computes the same outputs.

The generated set places every op at the graph's boundary (one node reading graph inputs, writing graph outputs):
a pass whose rule depends on where a value comes from never saw the op between other nodes, where it sits in real
models. onnxruntime's float16 conversion keeps its block-listed ops (``float16.DEFAULT_OP_BLOCK_LIST``) float with a
``Cast`` only between them and a converted node, and keeps graph inputs and outputs float (``keep_io_types``), so at
the boundary it adds no Cast; its quantizers quantize a "direct 8-bit" op (Flatten, Squeeze, MaxPool, Pad, Resize,
TopK, ...: ``operators/direct_q8.py``) only when its first input is already quantized, i.e. produced by a
quantized node. ``passcheck coverage`` listed those entries untriggered (round 18a: 44 of 89 ``ort-precision``).

One base per op: its newest schema (ai.onnx: up to :func:`opset`) whose pair the gate keeps, stamped at the schema's
own version, the generator's recipe (:func:`passcheck.generate.recipe.build_node`; the first input float where the
schema allows it, else the recipe's own type) and model (:func:`passcheck.generate.model.to_model`, static shapes):

- ``common``: each fed graph input of a type Mul takes at that opset read through ``Mul(x, 1)``, each such graph
  output written by ``Mul(y', 1)`` (the op's own output renamed ``y'``);
- ``boundary``: the generated node alone, reading and writing the graph's interface.

An op none of whose graph inputs and outputs Mul takes (strings, bools, sequences only) has no interior form and
no base; nor has a random op (the domain table's ``seeded``: runtimes draw different numbers) or an op with an
``optional`` output (the reference evaluator returns it as a list, which the library's check cannot compare).
A base is kept when the generator's gate (:func:`passcheck.generate.gate.gate`: checker, onnxruntime in the
isolation worker, the reference evaluator, agreement) keeps the pair; the verdicts are cached per
``generator_hash()`` and this module under ``<cache>/interior/``.
"""

from __future__ import annotations

import functools
from pathlib import Path

import onnx
import onnx.defs
import onnx.helper

from passcheck.case_model import Case, Form
from passcheck.cases import register
from passcheck.generate import recipe

FAMILY = "interior"
#: What a selection names this family's cases by: read without importing this module
#: (:class:`passcheck.cases.sources.GatedModule`), which is imported, and its gate judged, only when one does.
SELECTED_BY = {"ids": ["interior/*"], "tags": ["interior", "interior-*"]}
ML = "ai.onnx.ml"
#: the neutral op and the suffixes of the values it writes
NEUTRAL = "Mul"


@functools.cache
def opset() -> int:
    """The ai.onnx opset of the bases: the newest the installed onnx knows, capped at the newest the installed
    onnxruntime loads (:func:`passcheck.runtime.limits.ort_opset_limit`)."""
    from passcheck._versions import max_supported_opset
    from passcheck.runtime.limits import ort_opset_limit

    return min(max_supported_opset(), ort_opset_limit() or max_supported_opset())


def schemas() -> list[list[onnx.defs.OpSchema]]:
    """Per ai.onnx / ai.onnx.ml op, sorted by (domain, name): its non-deprecated schemas (ai.onnx: those up to
    :func:`opset`), newest first."""
    by_op: dict[tuple[str, str], list[onnx.defs.OpSchema]] = {}
    for s in onnx.defs.get_all_schemas_with_history():
        if s.domain in ("", ML) and not s.deprecated and (s.domain != "" or s.since_version <= opset()):
            by_op.setdefault((s.domain, s.name), []).append(s)
    return [sorted(by_op[k], key=lambda s: -s.since_version) for k in sorted(by_op)]


def _stamp(schema: onnx.defs.OpSchema) -> int:
    """The ai.onnx opset a base imports: the schema's own version (ai.onnx), 17 beside an ai.onnx.ml op (the
    generator's :func:`~passcheck.generate.model.to_model` stamps that)."""
    return max(schema.since_version, 7) if schema.domain == "" else 17


def _takes(op_opset: int) -> set[int]:
    """Element types ``Mul``'s ``T`` allows at ``op_opset``."""
    mul = onnx.defs.get_schema(NEUTRAL, op_opset, "")
    allowed = next(c.allowed_type_strs for c in mul.type_constraints if c.type_param_str == "T")
    out = set()
    for t in allowed:
        try:
            out.add(recipe.elem_type(t))
        except recipe.NoRecipe:  # a type passcheck does not feed: no recipe holds it
            continue
    return out


def interior(model: onnx.ModelProto) -> onnx.ModelProto | None:
    """``model`` (one graph, no functions) with each fed tensor graph input of a type ``Mul`` takes read through
    ``Mul(x, 1)`` and each such graph output written by ``Mul(y', 1)``; None when there is none (module docs).

    The constants ``1`` are scalar initializers of the value's element type; new names never clash."""
    import numpy as np
    import onnx.numpy_helper

    m = onnx.ModelProto()
    m.CopyFrom(model)
    g = m.graph
    ai = next(o.version for o in m.opset_import if o.domain in ("", "ai.onnx"))
    takes = _takes(ai)
    taken = {v for n in g.node for v in (*n.input, *n.output)} | {v.name for v in (*g.input, *g.output)}
    taken |= {t.name for t in g.initializer}
    inits = {t.name for t in g.initializer}

    def fresh(base: str) -> str:
        k, name = 0, base
        while name in taken:
            k, name = k + 1, f"{base}_{k}"
        taken.add(name)
        return name

    def elem(v: onnx.ValueInfoProto) -> int | None:
        t = v.type.tensor_type if v.type.HasField("tensor_type") else None
        return t.elem_type if t is not None and t.elem_type in takes else None

    ones: dict[int, str] = {}

    def one(e: int) -> str:
        if e not in ones:
            ones[e] = fresh(f"one_{recipe.type_name(e)}")
            arr = np.ones((), recipe.np_dtype(e))
            t = onnx.numpy_helper.from_array(arr, ones[e])
            if e == onnx.TensorProto.BFLOAT16:
                t = onnx.helper.make_tensor(ones[e], e, [], [1.0])
            g.initializer.append(t)
            if m.ir_version < 4:  # IR.md: before IR 4 every initializer is also a graph input
                g.input.append(onnx.helper.make_tensor_value_info(ones[e], e, []))
        return ones[e]

    front, back = [], []
    for v in list(g.input):
        if v.name in inits or (e := elem(v)) is None:
            continue
        inner = fresh(f"{v.name}_in")
        for n in g.node:
            n.input[:] = [inner if x == v.name else x for x in n.input]
        front.append(onnx.helper.make_node(NEUTRAL, [v.name, one(e)], [inner], name=fresh(f"{inner}_mul")))
    for v in g.output:
        producer = next((n for n in g.node if v.name in n.output), None)
        if producer is None or (e := elem(v)) is None:
            continue
        inner = fresh(f"{v.name}_out")
        producer.output[:] = [inner if x == v.name else x for x in producer.output]
        for n in g.node:  # another node reading the output reads the op's value, as before
            if n is not producer:
                n.input[:] = [inner if x == v.name else x for x in n.input]
        back.append(onnx.helper.make_node(NEUTRAL, [inner, one(e)], [v.name], name=fresh(f"{v.name}_mul")))
    if not front and not back:
        return None
    nodes = [*front, *g.node, *back]
    del g.node[:]
    g.node.extend(nodes)
    return m


def _nodes(schema: onnx.defs.OpSchema) -> list[recipe.Node]:
    """The generator's recipes for ``schema``: its first input's type parameter bound to float where the schema
    allows it (the element type onnxruntime's float16 conversion and quantizers rewrite), then the recipe's own
    binding when that differs (a LabelEncoder's keys tie its input to int64)."""
    first = schema.inputs[0].type_str if schema.inputs else "tensor("
    floats = not first.startswith(("tensor(", "seq(")) and onnx.TensorProto.FLOAT in recipe.allowed(schema, first)
    out = []
    for main in (onnx.TensorProto.FLOAT, None) if floats else (None,):
        try:
            node = recipe.build_node(schema, _stamp(schema), main=main)
        except recipe.NoRecipe:
            continue
        if not out or node.main_elem() != out[0].main_elem():
            out.append(node)
    return out


def case_id(schema: onnx.defs.OpSchema, node: recipe.Node) -> str:
    prefix = "ml." if schema.domain == ML else ""
    return f"{FAMILY}/{prefix}{schema.name.lower()}-{schema.since_version}.{recipe.type_name(node.main_elem())}"


def candidates() -> list[list[tuple[str, onnx.defs.OpSchema, recipe.Node]]]:
    """Per op, ``(case id, schema, recipe)`` for each of its schemas the generator has a recipe for, newest first
    (float first within one schema, :func:`_nodes`); the family keeps the first the gate keeps (module docs)."""
    out = []
    for versions in schemas():
        if recipe.table_row(versions[0]).get("seeded"):
            continue  # a random op: runtimes draw different numbers, and the library compares values across them
        found = [(case_id(s, node), s, node) for s in versions for node in _nodes(s) if not _optional_out(node)]
        if found:
            out.append(found)
    return out


def _optional_out(node: recipe.Node) -> bool:
    """Whether an output is an ``optional``: the reference evaluator returns it as a list, which the library's check
    of every form (a tensor or a sequence per output) cannot compare."""
    from passcheck.generate.model import out_wrap

    return any(out_wrap(node, o) == "optional" for o in node.outputs)


def form_model(node: recipe.Node, form: str) -> onnx.ModelProto:
    """The ``common`` (interior) or ``boundary`` model of ``node`` (module docs).

    Raises:
        ValueError: ``common`` for a node with no interior form (:func:`interior` gives None).
    """
    from passcheck.generate.model import to_model

    plain = to_model(node)
    if form == "boundary":
        return plain
    inner = interior(plain)
    if inner is None:
        raise ValueError(f"{node.op}: no graph input or output of a type Mul takes")
    return inner


def _forms(node: recipe.Node) -> dict[str, Form]:
    return {
        "common": Form(build=functools.partial(form_model, node, "common"), doc=""),
        "boundary": Form(
            build=functools.partial(form_model, node, "boundary"),
            doc="the node alone, reading and writing the graph's interface",
        ),
    }


def _gate() -> dict:
    """Case id → "" (kept) or the generator's gate's drop reason, for each op's versions newest first up to the
    first kept."""
    from passcheck.cases.schema_gate import progress
    from passcheck.passes.isolation import IsolatedExecutor

    doc = {}
    ops = candidates()
    ex = IsolatedExecutor(timeout=60)
    try:
        with progress(FAMILY, len(ops)) as bar:  # one step per op (its versions until one is kept)
            for versions in ops:
                for cid, schema, node in versions:
                    bar.now(cid)
                    doc[cid] = _verdict(ex, cid, schema, node)
                    if not doc[cid]:
                        break  # the newest version the gate keeps
                bar.advance(what=versions[0][0])
    finally:
        ex.close()
    return doc


def _verdict(ex, cid: str, schema: onnx.defs.OpSchema, node: recipe.Node) -> str:
    """ "" when the generator's gate keeps the pair, else its category, reason and detail."""
    from passcheck.engine import feeds_for
    from passcheck.generate.gate import gate, tolerance

    try:
        models = {n: f.build() for n, f in _forms(node).items()}
    except Exception as exc:  # noqa: BLE001 - no interior form, or the model builder refuses: no base
        return f"build: {type(exc).__name__}: {str(exc)[:200]}"
    feeds = feeds_for(models["common"], cid, [{}, {}])
    main = next((i.type.tensor_type.elem_type for i in models["boundary"].graph.input), 0)
    try:
        v = gate(models, feeds, ex.run_model, *tolerance(main))
    except Exception as exc:  # noqa: BLE001 - a pair the gate cannot judge is dropped with the reason
        return f"gate: {type(exc).__name__}: {str(exc)[:200]}"
    return "" if v.ok else f"{v.category}: {v.reason}: {v.detail}"[:400]


def _parts() -> tuple:
    from passcheck.generate import generator_hash  # its sources, domain table, onnx / onnxruntime versions

    return (generator_hash(), Path(__file__))


def gate_key() -> str:
    """The verdicts' cache key (:func:`passcheck.cases.schema_gate.gate_key`: the generator's hash and this module)."""
    from passcheck.cases import schema_gate

    return schema_gate.gate_key(_parts())


@functools.cache
def verdicts() -> dict[str, str]:
    """Case id → "" (kept) or why the gate dropped it, built once per :func:`gate_key` (:func:`_gate`, kept by
    :func:`passcheck.cases.schema_gate.cached` under ``<cache>/interior/<key>/``)."""
    from passcheck.cases import schema_gate

    return schema_gate.cached(FAMILY, _parts(), _gate)


def _register(cid: str, schema: onnx.defs.OpSchema, node: recipe.Node) -> None:
    name = f"{schema.domain + '.' if schema.domain else ''}{schema.name}-{schema.since_version}"
    register(
        Case(
            id=cid,
            forms=_forms(node),
            opset=_stamp(schema),
            doc=f"""{name} between other nodes: each graph input it reads arrives through Mul(x, 1), each output it
writes leaves through Mul(y, 1) (IR.md §Graphs: a node reads any value; Operators.md Mul-14: x × 1 = x).

Uncommon: boundary: the node alone, reading and writing the graph's interface (the generated set's placement).
Valid: the node's opset; the generator's gate kept the pair.""",
            tags=frozenset({FAMILY, f"interior-{schema.name.lower()}"}),
            parity=frozenset({"status"}),  # the forms differ by the Muls a pass may or may not fold
        )
    )


_VERDICTS = verdicts()
for _versions in candidates():
    for _cid, _schema, _node in _versions:
        if _VERDICTS.get(_cid) == "":
            _register(_cid, _schema, _node)
            break
