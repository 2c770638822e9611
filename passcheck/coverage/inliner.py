"""onnx's function inliner (``onnx.inliner``, the ``onnx:inline-*`` passes), and which a model triggers.

Catalogue, from onnx's own API and schemas:

- ``inline:local-function`` (every variant inlines model-local functions: ``inline_local_functions``,
  and ``inline_selected_functions`` with no id excluded) and ``inline:local-function-other-opset``
  (a called function importing another ai.onnx opset than the model: what ``convert_version=True``
  version-converts, ``onnx:inline-local-functions-convert`` only);
- ``function:Op@since``: every schema of ai.onnx and ai.onnx.ml (``get_all_schemas_with_history``,
  deprecated ones left out) with a function body (``has_function``) or a context-dependent one
  (``has_context_dependent_function``): what ``onnx:inline-schema-functions`` expands. The scope
  says which body, and the opsets the body is written for when onnx says (``function_opset_versions``).

Evidence, by effect on the main graph: a local-function entry when a node calls a model-local
function and the inliner's output no longer has that call (a base calling none is observed as the
hunt spells it with ``node-as-local-function``: the calls an inliner is given in a hunt); a schema entry when
``inline_selected_functions(model, [], exclude=True, inline_schema_functions=True)`` leaves fewer
nodes of the op than the model has (``replaced Op node …``). An inliner that raises on the model
gives no evidence (a finding of the hunt, not an effect).
"""

from __future__ import annotations

import collections

from passcheck.coverage._graph import AS_FUNCTION, as_function, opsets, since
from passcheck.coverage.entry import Entry, key
from passcheck.coverage.shapes import DOMAINS, name

TOOL = "onnx-inliner"
LOCAL = ("onnx:inline-local-functions", "onnx:inline-local-functions-convert", "onnx:inline-schema-functions")
CONVERT = ("onnx:inline-local-functions-convert",)
SCHEMA = ("onnx:inline-schema-functions",)


def body(schema) -> str:
    """Which function body ``schema`` has: ``function``, ``context-dependent function``, both
    joined by ``+``, or ``""``."""
    kinds = []
    if schema.has_function:
        kinds.append("function")
    if getattr(schema, "has_context_dependent_function", False):
        kinds.append("context-dependent function")
    return "+".join(kinds)


def catalogue() -> list[Entry]:
    import onnx

    api = "onnx.inliner (installed API)"
    out = [
        Entry(TOOL, "inline", "local-function", LOCAL, "model-local functions", api),
        Entry(TOOL, "inline", "local-function-other-opset", CONVERT, "convert_version=True", api),
    ]
    src = "onnx.defs schemas with a function body (installed)"
    for s in sorted(onnx.defs.get_all_schemas_with_history(), key=lambda s: (s.domain, s.name, s.since_version)):
        if s.domain not in DOMAINS or s.deprecated or not (kind := body(s)):
            continue
        versions = list(getattr(s, "function_opset_versions", []) or [])
        scope = kind + (f" (body for opsets {versions})" if versions else "")
        out.append(Entry(TOOL, "function", name(s.domain, s.name, s.since_version), SCHEMA, scope, src))
    return out


def triggers(model) -> dict[str, str]:
    """Entry key → effect for every entry ``model`` triggers (see module docs)."""
    out: dict[str, str] = {}
    calls = _calls(model, model)
    if calls:
        out.update(_inlined(model, calls, ""))
        mine = opsets(model).get("")
        other = [f.name for f in model.functions if any(o.domain == "" and o.version != mine for o in f.opset_import)]
        called = sorted(c for c in calls.values() if c in other)
        if called:
            out.update(_converted(model, called[0], mine))
    elif (spelled := as_function(model)) is not None:
        out.update(_inlined(spelled, _calls(spelled, spelled), f" (the base spelled by {AS_FUNCTION})"))
    out.update(_schema_functions(model))
    return out


def _inlined(model, calls: dict[str, str], how: str) -> dict[str, str]:
    import onnx.inliner

    try:
        left = _calls(onnx.inliner.inline_local_functions(model), model)
    except Exception:  # noqa: BLE001 - the inliner failing is a finding elsewhere, not an effect
        return {}
    done = sorted(set(calls) - set(left))
    if not done:
        return {}
    effect = f"inline_local_functions inlined the call '{done[0]}' of local function {calls[done[0]]}{how}"
    return {key(TOOL, "inline", "local-function"): effect}


def _calls(result, model) -> dict[str, str]:
    """Node name or ``#i`` → the local function of ``model`` it calls, for the main-graph nodes of
    ``result`` (``model`` itself, or what the inliner made of it)."""
    local = {(f.domain, f.name) for f in model.functions}
    return {n.name or f"#{i}": n.op_type for i, n in enumerate(result.graph.node) if (n.domain, n.op_type) in local}


def _converted(model, function: str, mine) -> dict[str, str]:
    import onnx.inliner

    try:
        result = onnx.inliner.inline_local_functions(model, convert_version=True)
    except Exception:  # noqa: BLE001 - the inliner failing is a finding elsewhere, not an effect
        return {}
    if any(n.op_type == function for n in result.graph.node):
        return {}
    effect = f"inline_local_functions(convert_version=True) inlined {function}, whose ai.onnx opset differs from {mine}"
    return {key(TOOL, "inline", "local-function-other-opset"): effect}


def _schema_functions(model) -> dict[str, str]:
    import onnx
    import onnx.inliner

    imports = opsets(model)
    wanted = {}
    for i, n in enumerate(model.graph.node):
        domain = "" if n.domain == "ai.onnx" else n.domain
        if domain not in DOMAINS or (v := since(n.op_type, domain, imports.get(domain))) is None:
            continue
        if body(onnx.defs.get_schema(n.op_type, v, domain)):
            wanted.setdefault((domain, n.op_type), (v, n.name or f"#{i}"))
    if not wanted:
        return {}
    try:
        result = onnx.inliner.inline_selected_functions(model, [], exclude=True, inline_schema_functions=True)
    except Exception:  # noqa: BLE001 - the inliner failing is a finding elsewhere, not an effect
        return {}
    count, after = _op_counts(model), _op_counts(result)
    out = {}
    for (domain, op), (v, node) in wanted.items():
        if after[(domain, op)] < count[(domain, op)]:
            out[key(TOOL, "function", name(domain, op, v))] = (
                f"inline_selected_functions(inline_schema_functions=True) replaced {op} node '{node}' by its body"
            )
    return out


def _op_counts(model) -> collections.Counter:
    return collections.Counter(("" if n.domain == "ai.onnx" else n.domain, n.op_type) for n in model.graph.node)
