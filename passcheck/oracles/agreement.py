"""Agreement: every uncommon form computes what ``common`` computes (``input`` cells).

Each form that runs is compared, output by output, with the ``common`` form's run on the same
feeds, with the numeric oracle's tolerances. Its findings are reported under the numeric oracle
(``wrong-result``, message ``differs from form 'common': ...``) so baseline ids stay stable.
"""

from __future__ import annotations

import dataclasses

from passcheck.oracles import numeric
from passcheck.oracles._context import FormRun
from passcheck.oracles._contract import INPUT, BaseOracle, Cells
from passcheck.records import Finding

NAME = "agreement"


def _against_common(run: FormRun, cells: Cells) -> FormRun | None:
    """``run`` with ``common``'s runs as its baseline and ``common``'s model as the model they ran (the numeric
    oracle's float64 and overflow judges evaluate it), or None (``run`` is common, or does not run)."""
    common = cells.runs[0]
    if run.form == common.form or any(r.error for r in run.baseline):
        return None
    return dataclasses.replace(run, baseline=common.baseline, model=common.model)


class Agreement(BaseOracle):
    id = NAME
    reports_as = numeric.NAME
    kinds = frozenset({INPUT})

    def check(self, run: FormRun, cells: Cells) -> list[Finding]:
        cross = _against_common(run, cells)
        found = numeric.check(cross) if cross is not None else []
        for f in found:
            f.message = f"differs from form {cells.runs[0].form!r}: {f.message}"
        return found

    def unchecked_run(self, run: FormRun, cells: Cells) -> dict[str, str]:
        cross = _against_common(run, cells)
        return numeric.unchecked(cross, against=f"form {cells.runs[0].form!r}") if cross is not None else {}


ORACLE = Agreement()
