"""A scikit-learn pipeline for ``passcheck check-export``: a scaler, then the average of a linear
model and a tree ensemble (skl2onnx writes ``ai.onnx.ml`` Scaler, LinearRegressor and
TreeEnsembleRegressor)::

    passcheck check-export examples/exporter_validation/sklearn_pipeline.py --exporter sklearn
"""

import numpy as np
from sklearn.ensemble import RandomForestRegressor, VotingRegressor
from sklearn.linear_model import Ridge
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

_rng = np.random.default_rng(0)
_X = _rng.standard_normal((64, 4)).astype(np.float32)
_y = 2 * _X[:, 0] + np.sin(_X[:, 1]) - _X[:, 2] * _X[:, 3] + 3.0

model = Pipeline(
    [
        ("scale", StandardScaler()),
        (
            "vote",
            VotingRegressor(
                [("linear", Ridge()), ("forest", RandomForestRegressor(n_estimators=5, max_depth=4, random_state=0))]
            ),
        ),
    ]
).fit(_X, _y)
example_inputs = (_X[:8],)
