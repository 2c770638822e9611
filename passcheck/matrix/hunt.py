"""``passcheck hunt --env ID…``: the judge that runs each hunt item's pair in pinned environments.

The hunt (:mod:`passcheck.hunt.windows`) gates an item's pair in this interpreter and writes it
as a case module; :class:`EnvJudge` runs that case under the item's pass in every environment
with the matrix runner (:func:`passcheck.matrix.runner.run`): the model bytes are built once here,
each environment's worker (``python -m passcheck.matrix.worker run``) runs the pass and the
oracles on them, and a crash, hang or unusable environment is recorded as the matrix records it.
:func:`bisect_command` says how ``passcheck bisect`` confirms a window.
"""

from __future__ import annotations

import dataclasses
import shlex
import shutil
from collections.abc import Sequence
from pathlib import Path

from passcheck.matrix import create, runner
from passcheck.matrix.envs import EnvSpec
from passcheck.records import CellResult

#: The packages ``passcheck bisect`` searches (:data:`passcheck.bisect.versions.PACKAGES`).
BISECTABLE = ("onnxruntime", "onnx", "onnxscript", "onnx-ir")


@dataclasses.dataclass
class EnvJudge:
    """Judges a case in ``envs`` (see module docs).

    Attributes:
        envs: the environments, in the order given.
        source: the passcheck source tree installed into them.
        work: folder for each item's matrix output (``work/item``, replaced per item).
        cases_from: the user's case and pass modules (loaded in every environment).
        timeout: seconds without a result before an environment's worker is killed.
        cache: the environment cache (default ``$PASSCHECK_CACHE``).
        repro_env: env id → the ``--env`` text naming it.
    """

    envs: Sequence[EnvSpec]
    source: Path
    work: Path
    cases_from: Sequence[str] = ()
    timeout: float = 300.0
    cache: Path | None = None
    repro_env: dict[str, str] = dataclasses.field(default_factory=dict)

    def prepare(self) -> dict[str, float]:
        """Create (or reuse) every environment before the budget starts: env id → seconds taken.

        Raises:
            create.EnvCreateError: uv could not create one (the message names it).
        """
        out = {}
        for spec in self.envs:
            try:
                out[spec.id] = create.ensure(spec, self.source, cache=self.cache).seconds
            except create.EnvCreateError as exc:
                raise create.EnvCreateError(f"environment {spec.id} not created: {exc}") from None
        return out

    def __call__(self, module: Path, case_id: str, pass_id: str) -> dict[str, list[CellResult] | str]:
        """The cells of case ``case_id`` (from ``module``) under ``pass_id`` (and ``input``) in
        each environment, or why that environment could not judge it."""
        out = self.work / "item"
        shutil.rmtree(out, ignore_errors=True)
        outcome = runner.run(
            runner.Options(
                envs=self.envs,
                out=out,
                source=self.source,
                cases=[case_id],
                passes=[pass_id],
                cases_from=[*self.cases_from, str(module)],
                jobs=min(len(self.envs), runner.default_jobs()),
                timeout=self.timeout,
                cache=self.cache,
                progress="none",
                repro_env=self.repro_env,
            )
        )
        result: dict[str, list[CellResult] | str] = {}
        for spec in self.envs:
            info = outcome.environments.get(spec.id) or {}
            cells = [c for c in outcome.cells if c.env == spec.id]
            result[spec.id] = info["error"] if info.get("error") else cells or "no cell came back"
        return result


def bisect_command(specs: Sequence[EnvSpec], window: dict[str, list[str]], finding: str, modules: Sequence[str]) -> str:
    """The ``passcheck bisect`` command confirming a window: the first bisectable package whose
    pin differs between an environment where the signature is present and one where it is absent,
    over those two versions (oldest first); or why there is none (no absent environment, or the
    pins differ in no package bisect searches)."""
    from packaging.version import InvalidVersion, Version

    by_id = {s.id: s for s in specs}
    present = [by_id[e] for e in window.get("present", []) if e in by_id]
    absent = [by_id[e] for e in window.get("absent", []) if e in by_id and e not in window.get("present", [])]
    if not present or not absent:
        return "no bisect: the signature is not absent in any environment that judged it"
    for package in BISECTABLE:
        for a in absent:
            for p in present:
                va, vp = a.pin(package), p.pin(package)
                if va and vp and va != vp:
                    try:
                        versions = sorted({va, vp}, key=Version)
                    except InvalidVersion:
                        continue
                    return (
                        f"passcheck bisect --finding {shlex.quote(finding)} "
                        + " ".join(f"--cases-from {shlex.quote(m)}" for m in modules)
                        + f" --package {package} --versions {','.join(versions)}"
                    )
    return (
        f"no bisect: {', '.join(s.id for s in present)} and {', '.join(s.id for s in absent)} pin the same "
        f"{', '.join(BISECTABLE)}; bisect searches only those"
    )
