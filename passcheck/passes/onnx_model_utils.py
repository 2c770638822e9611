"""onnx's model utilities that must keep the computation and the interface: ``onnx:add-prefix`` runs
``onnx.compose.add_prefix(model, "p_", rename_inputs=False, rename_outputs=False)`` (every other name — nodes,
edges, initializers, value infos, functions — prefixed, subgraphs included, the graph's inputs and outputs
kept: the same computation under the same interface), and ``onnx:extract-model`` runs
``onnx.utils.Extractor(model).extract_model(inputs, outputs)`` with the model's own graph inputs (those that
are not initializers) and outputs: the sub-model between them is the whole computation (its docstring: "the
sub-model ... between the given input and output tensors").

Neither optimizes nor folds: a renaming, and an extraction that may drop only what no output reads.
"""

from __future__ import annotations

from pathlib import Path

from passcheck.passes._base import PassAdapter

PREFIX = "p_"


class AddPrefixAdapter(PassAdapter):
    """``onnx:add-prefix``: the model's names prefixed, its graph inputs and outputs kept."""

    id = "onnx:add-prefix"
    tools = ("onnx",)
    carries_external_data = True  # compose.py renames names in proto copies
    doc = f"onnx.compose.add_prefix(model, {PREFIX!r}, rename_inputs=False, rename_outputs=False)"

    def apply(self, model, workdir: Path):
        import onnx.compose

        return onnx.compose.add_prefix(model, PREFIX, rename_inputs=False, rename_outputs=False)


class ExtractModelAdapter(PassAdapter):
    """``onnx:extract-model``: the sub-model between the model's own inputs and outputs."""

    id = "onnx:extract-model"
    tools = ("onnx",)
    doc = "onnx.utils.Extractor(model).extract_model(<its graph inputs less initializers>, <its graph outputs>)"

    def apply(self, model, workdir: Path):
        import onnx.utils

        initializers = {t.name for t in model.graph.initializer}
        inputs = [i.name for i in model.graph.input if i.name not in initializers]
        return onnx.utils.Extractor(model).extract_model(inputs, [o.name for o in model.graph.output])


ADAPTERS = (AddPrefixAdapter(), ExtractModelAdapter())
