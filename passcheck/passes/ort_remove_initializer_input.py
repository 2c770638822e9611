"""onnxruntime's ``tools/remove_initializer_from_input.py``: ``remove_initializer_from_input(model)`` drops every
main-graph input that names an initializer (IR.md §Graphs: from IR 4 an initializer need not be a graph input; one
that is, is a default a caller may override). The computation is kept: a caller that feeds only the other inputs
gets what it got before. The tool refuses a model below IR 4 (it returns False and changes nothing), which is
``unavailable`` here, as its own message says.
"""

from __future__ import annotations

from pathlib import Path

from passcheck.passes._base import PassAdapter

ID = "ort-tools:remove-initializer-from-input"


class RemoveInitializerFromInputAdapter(PassAdapter):
    """``ort-tools:remove-initializer-from-input`` (see the module docstring)."""

    id = ID
    tools = ("onnxruntime", "onnx")
    doc = "onnxruntime.tools.remove_initializer_from_input.remove_initializer_from_input(model)"

    def precondition(self, model) -> str | None:
        if model.ir_version < 4:
            return "the tool states a model below IR 4 must list its initializers as graph inputs"
        return None

    def apply(self, model, workdir: Path):
        import contextlib
        import io

        from onnxruntime.tools.remove_initializer_from_input import remove_initializer_from_input

        with contextlib.redirect_stdout(io.StringIO()):  # it prints its refusal
            remove_initializer_from_input(model)
        return model


ADAPTERS = (RemoveInitializerFromInputAdapter(),)
