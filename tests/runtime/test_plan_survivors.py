"""Annotation-plan behaviours survivors of ``bench/mutation_score.py`` showed unguarded, judged through the
annotation check on real onnxruntime observations."""

from __future__ import annotations

import numpy as np
from onnx import TensorProto, helper, parser

from passcheck.oracles import shape_annotations as sa
from passcheck.runtime.observe import observe
from passcheck.runtime.plan import AnnotationPlan


def test_a_shape_with_a_symbolic_dim_has_no_exact_shape_for_the_profiled_shortcut():
    """Mutants killed: ``len(fixed) == len(dims)`` → ``!=`` / ``<=`` in the tensor rule: ``float[N, 3]`` got
    the "exact shape" (3,), and a profiled (3,) tensor matched it, so its rank violation went unsaid."""
    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3] x) => (float[3] y) <int64[1] ax = {0}> {
  h = ReduceSum <keepdims = 0> (x, ax)
  y = Identity (h)
}""")
    model.graph.value_info.append(helper.make_tensor_value_info("h", TensorProto.FLOAT, ["N", 3]))
    observed, unobservable = observe(model, {"x": np.ones((2, 3), np.float32)}, "ort")
    assert type(observed["h"]).__name__ == "TensorMeta" and observed["h"].shape == (3,)
    (v,) = sa.check(model, observed, unobservable=unobservable).violations
    assert (v.value, v.rule) == ("h", "rank"), v


def test_a_name_annotated_in_both_branches_counts_twice():
    """Mutant killed: ``len({s[0] …})`` → ``s[1]`` in ``AnnotationPlan``: values were counted by name, not by
    scoped key, so ``v`` annotated in the then and else branches of an If counted once."""
    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (bool c, float[2] x) => (float[2] y) {
  y = If (c) <then_branch = t () => (float[2] v) { v = Relu (x) }, else_branch = e () => (float[2] v) { v = Neg (x) }>
}""")
    plan = AnnotationPlan(model)
    keys = [s[0] for s in plan.steps if s[1] == "v"]
    assert len(keys) == 2 and len(set(keys)) == 2
    assert plan.count == len({s[0] for s in plan.steps}) == 5  # c, x, y and the two branches' v
