"""passcheck: find the bugs ONNX graph passes hide behind a working default case."""

__version__ = "0.1.0"
