"""A pass whose behaviour depends on the installed onnxruntime version, loaded with --cases-from
(tests of ``hunt --env``): from onnxruntime 1.32 on it deletes the last node of a model that is
spelled unusually (a doc string, more than one node, an opset import other than one default-domain
entry), an invalid model; before 1.32 it leaves every model as it is."""

import onnxruntime

from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

PASS_ID = "planted:ort-1.32-drop"


def _unusual(model) -> bool:
    g = model.graph
    docs = [model.doc_string, g.doc_string, *(n.doc_string for n in g.node)]
    opsets = [(o.domain, o.version) for o in model.opset_import]
    return any(docs) or len(g.node) > 1 or len(opsets) != 1 or opsets[0][0] != ""


def _drop_last_node_from_ort_1_32(model):
    if tuple(int(x) for x in onnxruntime.__version__.split(".")[:2]) >= (1, 32) and _unusual(model):
        del model.graph.node[-1]
    return model


if PASS_ID not in known_pass_ids():
    register_pass(
        FunctionAdapter(
            PASS_ID,
            _drop_last_node_from_ort_1_32,
            doc="test pass: with onnxruntime >= 1.32 deletes the last node of an unusually spelled model",
        )
    )
