"""Rewrite ids → rewrites, and the mutants of a model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from passcheck.errors import RegistryError, UnknownIdError
from passcheck.mutations import (
    attr_no_field, axes, axes_inputs, constants, defaults, gemm, identity, initializers, opset_stamp, optional_inputs, param_rank, precision, raw_data, reshape_chain, shape_counts, shape_slice, shared_nodes, subgraph_constants, topo_order, value_info,
)
from passcheck.mutations._base import Applied, Rewrite

if TYPE_CHECKING:
    import onnx


def _build() -> dict[str, Rewrite]:
    table: dict[str, Rewrite] = {}
    for module in (optional_inputs, shape_slice, constants, initializers, raw_data, axes, defaults, topo_order, value_info, identity,
                   shape_counts, param_rank, subgraph_constants, gemm, opset_stamp,
                   axes_inputs, reshape_chain, shared_nodes, precision, attr_no_field):
        for r in module.REWRITES:
            if r.id in table:
                raise RegistryError(f"rewrite id {r.id!r} is defined twice")
            table[r.id] = r
    return table


#: Stable rewrite id → rewrite, in catalogue order.
REWRITES: dict[str, Rewrite] = _build()


def get_rewrite(form_id: str) -> Rewrite:
    """The rewrite for a ``--form`` id.

    Raises:
        UnknownIdError: no rewrite has that id (close ids suggested).
    """
    try:
        return REWRITES[form_id]
    except KeyError:
        raise UnknownIdError("form", form_id, list(REWRITES)) from None


def mutants(model: "onnx.ModelProto", form_ids: Sequence[str] | None = None) -> dict[str, tuple["onnx.ModelProto", Applied]]:
    """Every rewrite of ``model`` that applies: rewrite id → (mutant, where it applied).

    Args:
        model: the original; never modified.
        form_ids: the rewrites to try (all when None or empty), in the order given.

    Raises:
        UnknownIdError: an id in ``form_ids`` names no rewrite.
    """
    chosen = [get_rewrite(f) for f in dict.fromkeys(form_ids)] if form_ids else list(REWRITES.values())
    out = {}
    for r in chosen:
        applied = r.apply(model)
        if applied is not None:
            out[r.id] = applied
    return out
