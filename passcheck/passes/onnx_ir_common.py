"""onnx_ir's common passes (``onnx_ir.passes.common``), one pass id per class.

The list is read from the installed module (:func:`pass_classes`): every class exported there
that derives from onnx_ir's ``PassBase`` and is constructible without arguments, under the id
``onnx-ir:<kebab name without "Pass">`` (``CommonSubexpressionEliminationPass`` →
``onnx-ir:common-subexpression-elimination``). Each is run with its defaults on
``onnx_ir.serde.deserialize_model(model)`` and its ``PassResult.model`` serialized back.

What each pass says it does (its docstring and source in onnx-ir 1.1.0) is declared in
:data:`DECLARED`: none folds constants; the passes that remove or replace nodes are ``optimizes``
(op-type parity between forms applies). Every one is documented as preserving the model's values,
so the checker, annotation and numeric oracles apply to all of them. A class the table does not
name (a newer onnx-ir) runs with no capability claimed, and its description says so.
"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

from passcheck.passes._base import PassAdapter

MODULE = "onnx_ir.passes.common"
PREFIX = "onnx-ir:"

#: class name → (optimizes, what the pass's own docstring/source says it does).
DECLARED: dict[str, tuple[bool, str]] = {
    "AddDefaultAttributesPass": (False, "writes each omitted optional attribute with its schema default"),
    "AddInitializersToInputsPass": (False, "adds every initializer to the graph inputs"),
    "CheckerPass": (False, "runs onnx.checker.check_model (analysis only)"),
    "ClearMetadataAndDocStringPass": (False, "clears metadata_props and doc_string everywhere"),
    "CommonSubexpressionEliminationPass": (True, "merges nodes with equal op, inputs and attributes"),
    "DeduplicateHashedInitializersPass": (False, "merges initializers of equal dtype, shape and hashed content"),
    "DeduplicateInitializersPass": (False, "merges initializers of equal dtype, shape and content"),
    "IdentityEliminationPass": (True, "removes Identity nodes (keeps one from a graph input to a graph output)"),
    "InlinePass": (True, "inlines calls of model-local functions and removes the functions"),
    "LiftConstantsToInitializersPass": (True, "turns Constant nodes holding a `value` tensor into initializers"),
    "LiftSubgraphInitializersToMainGraphPass": (False, "moves subgraph initializers to the main graph"),
    "NameFixPass": (False, "gives every value and node a unique name"),
    "OutputFixPass": (False, "adds Identity where a graph input is an output or an output repeats"),
    "RemoveInitializersFromInputsPass": (False, "removes initializers from the graph inputs"),
    "RemoveUnusedFunctionsPass": (False, "removes model-local functions no node calls"),
    "RemoveUnusedNodesPass": (True, "removes nodes and initializers no output depends on"),
    "RemoveUnusedOpsetsPass": (False, "removes opset imports no node uses"),
    "ShapeInferencePass": (False, "onnx shape inference (check_type, strict_mode, data_prop) on the IR"),
    "TopologicalSortPass": (False, "sorts nodes topologically (stable)"),
}


def pass_id(class_name: str) -> str:
    """``CommonSubexpressionEliminationPass`` → ``onnx-ir:common-subexpression-elimination``."""
    stem = class_name[: -len("Pass")] if class_name.endswith("Pass") else class_name
    return PREFIX + re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", stem).lower()


def pass_classes() -> list[str]:
    """Names of the classes :data:`MODULE` exports that derive from onnx_ir's ``PassBase`` and
    take no required constructor argument, in the module's order; empty when onnx-ir is missing."""
    try:
        module = importlib.import_module(MODULE)
        base = importlib.import_module("onnx_ir.passes").PassBase
    except ImportError:
        return []
    names = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
    return [n for n in names if _constructible(getattr(module, n, None), base)]


def _constructible(cls, base) -> bool:
    if not (inspect.isclass(cls) and issubclass(cls, base) and not inspect.isabstract(cls)):
        return False
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params)


class OnnxIrPassAdapter(PassAdapter):
    """``onnx-ir:<name>``: one class of ``onnx_ir.passes.common``, built with no arguments and
    called on the IR of a private copy of the model.

    Args:
        class_name: the class's name in ``onnx_ir.passes.common``.

    Raises (from :meth:`apply`, recorded as ``crashed``): whatever the pass raises, including
    onnx_ir's ``PassError`` for a model it cannot handle (no pass documents refusing a valid model).
    """

    tools = ("onnx-ir", "onnx")

    def __init__(self, class_name: str):
        self.class_name = class_name
        self.id = pass_id(class_name)
        declared = DECLARED.get(class_name)
        self._optimizes = bool(declared and declared[0])
        what = declared[1] if declared else "capabilities not declared for this onnx-ir release"
        self.doc = f"onnx_ir.passes.common.{class_name}() on the IR: {what}"

    @property
    def optimizes(self) -> bool:  # type: ignore[override]
        return self._optimizes

    @property
    def clears(self) -> frozenset[str]:  # type: ignore[override]
        """The model's, the graphs' (main and bodies) and the functions' doc_string and metadata_props for
        ``ClearMetadataAndDocStringPass`` (its docstring: clear all metadata and docstrings of the model, graphs,
        nodes and functions; onnx-ir 1.1.0 leaves the model's own, a TODO in its source); nothing for the others."""
        if self.class_name == "ClearMetadataAndDocStringPass":
            return frozenset(
                {"model doc_string", "model metadata_props", "graph doc_string", "graph metadata_props"}
                | {"function doc_string", "function metadata_props", "body doc_string", "body metadata_props"}
            )
        return frozenset()

    def apply(self, model, workdir: Path):
        import onnx_ir

        cls = getattr(importlib.import_module(MODULE), self.class_name)
        result = cls()(onnx_ir.serde.deserialize_model(model))
        return onnx_ir.serde.serialize_model(result.model)


def adapters() -> list[OnnxIrPassAdapter]:
    """One adapter per class of :func:`pass_classes`."""
    return [OnnxIrPassAdapter(name) for name in pass_classes()]
