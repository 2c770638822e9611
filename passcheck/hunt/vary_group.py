"""The group neighbour: a Conv or ConvTranspose split into channel groups, its output channels kept.

Operators.md Conv: ``group`` is the number of groups input channels and output channels are divided into; the
weight ``W`` is ``[M, C/group, k1, …]`` (M output channels, C input channels), and C and M must both be
divisible by ``group``. ConvTranspose: ``W`` is ``[C, M/group, k1, …]``, the output has M channels. With
``group`` 1 (the default, and every base's) axis 0 of a Conv weight indexes the output channels and axis 1 the
input channels; with ``group`` g axis 1 holds only ``C/g`` (Conv) and a ConvTranspose's output channels are
``g × W.shape[1]``. A pass that reads a weight's channels off its shape alone (a BatchNormalization folded into a
ConvTranspose's weight along axis 1, a bias broadcast over ``W.shape[0]``) is right only at ``group`` 1.

Kind ``group`` (site ``<node>=<g>``): the node's ``group`` set to ``g``, a divisor > 1 of both its input and its
output channel counts, and its weight sliced to the first ``C/g`` (Conv, along axis 1) or ``M/g`` (ConvTranspose,
along axis 1) entries, which is the shape the schema then requires. The output keeps M channels and its shape,
so every reader of it (a BatchNormalization's per-channel parameters, an Add's bias) stays valid; the bias ``B``
(``[M]``) is unchanged. A weight initializer the node alone reads is sliced in place (its name kept); one that
other nodes read, or a Constant's output, is written as a new initializer ``<W>__group<g>`` the node reads.

Sites: main-graph Conv / ConvTranspose nodes of the default domain with ``group`` 1, a constant weight of rank
≥ 3, and input and output channel counts (read off the weight as above) with a common divisor > 1.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import onnx

KIND = "group"
KINDS = (KIND,)
OPS = ("Conv", "ConvTranspose")


def is_kind(kind: str) -> bool:
    """Whether ``kind`` (without the ``vary:`` prefix) is this module's."""
    return kind == KIND


def channels(op: str, weight_shape: tuple[int, ...]) -> tuple[int, int]:
    """(C input channels, M output channels) of a ``group`` 1 ``op`` whose weight has ``weight_shape``
    (Operators.md Conv: ``[M, C, k…]``; ConvTranspose: ``[C, M, k…]``)."""
    if op == "Conv":
        return weight_shape[1], weight_shape[0]
    return weight_shape[0], weight_shape[1]


def _group(node) -> int:
    return next((a.i for a in node.attribute if a.name == "group"), 1)


def _weights(model: onnx.ModelProto) -> Iterator[tuple[onnx.NodeProto, object]]:
    """(node, weight array) of every Conv / ConvTranspose of group 1 with a constant weight of rank ≥ 3."""
    from passcheck.hunt.graph_values import constants

    consts = constants(model)
    for n in model.graph.node:
        if n.op_type in OPS and n.domain in ("", "ai.onnx") and len(n.input) > 1 and _group(n) == 1:
            w = consts.get(n.input[1])
            if w is not None and w.ndim >= 3:
                yield n, w


def candidates(model: onnx.ModelProto) -> Iterator[tuple[str, str]]:
    """(kind, site) of every group neighbour of ``model`` (module docs)."""
    for n, w in _weights(model):
        c, m = channels(n.op_type, w.shape)
        common = math.gcd(c, m)
        for g in range(2, common + 1):
            if common % g == 0:
                yield KIND, f"{n.name}={g}"


def build(model: onnx.ModelProto, site: str) -> bool:
    """Change ``model`` in place into the neighbour ``group@site``; False when ``site`` is no site of it."""
    from onnx import helper, numpy_helper

    from passcheck.hunt.graph_values import readers
    from passcheck.hunt.value_names import fresh, graph_names

    name, _, g_text = site.rpartition("=")
    if not g_text.isdigit():
        return False
    g = int(g_text)
    hit = next(((n, w) for n, w in _weights(model) if n.name == name), None)
    if hit is None or g < 2:
        return False
    node, w = hit
    c, m = channels(node.op_type, w.shape)
    if c % g or m % g:
        return False
    sliced = w[:, : w.shape[1] // g].copy()  # Conv: C/g input channels; ConvTranspose: M/g output channels
    wname = node.input[1]
    inits = {t.name: t for t in model.graph.initializer}
    if wname in inits and len(readers(model).get(wname, [])) == 1:
        inits[wname].CopyFrom(numpy_helper.from_array(sliced, wname))
    else:
        new = fresh(f"{wname}__group{g}", graph_names(model))
        model.graph.initializer.append(numpy_helper.from_array(sliced, new))
        node.input[1] = new
    kept = [a for a in node.attribute if a.name != "group"]
    del node.attribute[:]
    node.attribute.extend([*kept, helper.make_attribute("group", g)])
    return True
