"""``neutral-op``: one neutral op on one value or one edge, each site through the equivalence gate
(real onnx checker and onnxruntime runs), and the single-site forms a pass's matcher sees alone."""

from __future__ import annotations

import mutation_models as M  # beside this file, loaded by conftest.py
import onnx
import pytest

from passcheck.engine import seed_for
from passcheck.mutations import REWRITES, verify_equivalent
from passcheck.mutations.neutral_ops import NAMES
from passcheck.mutations.registry import mutants
from passcheck.mutations.sites import site_signatures
from passcheck.runtime import default_bindings, synthesize

R = REWRITES["neutral-op"]

#: x read by two nodes (Relu and Mul): value sites and one edge site per reader.
SHARED = lambda opset: M.named(  # noqa: E731
    """g (float[2, 3] x) => (float[2, 3] y) {
    r = Relu(x)
    one = Constant<value = float {1.0}>()
    b = Add(r, one)
    d = Div(one, b)
    s = Mul(x, d)
    y = Neg(s)
}""",
    opset=opset,
)
BOOLS = lambda: M.named(  # noqa: E731
    """g (bool[2, 3] p, bool[2, 3] q) => (bool[2, 3] y) {
    a = And(p, q)
    y = Not(a)
}""",
    opset=18,
)


def feeds(model):
    return [synthesize(model, b, seed_for("t", i)) for i, b in enumerate(default_bindings(model))]


def _ops(model):
    return [n.op_type for n in model.graph.node]


def test_every_op_has_a_site_on_a_float_or_bool_model():
    names = {label.rpartition(":")[2] for label in R.sites(SHARED(18)) + R.sites(BOOLS())}
    assert names == set(NAMES)


@pytest.mark.parametrize("opset", [13, 18])
def test_each_single_site_passes_the_gate(opset):
    """Every (value, op) and (edge, op) site of the model, one at a time, is valid and computes the same."""
    original = SHARED(opset)
    labels = R.sites(original)
    assert "x:cast-same" in labels and "x->n4:cast-same" in labels and "x->n0:cast-same" in labels
    assert not any(label.startswith(("one:", "one->")) for label in labels)  # computed from constants alone
    runs = feeds(original)
    for label in labels:
        mutant, applied = R.apply(original, [label])
        assert list(applied.nodes) == [label]
        verify_equivalent(original, mutant, runs, f"neutral-op@{label}")


def test_all_at_once_passes_the_gate():
    original = SHARED(18)
    mutant, applied = R.apply(original)
    assert len(applied.nodes) == len(R.sites(original))
    verify_equivalent(original, mutant, feeds(original), "neutral-op")


def test_an_edge_site_changes_only_that_reader():
    mutant, _ = R.apply(SHARED(18), ["x->n4:cast-same"])
    nodes = {n.name: n for n in mutant.graph.node}
    cast = next(n for n in mutant.graph.node if n.op_type == "Cast")
    assert list(cast.input) == ["x"] and onnx.helper.get_attribute_value(cast.attribute[0]) == onnx.TensorProto.FLOAT
    assert nodes["n4"].input[0] == cast.output[0]  # Mul reads the Cast
    assert list(nodes["n0"].input) == ["x"]  # Relu still reads x
    assert _ops(mutant)[0] == "Cast"  # right after the value (a graph input: first)


def test_a_value_site_feeds_every_reader_and_keeps_graph_output_names():
    model = M.named(
        """g (float[2, 3] x) => (float[2, 3] y, float[2, 3] a) {
    a = Relu(x)
    y = Neg(a)
}""",
        opset=13,
    )
    mutant, _ = R.apply(model, ["a:dropout-inference"])
    assert [o.name for o in mutant.graph.output] == ["y", "a"]
    producer = {o: n for n in mutant.graph.node for o in n.output}
    assert producer["a"].op_type == "Dropout" and producer[producer["a"].input[0]].op_type == "Relu"
    assert "a->n1:dropout-inference" in R.sites(model)  # a is read and a graph output: an edge site too
    verify_equivalent(model, mutant, feeds(model), "neutral-op@a:dropout-inference")


def test_no_op_is_offered_where_the_schema_does_not_take_the_type():
    labels = R.sites(BOOLS())
    assert "p:and-true" in labels and "p:not-not" in labels
    float_only = (":add-zero", ":div-one", ":dropout-inference", ":dropout-mask-read", ":clip-unbounded")
    assert not any(label.endswith(float_only) for label in labels)
    older = R.sites(SHARED(11))
    older_ops = (":castlike-self", ":dropout-inference", ":dropout-mask-read", ":reduce-max-noop")
    assert not any(label.endswith(older_ops) for label in older)


def test_site_signatures_name_the_inserted_op_and_the_edge_reader():
    signatures = site_signatures(SHARED(18))
    assert R.signature("x->n4:cast-same", signatures) == ("value", "input", ("Cast", "Mul"))
    assert R.signature("x:cast-same", signatures) == ("value", "input", ("Cast", "Mul", "Relu"))
    assert R.signature("x->n0:pad-zeros", signatures) == ("value", "input", ("Pad", "Relu"))
    # a crop and an outranked zero are sampled apart from the zero Pad and the rank-0 zero
    assert R.signature("x->n0:pad-crop", signatures) == ("value", "input", ("Pad:pad-crop", "Relu"))
    assert R.signature("x:add-zero-outrank", signatures) != R.signature("x:add-zero", signatures)
    assert R.signature("x:no-such-op", signatures) == "x:no-such-op"  # no entry, no hook answer: the label
    assert R.signature("x", signatures) == signatures["x"]  # a plain value: the shared map's entry


def test_one_site_per_signature_groups_by_the_rewrites_own_hook():
    """``iter_mutants`` keys ``neutral-op``'s sites by its hook: one single-site form per (value or edge,
    inserted op) signature, not one per label."""
    model = SHARED(18)
    budget: dict = {}
    forms = mutants(model, ["neutral-op"], max_sites=10_000, budget=budget)
    labels = R.sites(model)
    keys = {R.signature(x, site_signatures(model)) for x in labels}
    assert budget["neutral-op"] == (len(keys), len(keys), len(labels)) and len(keys) < len(labels)
    assert len(forms) == 1 + len(keys)


def _planted(pid: str, rewrite):
    from passcheck.passes import FunctionAdapter, register_pass

    register_pass(FunctionAdapter(pid, rewrite))
    return pid


def _fold_pad_into_conv(checked: bool):
    """``Conv(Pad(x, p))``, ``p`` a Constant, zero on the batch and channel axes → ``Conv(x)`` with ``p``'s
    spatial entries added to the Conv's ``pads``; ``checked``: only where every sum is >= 0 (Operators.md Conv:
    pads take values >= 0; Pad-11: a negative pad removes)."""

    def rewrite(model):
        g = model.graph
        producer = {o: n for n in g.node for o in n.output}
        consts = {n.output[0]: onnx.numpy_helper.to_array(n.attribute[0].t) for n in g.node if n.op_type == "Constant"}
        for conv in [n for n in g.node if n.op_type == "Conv"]:
            pad = producer.get(conv.input[0])
            if pad is None or pad.op_type != "Pad" or pad.input[1] not in consts:
                continue
            p = [int(v) for v in consts[pad.input[1]]]
            r = len(p) // 2
            if p[0] or p[1] or p[r] or p[r + 1]:
                continue
            old = next((list(a.ints) for a in conv.attribute if a.name == "pads"), [0] * (2 * (r - 2)))
            new = [o + q for o, q in zip(old, p[2:r] + p[r + 2 :])]
            if checked and min(new) < 0:
                continue
            keep = [a for a in conv.attribute if a.name != "pads"]
            del conv.attribute[:]
            conv.attribute.extend([*keep, onnx.helper.make_attribute("pads", new)])
            conv.input[0] = pad.input[0]
        return model

    return rewrite


def _drop_add_of_zero(checked: bool):
    """``Add(x, z)``, ``z`` a Constant of zeros → ``x``; ``checked``: only where ``z`` has rank 0 (its shape then
    moves no output dim, Broadcasting.md)."""

    def rewrite(model):
        g = model.graph
        consts = {n.output[0]: onnx.numpy_helper.to_array(n.attribute[0].t) for n in g.node if n.op_type == "Constant"}
        for add in [n for n in g.node if n.op_type == "Add" and n.input[1] in consts]:
            z = consts[add.input[1]]
            if z.any() or (checked and z.ndim):
                continue
            for other in g.node:
                other.input[:] = [add.input[0] if v == add.output[0] else v for v in other.input]
            g.node.remove(add)
        return model

    return rewrite


CONV = lambda: M.named(  # noqa: E731
    """g (float[1, 2, 5, 5] x) => (float[1, 3, 3, 3] y) {
    w = Constant<value = float[3, 2, 3, 3] {0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7, -0.8, 0.9, 1.0, -1.1, 1.2, 0.1, -0.2,
        0.3, 0.4, -0.5, 0.6, 0.7, -0.8, 0.9, 1.0, -1.1, 1.2, 0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7, -0.8, 0.9, 1.0, -1.1,
        1.2, 0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7, -0.8, 0.9, 1.0, -1.1, 1.2, 0.1, -0.2, 0.3, 0.4, -0.5, 0.6}>()
    y = Conv(x, w)
}""",
    opset=18,
)


@pytest.mark.parametrize(
    ("label", "fold", "model"),
    [("x:pad-crop", _fold_pad_into_conv, CONV), ("x:add-zero-outrank", _drop_add_of_zero, lambda: SHARED(18))],
)
def test_a_fold_without_its_precondition_is_found_on_the_crop_and_outranked_zero(label, fold, model):
    """``pad-crop`` puts a Pad with a negative pad (a crop) in front of the Conv, ``add-zero-outrank`` an Add of a
    zero of one more rank than x: each passes the gate (bit-equal runs), and a fold that skips the precondition its
    op needs (pads >= 0 in the Conv; a zero that moves no dim) is found on that form only (docs/recall.md R38, R39:
    onnxscript's fuse_pad_into_conv and no_op rules before microsoft/onnxscript#2841, #2672)."""
    from passcheck.hunt.probe import Setting, probe
    from passcheck.passes import unregister_pass
    from passcheck.passes.isolation import executor_for

    original = model()
    assert label in R.sites(original)
    mutant, _ = R.apply(original, [label])
    verify_equivalent(original, mutant, feeds(original), f"neutral-op@{label}")
    with executor_for(None, timeout=60) as ex:
        for checked in (False, True):
            pid = _planted(f"planted:{label.partition(':')[2]}-{checked}", fold(checked))
            try:
                base = probe(Setting("neutral-test"), original, "neutral-op", original, pid, ex)
                out = probe(Setting("neutral-test"), original, f"neutral-op@{label}", mutant, pid, ex)
            finally:
                unregister_pass(pid)
            assert base.status == out.status == "done", (base, out)
            assert base.findings == []
            assert bool(out.findings) is not checked, out.findings


def _erase_dropout(checked: bool):
    """Each ``Dropout`` without ``training_mode`` → its readers of ``output`` read ``data``, the node dropped;
    ``checked``: only a Dropout whose ``mask`` no node reads and no graph output names (Dropout-12: the optional
    mask is an output of its own, all true in inference)."""

    def rewrite(model):
        g = model.graph
        read = {v for n in g.node for v in n.input} | {o.name for o in g.output}
        for drop in [n for n in g.node if n.op_type == "Dropout" and len(n.input) == 1]:
            if checked and len(drop.output) > 1 and drop.output[1] in read:
                continue
            for other in g.node:
                other.input[:] = [drop.input[0] if v == drop.output[0] else v for v in other.input]
            g.node.remove(drop)
        return model

    return rewrite


def test_dropout_mask_read_names_the_mask_and_a_where_reads_it():
    """``dropout-mask-read`` (M156): ``Where(mask, output, 0)`` of an inference Dropout, the gate's real runs
    bit-equal; an eliminator that drops the Dropout without looking at its mask is found on that form only,
    not on the base nor on ``dropout-inference`` (the mask unnamed)."""
    from passcheck.hunt.probe import Setting, probe
    from passcheck.passes import unregister_pass
    from passcheck.passes.isolation import executor_for

    original = SHARED(18)
    assert {"x:dropout-mask-read", "r:dropout-mask-read", "x->n4:dropout-mask-read"} <= set(R.sites(original))
    mutant, _ = R.apply(original, ["r:dropout-mask-read"])
    drop = next(n for n in mutant.graph.node if n.op_type == "Dropout")
    where = next(n for n in mutant.graph.node if n.op_type == "Where")
    assert len(drop.output) == 2 and list(where.input[:2]) == list(drop.output)[::-1] and len(drop.input) == 1
    verify_equivalent(original, mutant, feeds(original), "neutral-op@r:dropout-mask-read")
    plain, _ = R.apply(original, ["r:dropout-inference"])
    with executor_for(None, timeout=60) as ex:
        for checked in (False, True):
            pid = _planted(f"planted:erase-dropout-{checked}", _erase_dropout(checked))
            try:
                runs = [
                    probe(Setting("neutral-test"), original, form, model, pid, ex)
                    for form, model in (
                        ("neutral-op", original),
                        ("neutral-op@r:dropout-inference", plain),
                        ("neutral-op@r:dropout-mask-read", mutant),
                    )
                ]
            finally:
                unregister_pass(pid)
            assert all(run.status == "done" for run in runs), runs
            assert runs[0].findings == runs[1].findings == []
            assert bool(runs[2].findings) is not checked, runs[2].findings


@pytest.mark.parametrize("opset", [13, 18])
def test_split_third_hands_the_value_on_from_the_third_output(opset):
    """``split-third`` (M213): the reader reads output 2 of ``Split(Concat(f, f, x, axis=0), axis=0)`` into three
    equal parts, ``f`` x's shape filled with 7 (IR.md: a node's outputs are positional; Split-13 equal parts
    without sizes, Split-18 ``num_outputs``); the gate's real runs (checker, onnxruntime) bit-equal; the other reader
    keeps ``x``."""
    original = SHARED(opset)
    assert {"x:split-third", "x->n4:split-third"} <= set(R.sites(original))
    mutant, _ = R.apply(original, ["x->n4:split-third"])
    nodes = {n.name: n for n in mutant.graph.node}
    (split,) = [n for n in mutant.graph.node if n.op_type == "Split"]
    (concat,) = [n for n in mutant.graph.node if n.op_type == "Concat"]
    assert concat.input[2] == "x" and concat.input[0] == concat.input[1] != "x"  # the other parts differ from x
    (expand,) = [n for n in mutant.graph.node if n.op_type == "Expand"]
    assert expand.output[0] == concat.input[0] and list(split.input) == [concat.output[0]] and len(split.output) == 3
    assert nodes["n4"].input[0] == split.output[2] and list(nodes["n0"].input) == ["x"]
    assert ("num_outputs" in {a.name for a in split.attribute}) is (opset >= 18)
    signatures = site_signatures(original)  # sampled apart from split-one, whose reader reads output 0
    assert R.signature("x:split-third", signatures) == ("value", "input", ("Mul", "Relu", "Split:split-third"))
    assert R.signature("x:split-third", signatures) != R.signature("x:split-one", signatures)
    verify_equivalent(original, mutant, feeds(original), "neutral-op@x->n4:split-third")
    value, _ = R.apply(original, ["x:split-third"])  # a graph input: both readers read the third output
    (split,) = [n for n in value.graph.node if n.op_type == "Split"]
    assert sum(n.input[:].count(split.output[2]) for n in value.graph.node) == 2
    verify_equivalent(original, value, feeds(original), "neutral-op@x:split-third")


def _first_output_for_last(model: onnx.ModelProto) -> onnx.ModelProto:
    """Planted: every reader of a multi-output Split's last output reads its first output instead."""
    for split in [n for n in model.graph.node if n.op_type == "Split" and len(n.output) > 1]:
        for n in model.graph.node:
            n.input[:] = [split.output[0] if i == split.output[-1] else i for i in n.input]
    return model


def test_a_pass_reading_the_wrong_split_output_is_caught_on_split_third():
    """The parts before x are filled with another value, so a pass that moves a reader to another output of the
    Split changes the numbers: caught on ``split-third``'s form, not on the base (which has no Split)."""
    from passcheck.mutations.subject import mutation_subject

    from ._models import run_planted

    form = "neutral-op@x->n4:split-third"
    subject, applied = mutation_subject(SHARED(18), "split-third", [form])
    assert form in applied
    cells = run_planted(subject, "planted:split-first-output", _first_output_for_last)
    flagged = {c.form for c in cells if c.findings}
    assert form in flagged and "common" not in flagged, flagged


def test_split_third_reaches_onnxruntime_gemm_sum_fusion_moving_edges_by_output_index():
    """On the library's ``pattern-ort/gemm-sum`` base, ``neutral-op@x:split-third`` makes Gemm's A the third output
    of a Split; onnxruntime's GemmSumFusion (``ort:basic``) then fails the session (its edge move asserts the
    producer's output index is below 2: docs/found.md row 907), a finding on that form only, none on the base nor
    on ``split-one`` (the value at output 0)."""
    import onnxruntime
    from packaging.version import Version

    from passcheck.cases import registry
    from passcheck.hunt import documented
    from passcheck.hunt.probe import Setting, probe
    from passcheck.passes.isolation import executor_for
    from passcheck.signature import Signature

    if Version(onnxruntime.__version__) > Version("1.32.0"):
        pytest.skip("row 907 was seen in onnxruntime <= 1.32.0")
    original = registry().get("pattern-ort/gemm-sum").forms["common"].build()
    third, _ = R.apply(original, ["x:split-third"])
    first, _ = R.apply(original, ["x:split-one"])
    (gemm,) = [n for n in third.graph.node if n.op_type == "Gemm"]
    assert gemm.input[0] == next(n for n in third.graph.node if n.op_type == "Split").output[2]
    with executor_for(None, timeout=60) as ex:
        outs = [
            probe(Setting("neutral-test"), original, form, model, "ort:basic", ex)
            for form, model in (
                ("neutral-op", original),
                ("neutral-op@x:split-one", first),
                ("neutral-op@x:split-third", third),
            )
        ]
    assert all(o.status == "done" for o in outs), outs
    assert outs[0].findings == outs[1].findings == [], outs[:2]
    assert outs[2].findings and "GemmSumFusion" in str(outs[2].findings), outs[2].findings
    (finding,) = outs[2].findings
    rec = {"signature": Signature.of(finding, models=(original, third)).to_json(), "message": finding.message}
    assert documented.which("", rec)["row"] == "907"  # the hunt calls it known (passcheck/hunt/documented.json)
