"""M210: what shape inference knows of a model and the names it takes are kept per content, never per object."""

from __future__ import annotations

import onnx
from onnx import TensorProto, helper

from passcheck.mutations import _by_content
from passcheck.mutations._base import all_names
from passcheck.mutations._shapes import known


def _model(dim: int) -> onnx.ModelProto:
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"], name="r")],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, dim])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_a_copy_of_a_model_is_inferred_once_and_each_caller_gets_its_own_answer(monkeypatch):
    calls = []
    infer = onnx.shape_inference.infer_shapes
    monkeypatch.setattr(onnx.shape_inference, "infer_shapes", lambda m, *a, **k: calls.append(1) or infer(m, *a, **k))
    known.cache_clear()
    all_names.cache_clear()
    a = _model(3)
    b = onnx.ModelProto()
    b.CopyFrom(a)
    first = known(a)
    assert first["y"].dims == (2, 3)
    first["y"] = None  # the caller's own dict
    again = known(b)
    assert again["y"].dims == (2, 3) and len(calls) == 1
    names = all_names(a)
    names.add("taken-by-caller")
    assert "taken-by-caller" not in all_names(b) and {"x", "y", "r"} <= all_names(b)


def test_another_content_gets_its_own_answer():
    a = _model(3)
    assert known(a)["y"].dims == (2, 3)
    a.graph.input[0].type.tensor_type.shape.dim[1].dim_value = 5  # the same object, changed in place
    assert known(a)["y"].dims == (2, 5)
    assert "z" not in all_names(a)
    a.graph.node[0].output[0] = "z"
    assert "z" in all_names(a)


def test_every_rewrite_lists_the_same_sites_with_or_without_the_kept_answers(monkeypatch):
    """The sites of every rewrite (``compose.sites_of``) on a real base and on each of its neighbours, with the kept
    answers and with none kept (SIZE 0: every call computes afresh, as before M210)."""
    from passcheck.cases import registry
    from passcheck.hunt import compose, variation
    from passcheck.hunt.space import Base
    from passcheck.mutations.forms import named

    base = Base(registry().get("pattern-ort-fusion/reshape-from-shape"), "common")
    models = [named(base.model())]
    for v in base.variations(2)[:3]:
        built = variation.build(base.model(), v, labelled=True)
        if built is not None:
            models.append(built[0])
    assert len(models) > 1
    kept = [compose.sites_of(m) for m in models]
    monkeypatch.setattr(_by_content, "SIZE", 0)
    assert [compose.sites_of(m) for m in models] == kept
    assert any(kept[0].values())


def _models() -> list[onnx.ModelProto]:
    """One hand-written case per family (the id's first part), each case's ``common`` form, node-named as the hunt
    lists them."""
    from passcheck.cases import registry
    from passcheck.mutations.forms import named

    seen, out = set(), []
    for case in registry().select():
        family = case.id.split("/")[0]
        if family in seen or "common" not in case.forms:
            continue
        seen.add(family)
        out.append(named(case.build("common")))
    return out


def test_a_listing_rewrite_lists_the_labels_its_edit_changes_and_leaves_the_model_as_it_was():
    """M211: every rewrite declared ``lists`` (the value-site inserts) gives under ``Rewrite.sites`` the labels,
    in their order, that its edit of a copy changes, on one case of each family, and never edits the model it
    lists."""
    from passcheck.mutations.registry import REWRITES

    listing = [r for r in REWRITES.values() if r.lists]
    assert {"neutral-op", "cast-round-trip", "through-sequence", "transpose-identity"} <= {r.id for r in listing}
    models = _models()
    assert len(models) > 20
    some = 0
    for m in models:
        before = m.SerializeToString()
        for r in listing:
            copy = onnx.ModelProto()
            copy.CopyFrom(m)
            edited = r.edit(copy, None)
            if r.alternatives:  # one of each node's alternative sites, in the listing's order
                listed = r.sites(m)
                assert [s for s in listed if s in edited] == edited, (r.id, m.graph.name)
                nodes = {s.rsplit(":", 1)[0] for s in listed}
                assert sorted(s.rsplit(":", 1)[0] for s in edited) == sorted(nodes), (r.id, m.graph.name)
            else:
                assert r.sites(m) == edited, (r.id, m.graph.name)
            assert m.SerializeToString() == before, r.id
            some += bool(edited)
    assert some > len(models)
