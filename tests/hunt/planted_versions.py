"""Passes whose behaviour depends on the installed onnxruntime version, loaded with --cases-from
(tests of ``hunt --env``); before 1.32 they leave every model as it is. From onnxruntime 1.32 on:

- ``planted:ort-1.32-drop`` deletes the last node of a model that is spelled unusually (a doc string,
  more than one node, an opset import other than one default-domain entry), an invalid model;
- ``planted:ort-1.32-drop-float16`` deletes the last node of a model with a float16 graph input (an
  ``elem-float16`` neighbour of a float32 base).
"""

import onnxruntime
from onnx import TensorProto

from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

PASS_ID = "planted:ort-1.32-drop"
FLOAT16_PASS_ID = "planted:ort-1.32-drop-float16"


def _unusual(model) -> bool:
    g = model.graph
    docs = [model.doc_string, g.doc_string, *(n.doc_string for n in g.node)]
    opsets = [(o.domain, o.version) for o in model.opset_import]
    return any(docs) or len(g.node) > 1 or len(opsets) != 1 or opsets[0][0] != ""


def _float16_input(model) -> bool:
    return any(i.type.tensor_type.elem_type == TensorProto.FLOAT16 for i in model.graph.input)


def _dropping_from_ort_1_32(when):
    def drop(model):
        if tuple(int(x) for x in onnxruntime.__version__.split(".")[:2]) >= (1, 32) and when(model):
            del model.graph.node[-1]
        return model

    return drop


for _id, _when, _what in (
    (PASS_ID, _unusual, "an unusually spelled model"),
    (FLOAT16_PASS_ID, _float16_input, "a model with a float16 graph input"),
):
    if _id not in known_pass_ids():
        register_pass(
            FunctionAdapter(
                _id,
                _dropping_from_ort_1_32(_when),
                doc=f"test pass: with onnxruntime >= 1.32 deletes the last node of {_what}",
            )
        )


def _forms_only(case_id: str, new_id: str, forms: tuple[str, ...]) -> None:
    """The library case ``case_id`` with only ``forms`` (``common`` first), as ``new_id``: a hunt over it
    tries every neighbour kind on those bases within a small budget."""
    import dataclasses

    from passcheck.cases import register, registry

    reg = registry()
    if not any(c.id == new_id for c in reg.select([])):
        case = next(c for c in reg.select([case_id]) if c.id == case_id)
        register(dataclasses.replace(case, id=new_id, forms={f: case.forms[f] for f in forms}))


# PyTorch's flatten(1) chain that ReshapeFusion turns into the constant [0, -1] (wrong on an empty tensor)
_forms_only("data-prop/reshape-flatten", "hunt-env/reshape-flatten-common", ("common", "identity"))
