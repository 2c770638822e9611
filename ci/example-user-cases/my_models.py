"""Your own ONNX files as passcheck cases: copy this module into your repository (the folder
you give as ``cases-from`` in ci/example-user-workflow.yml) and put your models beside it in
``models/``.

Each ``models/*.onnx`` becomes case ``mymodels/<file stem>``: form ``common`` is the file as your
exporter wrote it, and every passcheck rewrite that applies to it (negative axes, raw_data
initializers, Constant nodes instead of initializers, no value_info, ...; see
:mod:`passcheck.mutations`) is an uncommon but equivalent form of the same computation. Each
symbolic input dimension (dim_param) is bound to 1, then to 3.
"""

from pathlib import Path

import onnx

from passcheck.cases import Case, Form, register
from passcheck.mutations import mutants

MODELS = Path(__file__).resolve().parent / "models"


def _build(path: Path, rewrite: str | None = None):
    def build() -> onnx.ModelProto:
        model = onnx.load(str(path))
        return model if rewrite is None else mutants(model, [rewrite])[rewrite][0]

    return build


def _symbols(model: onnx.ModelProto) -> list[str]:
    return sorted({d.dim_param for i in model.graph.input for d in i.type.tensor_type.shape.dim if d.dim_param})


for path in sorted(MODELS.glob("*.onnx")):
    model = onnx.load(str(path))
    forms = {"common": Form(_build(path))}
    forms.update((r, Form(_build(path, r), doc=applied.detail)) for r, (_, applied) in mutants(model).items())
    opset = next(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
    if len(forms) > 1:
        register(
            Case(
                f"mymodels/{path.stem.lower().replace(' ', '-')}",
                forms,
                doc=f"{path.name} as exported, and each rewrite of it",
                opset=opset,
                bindings=[{s: n for s in _symbols(model)} for n in (1, 3)],
            )
        )
