"""How the opset imports are spelled (IR.md §Operator Sets, §Operator Set Identifiers; onnx.proto
OperatorSetIdProto: the default operator set is named ``""`` or ``ai.onnx``; a model may import
operator sets none of its nodes uses).

- ``opset-import-ai-onnx`` / ``opset-import-empty-domain``: the model's default-domain import
  spelled ``ai.onnx`` / ``""``; nodes keep domain ``""`` (the onnx checker rejects nodes whose domain
  is spelled ``ai.onnx``, see the catalogue, and a function's import spelled ``ai.onnx`` with
  ``""`` nodes in its body). Site: ``model``.
- ``extra-opset-import`` / ``drop-unused-opset-imports``: an import of a domain no node uses
  (``ai.onnx.ml`` version 1 and ``org.passcheck.unused`` version 1) added / every import of a
  domain no node, function or subgraph uses, other than the default, dropped. Sites: the domains.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._graph_edit import set_list
from passcheck.mutations._scopes import scopes

if TYPE_CHECKING:
    import onnx

_EXTRA = (("ai.onnx.ml", 1), ("org.passcheck.unused", 1))


def _import_lists(model: onnx.ModelProto):
    """The import lists whose default-domain spelling may change: the model's only (the onnx checker
    (1.23) looks a function body's default-domain nodes up under the function's "" import)."""
    yield "model", model.opset_import


def _spell(model: onnx.ModelProto, only: frozenset[str] | None, frm: str, to: str) -> list[str]:
    sites = []
    for label, imports in _import_lists(model):
        if not chosen(only, label):
            continue
        hit = [o for o in imports if o.domain == frm]
        if hit and not any(o.domain == to for o in imports):
            for o in hit:
                o.domain = to
            sites.append(label)
    return sites


def to_ai_onnx(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Default-domain imports spelled ``""`` → ``ai.onnx``."""
    return _spell(model, only, "", "ai.onnx")


def to_empty(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Default-domain imports spelled ``ai.onnx`` → ``""``."""
    return _spell(model, only, "ai.onnx", "")


def _used_domains(model: onnx.ModelProto) -> set[str]:
    used = {f.domain for f in model.functions}
    for scope in scopes(model):
        used.update(n.domain for n in scope.body.node)
    return used


def add_unused(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Import ``ai.onnx.ml`` and ``org.passcheck.unused`` (version 1) where not imported."""
    import onnx

    have = {o.domain for o in model.opset_import}
    sites = [d for d, _v in _EXTRA if d not in have and chosen(only, d)]
    model.opset_import.extend(onnx.helper.make_opsetid(d, v) for d, v in _EXTRA if d in sites)
    return sites


def drop_unused(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Drop every non-default import no node, function or subgraph uses."""
    used = _used_domains(model) | {"", "ai.onnx"}
    sites = [o.domain for o in model.opset_import if o.domain not in used and chosen(only, o.domain)]
    if sites:
        set_list(model.opset_import, [o for o in model.opset_import if o.domain not in set(sites)])
    return sites


REWRITES = (
    Rewrite(
        "opset-import-ai-onnx",
        'the model\'s default-domain opset import spelled "" → "ai.onnx"',
        to_ai_onnx,
        inverse="opset-import-empty-domain",
        detail="import lists",
    ),
    Rewrite(
        "opset-import-empty-domain",
        'the default-domain opset import spelled "ai.onnx" → ""',
        to_empty,
        inverse="opset-import-ai-onnx",
        detail="import lists",
    ),
    Rewrite(
        "extra-opset-import",
        "imports of domains no node uses added (ai.onnx.ml 1, org.passcheck.unused 1)",
        add_unused,
        inverse="drop-unused-opset-imports",
        detail="domains",
    ),
    Rewrite(
        "drop-unused-opset-imports",
        "imports of non-default domains no node uses → dropped",
        drop_unused,
        inverse="extra-opset-import",
        detail="domains",
    ),
)

FREEDOMS = (
    Freedom(
        "default-domain-spelling",
        "opset imports",
        'IR.md §Operator Set Identifiers; onnx.proto OperatorSetIdProto (the default domain is "" or "ai.onnx")',
        "The default operator set may be imported under either of its two names.",
        ("opset-import-ai-onnx", "opset-import-empty-domain"),
        'the model\'s import list; nodes keep domain "" (node-domain-ai-onnx: the checker refuses that spelling, as '
        'it does a function import spelled ai.onnx over "" body nodes).',
    ),
    Freedom(
        "unused-opset-import",
        "opset imports",
        "IR.md §Operator Sets (a model names the sets it relies on; importing more is allowed)",
        "A model may import operator sets no node uses, or leave them out.",
        ("extra-opset-import", "drop-unused-opset-imports"),
        "the model's import list (ai.onnx.ml and a custom domain added; every unused non-default domain dropped).",
    ),
)
