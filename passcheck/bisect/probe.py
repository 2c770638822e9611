"""One probe: the finding's case and pass, run in a pinned environment with one version of the
package under bisection, judged by the matrix machinery (models built once here, isolated workers,
cached uv environments)."""

from __future__ import annotations

import dataclasses
import importlib.metadata
from collections.abc import Sequence
from pathlib import Path

from passcheck.bisect.search import Verdict
from passcheck.matrix.envs import EnvSpec
from passcheck.records import CellResult, Finding

#: Distributions pinned to this interpreter's versions in every probe environment (the package
#: under bisection excepted), so only that package differs from the run that found the finding.
KEEP = ("onnx", "onnxruntime", "onnxscript", "onnx-ir", "numpy", "protobuf")


@dataclasses.dataclass
class Prober:
    """Probes versions of ``package`` for ``finding``.

    Attributes:
        finding: the finding to look for (its id ``case:form|pass|oracle|kind`` is matched).
        package: the distribution whose versions differ between probes (``onnxruntime`` …).
        source: the passcheck source tree installed into each environment.
        out: folder for each probe's matrix output (``out/<version>/``).
        cases_from: case modules the finding's case comes from.
        strict: pin the other tools to this interpreter's versions; a version that cannot be
            installed beside them is retried with only itself pinned (uv resolves the rest).
    """

    finding: Finding
    package: str
    source: Path
    out: Path
    cases_from: Sequence[str] = ()
    cache: Path | None = None
    timeout: float = 300.0
    progress: str | None = "none"
    strict: bool = True

    def __call__(self, version: str) -> Verdict:
        from passcheck.matrix import create, runner

        specs = (
            [self._spec(version, keep=True), self._spec(version, keep=False)]
            if self.strict
            else [self._spec(version, keep=False)]
        )
        errors = []
        for spec in specs:
            try:
                create.ensure(spec, self.source, cache=self.cache)
                break
            except create.EnvCreateError as exc:
                errors.append(str(exc))
        else:
            return Verdict(version, "skip", f"{self.package}=={version} could not be installed: {errors[-1]}")
        outcome = runner.run(
            runner.Options(
                envs=[spec],
                out=self.out / version,
                source=self.source,
                cases=[self.finding.case],
                passes=[self.finding.pass_id],
                cases_from=self.cases_from,
                jobs=1,
                timeout=self.timeout,
                cache=self.cache,
                progress=self.progress,
            )
        )
        versions = {k: v for k, v in (outcome.environments.get(spec.id) or {}).items() if isinstance(v, str)}
        return judge(self.finding, outcome.cells, version, versions)

    def _spec(self, version: str, keep: bool) -> EnvSpec:
        pins = [f"{self.package}=={version}"]
        if keep:
            for dist in KEEP:
                installed = _installed(dist)
                if dist != self.package and installed:
                    pins.append(f"{dist}=={installed}")
        kind = "pinned" if keep else "loose"
        return EnvSpec(
            id=f"bisect-{self.package}-{version}-{kind}",
            pins=tuple(pins),
            path=self.out / "pins.txt",
            doc=f"passcheck bisect: {self.package} {version}",
        )


#: The unchecked parts (CellResult.unchecked keys) that leave an oracle blind: annotations need
#: every annotated value observed; the other oracles compare outputs with the unoptimized run.
#: An oracle not named here is blind on any unchecked part.
_UNCHECKED_PREFIX = {"annotations": "annotation ", "numeric": "output ", "parity": "output ", "folding": "output "}


def judge(
    finding: Finding, cells: Sequence[CellResult], version: str, versions: dict[str, str] | None = None
) -> Verdict:
    """``bad`` when a cell of the finding's case/form/pass holds a finding with its id; ``good``
    when that cell was judged without it (the pass ran, and the finding's oracle saw everything it
    needs); ``skip`` (with the reason) otherwise."""
    versions = versions or {}
    mine = [c for c in cells if (c.case, c.form, c.pass_id) == (finding.case, finding.form, finding.pass_id)]
    if not mine:
        return Verdict(
            version, "skip", f"no result for {finding.case}:{finding.form} under {finding.pass_id}", versions
        )
    cell = mine[-1]
    if any(f.id == finding.id for f in cell.findings):
        return Verdict(version, "bad", "", versions)
    if cell.status in ("unavailable", "skipped", "declined", "crashed", "timeout", "out-of-memory"):
        return Verdict(
            version,
            "skip",
            f"the pass was not judged: {cell.status}{': ' + cell.error if cell.error else ''}",
            versions,
        )
    blind = {k: v for k, v in cell.unchecked.items() if k.startswith(_UNCHECKED_PREFIX.get(finding.oracle, ""))}
    if blind:
        k, v = next(iter(blind.items()))
        return Verdict(version, "skip", f"the {finding.oracle} oracle could not judge it ({k}: {v})", versions)
    others = sorted({f.kind for f in cell.findings})
    return Verdict(version, "good", f"other findings: {', '.join(others)}" if others else "", versions)


def _installed(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None
