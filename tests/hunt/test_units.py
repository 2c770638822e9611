"""Units of passcheck.hunt: budgets, form ids, the scheduler's determinism, and site shrinking
with a rewrite that follows the site contract (Rewrite.sites / apply(model, sites))."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from passcheck.hunt.budget import Budget
from passcheck.mutations import forms as hforms
from passcheck.mutations._base import Applied, node_label
from passcheck.mutations.registry import REWRITES

PLANTED = Path(__file__).with_name("planted_hunt.py")


@pytest.mark.parametrize(
    "text,expected",
    [
        ("10m", Budget(seconds=600.0)),
        ("90", Budget(seconds=90.0)),
        ("1.5h", Budget(seconds=5400.0)),
        ("40items", Budget(items=40)),
        ("1item", Budget(items=1)),
    ],
)
def test_budget_parse(text, expected):
    assert Budget.parse(text) == expected


@pytest.mark.parametrize("text", ["", "0s", "ten", "2.5items", "-3m"])
def test_budget_refuses(text):
    with pytest.raises(ValueError):
        Budget.parse(text)


class _SiteCommute:
    """Swap the operands of Add / Mul, site by site (the contract's shape, for tests)."""

    id, doc, inverse, detail = "test-commute", "Add(a, b) → Add(b, a)", None, "nodes"

    def edit(self, model, only=None):
        done = []
        for i, n in enumerate(model.graph.node):
            label = node_label(n, i)
            if (
                n.op_type in ("Add", "Mul")
                and len(n.input) == 2
                and n.input[0] != n.input[1]
                and (only is None or label in only)
            ):
                a, b = n.input
                n.input[0], n.input[1] = b, a
                done.append(label)
        return done

    def sites(self, model):
        import onnx

        copy = onnx.ModelProto()
        copy.CopyFrom(model)
        return self.edit(copy)

    def apply(self, model, sites=None):
        import onnx

        copy = onnx.ModelProto()
        copy.CopyFrom(model)
        done = self.edit(copy, None if sites is None else frozenset(sites))
        return (copy, Applied(self.id, tuple(done), f"{len(done)} nodes")) if done else None


def test_form_ids_parse_and_build(monkeypatch):
    monkeypatch.setitem(REWRITES, "test-commute", _SiteCommute())
    assert hforms.parts("test-commute@a+b+negative-axes") == (("test-commute", "a+b"), ("negative-axes", None))
    assert hforms.kind("test-commute@x+test-commute@y") == "test-commute"
    from passcheck.cases import load_path, registry

    load_path(PLANTED)
    model = registry().get("hunt-test/layernorm").build("common")
    labels = hforms.sites(model, "test-commute")
    assert len(labels) == 3  # Add(var, eps), Mul(n, gamma2), Add(scaled, beta); Mul(d, d) is no swap
    one, changed = hforms.build(model, f"test-commute@{labels[0]}")
    assert changed == [labels[0]]
    assert hforms.build(model, "test-commute@no-such-node") is None
    with pytest.raises(ValueError):
        hforms.parts("no-such-rewrite")


def test_scheduler_is_deterministic_and_prefers_untried_triples():
    from passcheck.cases import load_path
    from passcheck.hunt.scheduler import Scheduler
    from passcheck.hunt.space import bases

    load_path(PLANTED)
    picks = []
    for _ in range(2):
        s = Scheduler(bases(["hunt-test/*"], generated=False), ["planted:negative-axes", "planted:commuted"], seed=5)
        run = []
        for step in range(12):
            item = s.next(step)
            assert s.triples(item) - s.tried, f"step {step}: {item.key} covers nothing new while untried triples remain"
            s.mark(item)
            run.append(item.key)
        picks.append(run)
    assert picks[0] == picks[1] and len(set(picks[0])) == 12


@pytest.mark.parametrize("start", ["test-commute", "negative-axes+test-commute"])
def test_shrink_keeps_one_rewrite_one_site_and_the_fewest_nodes(monkeypatch, start):
    """All-at-once commute breaks two Adds under planted:commuted (after negative axes, which
    plays no part); the shrunk pair is one site of one node."""
    monkeypatch.setitem(REWRITES, "test-commute", _SiteCommute())
    from passcheck.cases import load_path, registry
    from passcheck.hunt.probe import Setting, probe
    from passcheck.hunt.shrink import Shrinker
    from passcheck.passes.isolation import IsolatedExecutor

    load_path(PLANTED)
    model = registry().get("hunt-test/layernorm").build("common")
    mutant, _ = hforms.build(model, start)
    with IsolatedExecutor(timeout=120, preload=[PLANTED]) as ex:
        found = probe(Setting("hunt/test"), model, start, mutant, "planted:commuted", ex)
        assert found.status == "done" and {(f.oracle, f.kind) for f in found.findings} >= {("numeric", "wrong-result")}
        shrunk = Shrinker(
            Setting("hunt/test"), "planted:commuted", "numeric", "wrong-result", ex, time.monotonic() + 600
        ).shrink(model, start)
    assert shrunk is not None and shrunk.finished
    assert hforms.parts(shrunk.form) == (("test-commute", shrunk.labels[0]),) and len(shrunk.labels) == 1
    assert [n.op_type for n in shrunk.common.graph.node] == ["Add"] and [
        n.op_type for n in shrunk.uncommon.graph.node
    ] == ["Add"]


def test_shrink_spells_the_constants_a_rewrite_added_as_initializers():
    """keepdims=0 + Unsqueeze under planted:keepdims0: the Unsqueeze axes the rewrite adds as a
    Constant node end as an initializer (one node fewer, a value and not a computation), and the
    signature's rewrite kind and sites leave that step out."""
    from passcheck.cases import load_path, registry
    from passcheck.hunt.probe import Setting
    from passcheck.hunt.shrink import Shrinker
    from passcheck.passes.isolation import IsolatedExecutor

    load_path(PLANTED)
    model = registry().get("hunt-test/layernorm").build("common")
    with IsolatedExecutor(timeout=120, preload=[PLANTED]) as ex:
        shrunk = Shrinker(
            Setting("hunt/test"), "planted:keepdims0", "numeric", "wrong-result", ex, time.monotonic() + 600
        ).shrink(model, "keepdims-unsqueeze")
    assert shrunk is not None and shrunk.kind == "keepdims-unsqueeze" and "+constant-to-initializer@" in shrunk.form
    assert [
        n.op_type for n in shrunk.uncommon.graph.node if n.op_type not in [m.op_type for m in shrunk.common.graph.node]
    ] == ["Unsqueeze"]
    assert "Constant" not in {n.op_type for n in shrunk.uncommon.graph.node}
    assert all(hforms.parts(shrunk.form)[0][1] == label for label in shrunk.labels)


def test_summary_is_a_table_on_a_terminal_and_tab_separated_elsewhere(monkeypatch):
    import io

    from passcheck.hunt.summary import table

    sigs = {
        "k": {
            "signature": {
                "pass_id": "ort:all",
                "oracle": "parity",
                "kind": "missed-optimization",
                "ops": ["Add", "Mul"],
                "rewrite": "commute-operands",
            },
            "hits": 2,
            "nodes": [3, 3],
            "reproduces": True,
            "case": "hunt/x-1",
            "repro": "passcheck run --cases-from c.py --case hunt/x-1 --pass ort:all",
        }
    }

    class Tty(io.StringIO):
        def isatty(self):
            return True

    plain, tty, narrow = io.StringIO(), Tty(), Tty()
    table(sigs, plain)
    monkeypatch.setenv("COLUMNS", "40")
    table(sigs, narrow)
    monkeypatch.setenv("COLUMNS", "200")
    table(sigs, tty)
    assert plain.getvalue().splitlines()[1].split("\t") == [
        "1",
        "ort:all",
        "parity",
        "missed-optimization",
        "Add,Mul",
        "commute-operands",
        "3/3",
        "2",
        "yes",
        "-",
        "hunt/x-1",
    ]
    assert "┃" in tty.getvalue() and "\t" not in tty.getvalue() and "commute-operands" in tty.getvalue()
    assert "#1 reproduce: passcheck run --cases-from c.py --case hunt/x-1 --pass ort:all" in tty.getvalue()
    assert "…" not in narrow.getvalue()  # folded, not cut


def test_a_signature_the_case_shows_on_its_own_forms_is_told_apart():
    from onnx import TensorProto, helper

    from passcheck.cases import Case, Form, load_path
    from passcheck.hunt.search import _in_case
    from passcheck.passes.isolation import IsolatedExecutor

    load_path(PLANTED)

    def softmax(axis):
        def build():
            g = helper.make_graph(
                [helper.make_node("Softmax", ["x"], ["y"], axis=axis)],
                "s",
                [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
                [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
            )
            return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)

        return build

    case = Case(
        id="hunt-test/softmax-negative",
        forms={"common": Form(softmax(1)), "negative": Form(softmax(-1), "axis counted from the back")},
        doc="Softmax over the last axis, spelled 1 and -1 (tests only).",
        opset=17,
    )
    same = Case(
        id="hunt-test/softmax-twice",
        forms={"common": Form(softmax(1)), "again": Form(softmax(1), "the same")},
        doc="Softmax over axis 1 twice (tests only).",
        opset=17,
    )
    with IsolatedExecutor(timeout=120, preload=[PLANTED]) as ex:
        assert _in_case(case, "planted:negative-axes", "numeric", "wrong-result", ex) == [
            "hunt-test/softmax-negative:negative|planted:negative-axes|numeric|wrong-result"
        ]
        assert _in_case(same, "planted:negative-axes", "numeric", "wrong-result", ex) == []


def test_blame_goes_to_the_rewrite_only_for_what_the_base_does_not_show():
    from passcheck.hunt.probe import blamed
    from passcheck.records import CellResult, Finding

    def cell(form, pass_id, *found):
        return CellResult(
            "c/x",
            form,
            pass_id,
            "ok",
            findings=[
                Finding(k, o, "c/x", form, pass_id, m or f"{o} saw {k} on {form}")
                for o, k, *m in found
                for m in [m[0] if m else ""]
            ],
        )

    no_kernel = "NotImplemented: Could not find an implementation for Cosh node"
    cells = [
        cell("common", "p", ("numeric", "wrong-result"), ("parity", "missed-optimization")),
        cell("r", "p", ("numeric", "wrong-result"), ("annotations", "annotation-violated")),
        cell("common", "input", ("validity", "invalid-model")),
        cell("r", "input", ("runtime", "rejected", no_kernel)),
    ]
    got = {(f.form, f.pass_id, f.oracle) for f in blamed(cells, "r")}
    # both forms wrong: the base's; a parity finding compares the pair; the base's own invalidity is its own
    assert got == {("common", "p", "parity"), ("r", "p", "annotations"), ("r", "input", "runtime")}
    # a pass rejecting the form onnxruntime cannot run, with the same error: a consequence, not a second bug
    cells.append(cell("r", "ort:basic", ("acceptance", "rejected", no_kernel)))
    assert ("r", "ort:basic", "acceptance") not in {(f.form, f.pass_id, f.oracle) for f in blamed(cells, "r")}
    cells[1].findings[1].expected = True
    assert ("r", "p", "annotations") not in {(f.form, f.pass_id, f.oracle) for f in blamed(cells, "r")}
    # what a level left unfolded on that form is its defect too, with a session config key set or not (M489's passes)
    keyed = "ort:all+session.enable_quant_qdq_cleanup=1"
    cells += [cell("r", keyed, ("parity", "missed-optimization")), cell("r", "q", ("parity", "missed-optimization"))]
    got = {(f.form, f.pass_id, f.oracle) for f in blamed(cells, "r")}
    assert ("r", keyed, "parity") not in got and ("r", "q", "parity") in got


def test_what_onnxruntime_leaves_unfolded_on_a_form_it_cannot_run_is_that_forms_defect():
    # Squeeze-13 with its optional axes spelled "" (IR.md: not provided): onnxruntime 1.32's kernel rejects it
    # (docs/found.md #145), so constant folding keeps the Squeeze the base loses; found by a hunt as two
    # signatures (input rejected + ort:extended parity) of one defect, the pair shrinking for neither
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    from passcheck.hunt.probe import Setting, probe
    from passcheck.passes.isolation import IsolatedExecutor

    def model(squeeze_inputs):
        nodes = [helper.make_node("Squeeze", squeeze_inputs, ["s"]), helper.make_node("Add", ["x", "s"], ["y"])]
        x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])
        y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])
        c = numpy_helper.from_array(np.arange(4, dtype=np.float32).reshape(1, 4), "c")
        graph = helper.make_graph(nodes, "g", [x], [y], [c])
        return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])

    with IsolatedExecutor(timeout=120) as ex:
        out = probe(Setting("hunt-test/squeeze-empty"), model(["c"]), "empty-axes", model(["c", ""]), "ort:basic", ex)
    assert out.status == "done", out.reason
    assert [(f.pass_id, f.oracle, f.kind) for f in out.findings] == [("input", "runtime", "rejected")]


def test_signature_ops_come_from_the_sites_else_from_the_base():
    from onnx import TensorProto, helper

    from passcheck.hunt.signature import signature
    from passcheck.records import Finding

    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["r"], name="relu"), helper.make_node("Neg", ["r"], ["y"], name="neg")],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
    )
    m = helper.make_model(g)
    f = Finding("wrong-result", "numeric", "c/x", "r", "p", "m")
    assert signature(f, "rw", [m], ["neg"]).ops == ("Neg",)
    assert signature(f, "rw", [m], ["#0:Relu"]).ops == ("Relu",)
    assert signature(f, "rw", [m], ["r"]).ops == ("Neg", "Relu")  # a value: its writer and its reader
    assert signature(f, "rw", [m], ["no-such-value"]).ops == ("Neg", "Relu")


def test_an_item_the_budget_cut_short_is_unfinished_never_a_finding(monkeypatch, tmp_path):
    """A pass stopped by the time limit the hunt lowered to what was left of its budget is the
    hunt's doing: the item is ``unfinished``, no signature; the same timeout under the full item
    limit is the tool's and counts (issue 30)."""
    import passcheck.hunt.search as search
    from passcheck.cases import Case, Form
    from passcheck.hunt.probe import Outcome
    from passcheck.hunt.space import Base, Item
    from passcheck.records import Finding

    def relu():
        from onnx import parser

        return parser.parse_model(
            '<ir_version: 8, opset_import: ["" : 18]>\ng (float[2] x) => (float[2] y) { y = Relu (x) }'
        )

    case = Case(
        id="hunt-test/relu",
        forms={"common": Form(relu), "again": Form(relu, "the same")},
        doc="Relu (tests only).",
        opset=18,
    )
    timed_out = Finding(
        "rejected", "acceptance", case.id, "r", "p", "p timeout: the pass ran past 5 s", details={"status": "timeout"}
    )
    monkeypatch.setattr(search, "probe", lambda *a, **k: Outcome("done", [timed_out]))
    monkeypatch.setattr(search.hforms, "build", lambda model, form: (model, []))
    monkeypatch.setattr(search, "_found", lambda *a, **k: "sig")
    item, base = Item(f"{case.id}:common", "constant-to-initializer", "p"), Base(case, "common")
    from passcheck.hunt.store import Store

    store = Store(tmp_path, {})
    cut = search._run(store, base, item, None, None, (), cut_short=True)
    assert cut["status"] == "unfinished" and cut["signatures"] == [] and "budget" in cut["reason"]
    full = search._run(store, base, item, None, None, ())
    assert full["status"] == "done" and full["signatures"] == ["sig"]


def test_a_pass_contract_behaviour_is_one_signature_per_tool_not_one_per_op():
    from onnx import TensorProto, helper

    from passcheck.hunt.signature import signature
    from passcheck.records import Finding

    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["r"], name="relu"), helper.make_node("Neg", ["r"], ["y"], name="neg")],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
    )
    m = helper.make_model(g)
    mutated = Finding("input-mutated", "pass-contract", "c/x", "r", "onnxscript:optimize", "the pass changed its input")
    assert signature(mutated, "commute-operands", [m], ["neg"]) == signature(
        mutated, "insert-identity", [m], ["#0:Relu"]
    )
    other_pass = Finding(
        "input-mutated", "pass-contract", "c/x", "r", "onnxscript:rewrite", "the pass changed its input"
    )
    assert signature(other_pass, "commute-operands", [m], ["neg"]) != signature(
        mutated, "commute-operands", [m], ["neg"]
    )
    wrong = Finding("wrong-result", "numeric", "c/x", "r", "onnxscript:optimize", "m")
    assert signature(wrong, "rw", [m], ["neg"]).ops == ("Neg",)  # other oracles keep their op types


def test_a_signatures_case_id_is_its_words_cut_at_60_characters_and_the_hash_of_its_key():
    """The id a shrunk pair is saved under (``hunt/<words>-<8 hex of sha256(key)>``): the words, lower
    case with every other run of characters one ``-``, are cut at 60 characters and never end in ``-``."""
    import hashlib

    from passcheck.signature import Signature

    sig = Signature("onnxscript:optimize", "parity", "wrong-result", ("MatMul",), "x" * 50 + " Split/Concat")
    digest = hashlib.sha256(sig.key.encode()).hexdigest()[:8]
    assert sig.case_id == f"hunt/{'x' * 50}-split-con-{digest}"  # 60 characters of words
    cut_at_dash = Signature("p", "o", "k", (), "y" * 59 + "-z")
    assert cut_at_dash.case_id.startswith(f"hunt/{'y' * 59}-") and cut_at_dash.case_id.count("-") == 1


def test_a_pass_failing_on_the_base_is_the_bases_finding_not_the_rewrites():
    """onnxscript 0.7.2's rewriter crashes on ``Min(Max(x))`` with one input each (FuseMaxMinToClip,
    docs/found.md row 23). A hunt over such a base blamed that crash on every rewrite drawn (the base
    form's crash, or both forms' same crash, under an acceptance finding): 40 of the 50 acceptance
    signatures of a 12-minute ``onnxscript:rewrite`` hunt (seed 41) were a base's own known crash. The
    rewrite is blamed only when the pass fails on its form and not the same way on the base."""
    from onnx import TensorProto, helper

    from passcheck.hunt.probe import Setting, probe
    from passcheck.passes.isolation import IsolatedExecutor

    def model(*nodes):
        graph = helper.make_graph(
            list(nodes),
            "g",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
        )
        return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])

    def min_max(prefix):
        return model(
            helper.make_node("Max", ["x"], ["m"], name=f"{prefix}max"),
            helper.make_node("Min", ["m"], ["y"], name=f"{prefix}min"),
        )

    plain = model(helper.make_node("Identity", ["x"], ["y"]))
    setting = Setting("hunt-test/min-max-one-input")

    def blamed(base, form, mutant):
        out = probe(setting, base, form, mutant, "onnxscript:rewrite", ex)
        assert out.status == "done", out.reason
        return [(f.form, f.oracle, f.kind) for f in out.findings]

    with IsolatedExecutor(timeout=120) as ex:
        # the rewrite brings the crash in: the rewrite's
        assert blamed(plain, "spelled", min_max("")) == [("spelled", "acceptance", "rejected")]
        # the base crashes, the rewritten form too (the same way) or not at all: the base's
        assert blamed(min_max(""), "renamed", min_max("n_")) == []
        assert blamed(min_max(""), "plain", plain) == []
