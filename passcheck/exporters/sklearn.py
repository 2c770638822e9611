"""scikit-learn models exported by skl2onnx (``to_onnx``; ``ai.onnx.ml`` ops included).

``example_inputs`` is one 2-D array ``X [n, features]`` (or a one-element sequence of it); the
source outputs are ``predict(X)`` and, for classifiers, ``predict_proba(X)`` (ZipMap disabled so
probabilities are a tensor). Needs the ``sklearn`` extra: ``pip install 'passcheck[sklearn]'``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from passcheck.exporters._base import Dynamic, Exporter, resample

TARGET_OPSET = {"": 17, "ai.onnx.ml": 3}


class SklearnExporter(Exporter):
    id = "sklearn"
    framework = "scikit-learn"

    def export(self, source: Any, example_inputs: Sequence[Any], dynamic: Dynamic):
        from skl2onnx import to_onnx
        from skl2onnx.common.data_types import guess_data_type

        (x,) = example_inputs
        x = np.asarray(x)
        # skl2onnx takes no dim names next to sizes: a dynamic axis is None (an unnamed dim)
        shape = [None if a in dynamic.get(0, {}) else d for a, d in enumerate(x.shape)]
        ((name, kind),) = guess_data_type(x)
        options = {id(source): {"zipmap": False}} if hasattr(source, "predict_proba") else None
        return to_onnx(source, initial_types=[("X", type(kind)(shape))], options=options, target_opset=TARGET_OPSET)

    def inputs_at(self, example_inputs, dynamic, binding: Mapping[str, int], seed: int):
        (x,) = example_inputs
        return [resample(np.asarray(x), dynamic.get(0, {}), binding, np.random.default_rng(seed))]

    def run_source(self, source, inputs):
        (x,) = inputs
        out = [np.asarray(source.predict(x))]
        if hasattr(source, "predict_proba"):
            out.append(np.asarray(source.predict_proba(x)))
        return out

    def feeds(self, model, inputs):
        return {model.graph.input[0].name: np.asarray(inputs[0])}

    def versions(self):
        import skl2onnx
        import sklearn

        return {"scikit-learn": sklearn.__version__, "skl2onnx": skl2onnx.__version__}
