"""passcheck: find the bugs ONNX graph passes hide behind a working default case.

Public API, grouped:

- Running: :func:`run` (cases × passes), :func:`check_model` (a user's model), :class:`Report`.
- Records: :class:`Finding`, :class:`CellResult`.
- Cases: :class:`Case`, :class:`Form`, :class:`Expectation`, :func:`register_case`.
- Passes: :class:`PassAdapter`, :class:`FunctionAdapter`, :func:`register_pass`, :func:`get_pass`.
- Annotations: :func:`check_annotations` (seed 000 semantics on one run's values).
- Testing: :func:`check_pass`, :func:`assert_pass_ok`, :func:`assert_model_ok`, :class:`FindingsError`
  (see :mod:`passcheck.testing`; the pytest plugin is :mod:`passcheck.pytest_plugin`).
- Errors: :class:`PasscheckError`, :class:`PasscheckInternalError`.
"""

__version__ = "0.1.0"

from passcheck.api import Report, check_model, run  # noqa: E402
from passcheck.cases import Case, Expectation, Form  # noqa: E402
from passcheck.cases import register as register_case  # noqa: E402
from passcheck.errors import PasscheckError, PasscheckInternalError  # noqa: E402
from passcheck.oracles.shape_annotations import check as check_annotations  # noqa: E402
from passcheck.passes import FunctionAdapter, PassAdapter, get_pass, register_pass  # noqa: E402
from passcheck.records import CellResult, Finding  # noqa: E402
from passcheck.testing import FindingsError, assert_model_ok, assert_pass_ok, check_pass  # noqa: E402

__all__ = [
    # running
    "Report", "check_model", "run",
    # records
    "CellResult", "Finding",
    # cases
    "Case", "Expectation", "Form", "register_case",
    # passes
    "FunctionAdapter", "PassAdapter", "get_pass", "register_pass",
    # annotations
    "check_annotations",
    # testing
    "FindingsError", "assert_model_ok", "assert_pass_ok", "check_pass",
    # errors
    "PasscheckError", "PasscheckInternalError",
]
