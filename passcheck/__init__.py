"""passcheck: find the bugs ONNX graph passes hide behind a working default case.

Public API, grouped:

- Running: :func:`run` (cases × passes), :func:`check_model` (a user's model), :class:`Report`,
  :func:`close_workers` (free the isolation workers kept between calls).
- Records: :class:`Finding`, :class:`CellResult`.
- Cases: :class:`Case`, :class:`Form`, :class:`Expectation`, :func:`register_case`.
- Passes: :class:`PassAdapter`, :class:`FunctionAdapter`, :func:`register_pass`, :func:`get_pass`.
- Annotations: :func:`check_annotations` (seed 000 semantics on one run's values).
- Testing: :func:`check_pass`, :func:`assert_pass_ok`, :func:`assert_model_ok`, :class:`FindingsError`
  (see :mod:`passcheck.testing`; the pytest plugin is :mod:`passcheck.pytest_plugin`).
- Errors: :class:`PasscheckError`, :class:`PasscheckInternalError`.
"""

__version__ = "0.1.0"

#: Public name → (module, attribute). Imported on first use (PEP 562), so that importing a
#: submodule (the pytest plugin, the runtime) does not load onnx, onnxruntime or the oracles.
_PUBLIC = {
    "Report": ("passcheck.api", "Report"),
    "check_model": ("passcheck.api", "check_model"),
    "close_workers": ("passcheck.api", "close_workers"),
    "run": ("passcheck.api", "run"),
    "Case": ("passcheck.case_model", "Case"),
    "Expectation": ("passcheck.case_model", "Expectation"),
    "Form": ("passcheck.case_model", "Form"),
    "register_case": ("passcheck.cases", "register"),
    "PasscheckError": ("passcheck.errors", "PasscheckError"),
    "PasscheckInternalError": ("passcheck.errors", "PasscheckInternalError"),
    "check_annotations": ("passcheck.oracles.shape_annotations", "check"),
    "FunctionAdapter": ("passcheck.passes", "FunctionAdapter"),
    "PassAdapter": ("passcheck.passes", "PassAdapter"),
    "get_pass": ("passcheck.passes", "get_pass"),
    "register_pass": ("passcheck.passes", "register_pass"),
    "CellResult": ("passcheck.records", "CellResult"),
    "Finding": ("passcheck.records", "Finding"),
    "FindingsError": ("passcheck.testing", "FindingsError"),
    "assert_model_ok": ("passcheck.testing", "assert_model_ok"),
    "assert_pass_ok": ("passcheck.testing", "assert_pass_ok"),
    "check_pass": ("passcheck.testing", "check_pass"),
}


def __getattr__(name: str):
    try:
        module, attr = _PUBLIC[name]
    except KeyError:
        raise AttributeError(f"module 'passcheck' has no attribute {name!r}") from None
    import importlib

    value = getattr(importlib.import_module(module), attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_PUBLIC])


__all__ = [
    # running
    "Report",
    "check_model",
    "close_workers",
    "run",
    # records
    "CellResult",
    "Finding",
    # cases
    "Case",
    "Expectation",
    "Form",
    "register_case",
    # passes
    "FunctionAdapter",
    "PassAdapter",
    "get_pass",
    "register_pass",
    # annotations
    "check_annotations",
    # testing
    "FindingsError",
    "assert_model_ok",
    "assert_pass_ok",
    "check_pass",
    # errors
    "PasscheckError",
    "PasscheckInternalError",
]
