"""The copy of a model onnxruntime runs for a profile (``ort_copy``'s defaults), the subgraph nodes it
tags, and the dtype a TensorMeta carries back from a worker: behaviours survivors of
``bench/mutation_score.py`` showed unguarded (``passcheck.runtime.profile``)."""

from __future__ import annotations

import pickle

from onnx import TensorProto, helper

from passcheck.runtime import profile
from passcheck.runtime.profile import TensorMeta, np_dtype, ort_copy, subgraph_nodes
from tests.runtime.test_graph_index_kinds import _body, _model


def test_by_default_the_copy_keeps_node_names_and_leaves_graph_outputs_untyped():
    """Mutants killed: ``tag_nodes: bool = False`` → ``True`` (node names replaced by profile tags) and
    ``untyped: bool = True`` → ``False`` (a wrong output annotation could stop the copy from loading)."""
    model = _model(helper.make_node("Relu", ["x"], ["y"], name="relu"))
    copy = ort_copy(model, [])
    assert [n.name for n in copy.graph.node] == ["relu"]
    assert [o.type.WhichOneof("value") for o in copy.graph.output] == [None]
    assert model.graph.output[0].type.tensor_type.elem_type == TensorProto.FLOAT  # the model itself unchanged


def test_the_nodes_of_a_graphs_attribute_are_subgraph_nodes():
    """Mutants killed in ``subgraph_nodes``: ``att.type == att.GRAPH`` → ``>=`` (a GRAPHS attribute read as its
    empty ``g``) and ``att.type == att.GRAPHS`` → ``!=``: the bodies a GRAPHS attribute lists were skipped."""
    node = helper.make_node("Branches", ["x"], ["y"], domain="custom.x", bodies=[_body("Relu"), _body("Neg")])
    assert [n.op_type for n in subgraph_nodes(_model(node).graph)] == ["Relu", "Neg"]


def test_a_tensor_meta_read_back_from_a_pickle_carries_the_element_types_own_dtype():
    """Mutant killed: the loop of ``_canonical_dtypes`` made empty: numpy unpickles a dtype as a new object,
    which was kept instead of the element type's own, and the TensorMeta read back compared unequal to the one
    sent."""
    profile._canonical_dtypes.cache_clear()  # built here, as in a fresh worker (it is cached per process)
    own = np_dtype(TensorProto.FLOAT)
    assert pickle.loads(pickle.dumps(own)) is not own  # what the replacement is for
    back = pickle.loads(pickle.dumps(TensorMeta((2, 3), own)))
    assert back == TensorMeta((2, 3), own) and back.dtype is own
