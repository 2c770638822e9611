"""PyTorch modules exported by ``torch.onnx.export``: the dynamo exporter (``torch-dynamo``) and
the TorchScript one (``torchscript``, where the installed torch still has it).

``example_inputs`` is a tuple of tensors; the module is run in eval mode under ``no_grad`` as the
source. Needs torch (the ``torch`` extra, or the cached environment in
:mod:`passcheck.exporters.torch_env`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from passcheck.exporters._base import Dynamic, Exporter, resample

OPSET = 18


def _names(n: int) -> list[str]:
    return [f"input_{i}" for i in range(n)]


def _flat(out: Any) -> list[Any]:
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in _flat(o)]
    return [out]


class _TorchExporter(Exporter):
    framework = "PyTorch"
    dynamo = True

    def export(self, source, example_inputs, dynamic: Dynamic):
        import io

        import onnx
        import torch

        source.eval()
        args = tuple(example_inputs)
        names = _names(len(args))
        with torch.no_grad():
            n_out = len(_flat(source(*args)))
        out_names = [f"output_{i}" for i in range(n_out)]
        if self.dynamo:
            shapes = tuple(
                {a: torch.export.Dim(sym, min=1) for a, sym in dynamic.get(i, {}).items()} or None
                for i in range(len(args))
            )
            kw: dict[str, Any] = {"dynamo": True, "dynamic_shapes": shapes if dynamic else None, "optimize": True}
        else:
            axes = {names[i]: dict(dynamic[i]) for i in dynamic}
            kw = {"dynamo": False, "dynamic_axes": axes or None}
        buf = io.BytesIO()
        torch.onnx.export(source, args, buf, input_names=names, output_names=out_names, opset_version=OPSET, **kw)
        return onnx.load_from_string(buf.getvalue())

    def inputs_at(self, example_inputs, dynamic, binding: Mapping[str, int], seed: int):
        import torch

        rng = np.random.default_rng(seed)
        return [
            torch.from_numpy(resample(t.detach().cpu().numpy(), dynamic.get(i, {}), binding, rng))
            for i, t in enumerate(example_inputs)
        ]

    def run_source(self, source, inputs):
        import torch

        source.eval()
        with torch.no_grad():
            return [t.detach().cpu().numpy() for t in _flat(source(*inputs))]

    def feeds(self, model, inputs):
        wanted = {i.name for i in model.graph.input}
        return {n: t.numpy() for n, t in zip(_names(len(inputs)), inputs) if n in wanted}

    def versions(self):
        import torch

        return {"torch": torch.__version__}


class DynamoExporter(_TorchExporter):
    id = "torch-dynamo"
    dynamo = True


class TorchScriptExporter(_TorchExporter):
    id = "torchscript"
    dynamo = False
