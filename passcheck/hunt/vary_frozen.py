"""A neighbour whose nodes read a constant where the base reads a fed graph input.

IR.md ("Graphs", "Names Within a Graph") lets a node read an initializer wherever it reads a graph input: an
initializer is a value known before the run. A graph pass may then compute every node whose inputs are all
known: onnxruntime's ConstantFolding runs such a node's kernel at session creation and writes its outputs as
initializers (``core/optimizer/constant_folding.cc``: ``AllNodeInputsAreConstant``), onnxscript's optimizer
folds likewise. The bases feed their inputs at run time, so a node of theirs is folded only where it reads
initializers alone, and the folding path never meets the ops, attributes and output slots (an optional output
written ``""``, IR.md §Optional Inputs and Outputs) the bases put after a graph input.

Form id ``vary:input-constant@<input>`` (:mod:`.variation`):

=====================  =========================================================================================
kind (site)            change
=====================  =========================================================================================
``input-constant``     every reader of the graph input reads a new initializer ``<input>__const`` of the
(input name)           input's declared static shape and element type (any of :data:`ELEMS`), holding
                       :func:`values`; the graph input stays (fed, unread), so the interface and the feeds
                       are the base's; site ``graph``: every site at once (offered where there are two or more:
                       a node is folded only when all its inputs are known, and a base may feed several of them)
=====================  =========================================================================================

Sites: graph inputs fed at run time (no initializer of that name), of an element type of :data:`ELEMS`, every dim
a ``dim_value``, at most :data:`LIMIT` elements, read by at least one main-graph node. IR.md (§Tensor Element Types,
onnx.proto ``TensorProto``) lets an initializer hold every element type a graph input may declare, strings
(``string_data``) and bools included, and a folding pass computes a node on such constants as on float ones
(onnxscript's ``FoldConstantsPass`` converts each constant to numpy and back, onnxruntime's ConstantFolding runs the
CPU kernel registered for the type), so a float-only site list leaves the integer, bool and string paths of the
folders unmet. Not sites: the types numpy holds only through an extension (bfloat16, the float8 and 4-bit types)
and complex. The values downstream are the base's computation on the constant: the unoptimized neighbour is the
reference like any neighbour's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import onnx

KIND = "input-constant"
KINDS = (KIND,)
#: The site that freezes every input :func:`sites` names.
GRAPH = "graph"
SUFFIX = "__const"
#: The most elements a frozen input may hold (an initializer the neighbour's model carries).
LIMIT = 4096
#: TensorProto element types of the sites whose constant is evenly spaced floats: FLOAT16, FLOAT, DOUBLE.
FLOATS = (10, 1, 11)
#: Integer element types (INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64), BOOL and STRING.
INTEGERS = (3, 5, 6, 7, 2, 4, 12, 13)
BOOL, STRING = 9, 8
#: Every element type a frozen input may have.
ELEMS = FLOATS + INTEGERS + (BOOL, STRING)
#: The strings a STRING constant cycles through (the run-time feeds draw from "a", "b", "c"; one of them empty and
#: one of two characters, so a fold that writes fixed-width characters or drops empties changes the value).
TEXTS = ("a", "bc", "", "c")


def is_kind(kind: str) -> bool:
    """Whether ``kind`` (without the ``vary:`` prefix) is this module's."""
    return kind == KIND


def values(shape: tuple[int, ...], elem: int) -> np.ndarray:
    """The constant of ``shape`` and TensorProto element type ``elem`` (one of :data:`ELEMS`), in row-major order:

    - floats: evenly spaced in [-1.5, 1.5], with no two elements equal on an axis of more than one element and no
      0 where the element count is even (a value a pass might take for a neutral operand);
    - integers: ``1, 2, 3, 0, 1, …`` (in [0, 4), the range the run-time feeds draw from, so an index or a count
      the base reads from this input stays in the range its readers accept on a base run);
    - bool: ``True, False, …``; string: :data:`TEXTS` in turn (an object array, numpy_helper's spelling).
    """
    import numpy as np
    from onnx import helper

    n = int(np.prod(shape, dtype=np.int64))
    if elem == STRING:
        return np.array([TEXTS[k % len(TEXTS)] for k in range(n)], dtype=object).reshape(shape)
    if elem == BOOL:
        return (np.arange(n) % 2 == 0).reshape(shape)
    dtype = helper.tensor_dtype_to_np_dtype(elem)
    if elem in INTEGERS:
        return ((np.arange(n) + 1) % 4).astype(dtype).reshape(shape)
    return np.linspace(-1.5, 1.5, n, dtype=np.float64).astype(dtype).reshape(shape)


def sites(model: onnx.ModelProto) -> list[str]:
    """The graph inputs ``model`` may freeze, in input order (see module docs)."""
    inits = {t.name for t in model.graph.initializer}
    read = {v for n in model.graph.node for v in n.input}
    out = []
    for vi in model.graph.input:
        t = vi.type.tensor_type if vi.type.HasField("tensor_type") else None
        if vi.name in inits or vi.name not in read or t is None or t.elem_type not in ELEMS:
            continue
        if not t.HasField("shape") or not all(d.HasField("dim_value") for d in t.shape.dim):
            continue
        size = 1
        for d in t.shape.dim:
            size *= d.dim_value
        if size <= LIMIT:
            out.append(vi.name)
    return out


def candidates(model: onnx.ModelProto):
    """(kind, site) of every neighbour of ``model``."""
    names = sites(model)
    for name in names:
        yield KIND, name
    if len(names) > 1 and GRAPH not in names:
        yield KIND, GRAPH


def frozen(model: onnx.ModelProto, site: str) -> list[str]:
    """The graph inputs the neighbour ``input-constant@site`` freezes in ``model`` (none when ``site`` is no site)."""
    names = sites(model)
    if site == GRAPH and GRAPH not in names:
        return names if len(names) > 1 else []
    return [site] if site in names else []


def build(model: onnx.ModelProto, site: str) -> bool:
    """``model`` changed in place as ``input-constant@site`` says; False when ``site`` is no site of it."""
    names = frozen(model, site)
    for name in names:
        _freeze(model, name)
    return bool(names)


def _freeze(model: onnx.ModelProto, site: str) -> None:
    from onnx import numpy_helper

    vi = next(v for v in model.graph.input if v.name == site)
    t = vi.type.tensor_type
    taken = {v for n in model.graph.node for v in [*n.input, *n.output]} | {i.name for i in model.graph.initializer}
    taken |= {v.name for v in [*model.graph.input, *model.graph.output, *model.graph.value_info]}
    name = f"{site}{SUFFIX}"
    while name in taken:
        name += "_"
    model.graph.initializer.append(
        numpy_helper.from_array(values(tuple(d.dim_value for d in t.shape.dim), t.elem_type), name)
    )
    for n in model.graph.node:
        for i, v in enumerate(n.input):
            if v == site:
                n.input[i] = name
