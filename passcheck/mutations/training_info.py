"""Training information an inference model may carry (issue 27). ONNX spec: IR.md §Training
Related Information (IR >= 7: ``ModelProto.training_info``, each a TrainingInfoProto with an
``initialization`` and an ``algorithm`` graph whose ``update_binding`` names the initializers a
training step assigns) and §Model Semantics (an inference-only runtime ignores it): the model's
inference graph, and so what it computes, is unchanged.

- ``add-training-info``: one entry whose algorithm is a no-op training step, ``w_next =
  Identity(w)`` bound back to ``w`` for the first initializer that is not a graph input, and an
  empty initialization graph; the IR version is raised to 7 when lower.
- ``strip-training-info``: every entry removed.

Site: ``model``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, chosen, fresh_name
from passcheck.mutations._freedom import Freedom
from passcheck.mutations.ir_version import raise_ir

if TYPE_CHECKING:
    import onnx

IR_TRAINING_INFO = 7


def add(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """The model → the model with one no-op TrainingInfoProto (see the module docstring)."""
    import onnx

    g = model.graph
    inputs = {v.name for v in g.input}
    w = next((t for t in g.initializer if t.name not in inputs), None)
    if w is None or len(model.training_info) or not chosen(only, "model"):
        return []
    taken = all_names(model)
    nxt = fresh_name(taken, f"{w.name}_next")
    step = onnx.helper.make_node("Identity", [w.name], [nxt], name=fresh_name(taken, f"{nxt}_node"))
    out = onnx.helper.make_tensor_value_info(nxt, w.data_type, list(w.dims))
    info = model.training_info.add()
    info.algorithm.CopyFrom(onnx.helper.make_graph([step], fresh_name(taken, "algorithm"), [], [out]))
    info.initialization.CopyFrom(onnx.helper.make_graph([], fresh_name(taken, "initialization"), [], []))
    binding = info.update_binding.add()
    binding.key, binding.value = w.name, nxt
    if model.ir_version < IR_TRAINING_INFO:
        raise_ir(model, IR_TRAINING_INFO)
    return ["model"]


def strip(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Every TrainingInfoProto removed."""
    if not len(model.training_info) or not chosen(only, "model"):
        return []
    del model.training_info[:]
    return ["model"]


REWRITES = (
    Rewrite(
        "add-training-info",
        "the model → one no-op training step (w_next = Identity(w), bound to w) in training_info (IR >= 7)",
        add,
        inverse="strip-training-info",
        detail="models",
    ),
    Rewrite("strip-training-info", "training_info → none", strip, inverse="add-training-info", detail="models"),
)

FREEDOMS = (
    Freedom(
        "training-info",
        "graphs",
        "IR.md §Training Related Information (IR >= 7); §Model Semantics (an inference-only runtime ignores the "
        "training extensions)",
        "A model may carry TrainingInfoProto entries that inference ignores.",
        ("add-training-info", "strip-training-info"),
        "the model (one site), when it has an initializer that is not a graph input; the IR raised to 7 when lower",
    ),
)
