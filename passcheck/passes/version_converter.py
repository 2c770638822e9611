"""The onnx version converter (``onnx.version_converter.convert_version``) to a target opset."""

from __future__ import annotations

from pathlib import Path

from passcheck.passes._base import PassAdapter, PassDeclined, PassUnsupported, default_opset
from passcheck.passes.converter_limits import stated


class VersionConverterAdapter(PassAdapter):
    tools = ("onnx",)
    converts_opset = True
    #: convert.cc: ImportModelProto → its IR → ExportModelProto; a tensor's bytes are never read.
    carries_external_data = True

    def __init__(self, target: int):
        self.target = target
        self.id = f"onnx:convert-opset-{target}"
        self.doc = f"onnx.version_converter.convert_version(model, {target})"

    def precondition(self, model):
        """The converter works between ai.onnx opsets 1 and the installed onnx's newest; it needs
        the model to import an ai.onnx opset to convert from."""
        import onnx.defs

        newest = onnx.defs.onnx_opset_version()
        if not 1 <= self.target <= newest:
            return f"the installed onnx converts to ai.onnx opsets 1..{newest}, not {self.target}"
        if default_opset(model) is None:
            return "the converter converts the ai.onnx opset; this model imports none"
        return None

    def apply(self, model, workdir: Path):
        import onnx.version_converter

        try:
            return onnx.version_converter.convert_version(model, self.target)
        except (RuntimeError, ValueError) as exc:  # the converter's C++ errors surface as these
            text = f"{type(exc).__name__}: {exc}"
            if m := stated(text):  # a limit the converter states (converter_limits: its own sources' words)
                raise PassUnsupported(f"onnx's version converter: {text[m.start() :]}") from exc
            raise PassDeclined(text) from exc


def _ops(graph) -> set[str]:
    """ai.onnx op types of ``graph`` (or a FunctionProto's body) and its subgraphs."""
    ops: set[str] = set()
    for node in graph.node:
        if node.domain in ("", "ai.onnx"):
            ops.add(node.op_type)
        for attr in node.attribute:
            for g in ([attr.g] if attr.HasField("g") else []) + list(attr.graphs):
                ops |= _ops(g)
    return ops


def _model_ops(model) -> set[str]:
    """ai.onnx op types of ``model``: its graph's and its model-local functions' bodies' (IR.md §Functions: a call
    means its body, whose nodes are operators of the opsets the function imports; onnxscript's converter inlines the
    functions (0.5, 0.7) or converts their bodies (0.6), so a body's op is one the converter must adapt)."""
    ops = _ops(model.graph)
    for f in model.functions:
        ops |= _ops(f)
    return ops


def opset_boundary(model, direction: str) -> tuple[int | None, str]:
    """The neighbouring ai.onnx opset where one of ``model``'s ops changes version, per the
    installed onnx's schemas (``since_version``), and why (or None and why there is none).

    ``down``: one below the newest ``since_version`` among the model's ops at its opset (the
    converter must adapt that op). ``up``: the lowest opset above the model's where one of its ops
    has a new version, at most the installed onnx's newest opset.
    """
    import onnx.defs

    opset, newest = default_opset(model), onnx.defs.onnx_opset_version()
    if opset is None:
        return None, "the converter converts the ai.onnx opset; this model imports none"
    ops = sorted(_model_ops(model))
    if not ops:
        return None, "the model has no ai.onnx node"

    def since(op: str, version: int) -> int | None:
        try:
            return onnx.defs.get_schema(op, version, "").since_version
        except Exception:  # noqa: BLE001 - SchemaError: no such op at that version
            return None

    if direction == "down":
        top = max((since(op, opset) or 0) for op in ops)
        target = top - 1
        missing = [op for op in ops if since(op, target) is None] if target >= 1 else ops
        if target < 1 or missing:
            return (
                None,
                f"{', '.join(missing[:3]) or 'an op'} has no schema below opset {top}: nothing to convert down to",
            )
        return target, (
            f"opset {opset} → {target}: {', '.join(op for op in ops if since(op, opset) == top)}: "
            f"new version at opset {top}"
        )
    for v in range(opset + 1, newest + 1):
        changed = [op for op in ops if (s := since(op, v)) is not None and s > opset]
        if changed:
            return v, f"opset {opset} → {v}: {', '.join(changed)}: new version at opset {v}"
    return None, f"none of the model's ops changes between opset {opset} and onnx's newest ({newest})"


class OpsetBoundaryAdapter(PassAdapter):
    """``onnx:convert-opset-down`` / ``-up``: the version converter to the model's neighbouring
    opset boundary (see :func:`opset_boundary`); the target differs per model."""

    converts_opset = True

    tools = ("onnx",)
    carries_external_data = True

    def __init__(self, direction: str):
        self.direction = direction
        self.id = f"onnx:convert-opset-{direction}"
        self.doc = f"onnx.version_converter.convert_version to the neighbouring opset boundary {direction} (per model)"

    def precondition(self, model):
        target, why = opset_boundary(model, self.direction)
        return None if target is not None else why

    def apply(self, model, workdir: Path):
        target, why = opset_boundary(model, self.direction)
        try:
            return VersionConverterAdapter(target).apply(model, workdir)
        except PassDeclined as exc:  # PassUnsupported (a limit the converter states) stays one
            raise type(exc)(f"{exc} ({why})") from exc
