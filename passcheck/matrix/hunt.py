"""``passcheck hunt --env ID…``: the judge that runs each hunt item's pair in pinned environments.

The hunt (:mod:`passcheck.hunt.windows`) gates an item's pair in this interpreter and writes it
as a case module; :class:`EnvJudge` runs that case under the item's pass in every environment
from the same model bytes, built once here: one long-lived worker per environment
(``python -m passcheck.matrix.worker serve``, :mod:`passcheck.matrix.serve`) runs the pass and
the oracles on each item, so an item costs those, not a worker's start-up. Where that worker dies,
hangs or reports an error, the item is judged there again through the matrix runner
(:func:`passcheck.matrix.runner.run`: a fresh worker), so a crash, hang or unusable environment is
recorded as the matrix records it.
:func:`bisect_command` says how ``passcheck bisect`` confirms a window.
"""

from __future__ import annotations

import dataclasses
import shlex
import shutil
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import wait as futures_wait
from pathlib import Path

from passcheck import interrupts
from passcheck._procs import Children
from passcheck.matrix import create, cross_env, runner
from passcheck.matrix.envs import EnvSpec
from passcheck.matrix.serve import Server
from passcheck.records import CellResult

#: The packages ``passcheck bisect`` searches (:data:`passcheck.bisect.versions.PACKAGES`).
BISECTABLE = ("onnxruntime", "onnx", "onnxscript", "onnx-ir")
#: Items in a row an environment's long-lived worker may fail before that environment is judged
#: only the matrix's way (a worker per item).
SERVE_FAILURES = 2


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
    fallbacks: list[str] = dataclasses.field(default_factory=list)  # "env: why" of each item judged the matrix's way
    _serving: dict[str, Server] | None = dataclasses.field(default=None, repr=False)
    _children: Children | None = dataclasses.field(default=None, repr=False)
    _tmp: Path | None = dataclasses.field(default=None, repr=False)

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

    def __call__(
        self, module: Path, case_id: str, pass_id: str, forms: Sequence[str] | None = None
    ) -> dict[str, list[CellResult] | str]:
        """The cells of case ``case_id`` (from ``module``) under ``pass_id`` (and ``input``) in
        each environment, or why that environment could not judge it; ``forms``: only those forms'
        cells are judged (default: every form of the case).

        Each environment's long-lived worker (:class:`~passcheck.matrix.serve.Server`) judges it
        from the model bytes built here once; where that worker dies, hangs or reports an error,
        the item is judged again the matrix's way (:meth:`_by_matrix`). After
        :data:`SERVE_FAILURES` such items in a row an environment is judged only that way. The
        environments' cells are then judged against each other (:mod:`passcheck.matrix.cross_env`)."""
        import json

        from passcheck.matrix import plan

        build = self.work / "build"
        shutil.rmtree(build, ignore_errors=True)
        manifest = plan.build_models([case_id], [pass_id], build, [*self.cases_from, str(module)])
        models = self.work / "models"
        models.mkdir(parents=True, exist_ok=True)
        entry = manifest["cases"][0]
        for form in entry["forms"].values():  # stored by content: a worker reads each sha256 once
            name = f"{form['sha256']}.onnx"
            if not (models / name).exists():
                (build / form["file"]).replace(models / name)
            form["file"] = name
        wanted = [f for f in entry["forms"] if forms is None or f in forms]
        entry["cells"] = [[p, f] for p in (plan.INPUT, *entry["passes"]) for f in wanted]
        job = {"models": str(models.resolve()), "cases": [entry], "cases_from": [str(Path(module).resolve())]}
        (self.work / "job.json").write_text(json.dumps(job, indent=1), encoding="utf-8")
        servers = self._servers()
        pool = ThreadPoolExecutor(max_workers=min(len(self.envs), runner.default_jobs()))
        futures = {e: pool.submit(self._judge_in, e, job, module, case_id, pass_id) for e in servers}
        try:
            while futures_wait(list(futures.values()), timeout=0.5).not_done:
                interrupts.check()  # the main thread waits here: an interrupt whose KeyboardInterrupt was lost
        except BaseException:  # interrupted: the workers die now, so the threads reading them return
            self._children.stop()
            pool.shutdown(wait=True, cancel_futures=True)
            raise
        pool.shutdown(wait=True)
        got = {spec.id: futures[spec.id].result() for spec in self.envs}
        cross_env.judge([c for cells in got.values() if not isinstance(cells, str) for c in cells])
        if forms is None:
            return got
        return {e: c if isinstance(c, str) else [x for x in c if x.form in wanted] for e, c in got.items()}

    def _judge_in(self, env_id: str, job: dict, module: Path, case_id: str, pass_id: str) -> list[CellResult] | str:
        server = self._servers()[env_id]
        if server.failures < SERVE_FAILURES:
            cells, why = server.judge(job)
            if cells is not None:
                return cells or "no cell came back"
            self.fallbacks.append(f"{env_id}: {why}")
        return self._by_matrix(env_id, module, case_id, pass_id)

    def _servers(self) -> dict[str, Server]:
        """env id → its long-lived worker (created on first use, with this judge's process registry)."""
        if self._serving is None:
            self._children, self._tmp = Children(), Path(tempfile.mkdtemp(prefix="passcheck-hunt-env-"))
            self._serving = {}
            for spec in self.envs:
                env = create.ensure(spec, self.source, cache=self.cache)
                setup = {
                    "env": spec.id,
                    "repro_env": self.repro_env.get(spec.id, spec.id),
                    "timeout": self.timeout,
                    "cases_from": [str(Path(p).resolve()) for p in self.cases_from],
                }
                folder = self.work / "serve"
                self._serving[spec.id] = Server(env, setup, folder, self.timeout, self._children, self._tmp)
        return self._serving

    def _by_matrix(self, env_id: str, module: Path, case_id: str, pass_id: str) -> list[CellResult] | str:
        """The item judged in ``env_id`` by the matrix runner (a fresh worker; its verdict on deaths)."""
        spec = next(s for s in self.envs if s.id == env_id)
        out = self.work / f"item-{env_id}"
        shutil.rmtree(out, ignore_errors=True)
        outcome = runner.run(
            runner.Options(
                envs=[spec],
                out=out,
                source=self.source,
                cases=[case_id],
                passes=[pass_id],
                cases_from=[*self.cases_from, str(module)],
                jobs=1,
                timeout=self.timeout,
                cache=self.cache,
                progress="none",
                repro_env=self.repro_env,
            )
        )
        info = outcome.environments.get(env_id) or {}
        cells = [c for c in outcome.cells if c.env == env_id]
        return info["error"] if info.get("error") else cells or "no cell came back"

    def close(self, grace: float = 10.0) -> None:
        """Stop the environments' workers: their input is closed (each exits at its end) and they
        get ``grace`` seconds together, then they are killed with whatever they started."""
        if self._serving is None:
            return
        servers, self._serving = list(self._serving.values()), None
        for server in servers:
            server.close_input()
        deadline = time.monotonic() + grace
        for server in servers:
            server.stop(grace=max(0.0, deadline - time.monotonic()))
        self._children.stop()
        shutil.rmtree(self._tmp, ignore_errors=True)

    def __enter__(self) -> EnvJudge:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def bisect_command(specs: Sequence[EnvSpec], window: dict[str, list[str]], finding: str, modules: Sequence[str]) -> str:
    """The ``passcheck bisect`` command confirming a window: the first bisectable package whose
    pin differs between an environment where the signature is present and one where it is absent,
    over those two versions (oldest first); or why there is none (no absent environment, or the
    pins differ in no package bisect searches). The tool the finding is about comes first
    (:func:`passcheck.triage.candidates.tool_of`: ``onnxscript:*`` → onnxscript, ``onnx:*`` →
    onnx, ``ort:*`` and the forms' runtime findings → onnxruntime): bisect holds every other
    package at this interpreter's version, so searching another tool's versions would find the
    finding in all of them."""
    from packaging.version import InvalidVersion, Version

    by_id = {s.id: s for s in specs}
    present = [by_id[e] for e in window.get("present", []) if e in by_id]
    absent = [by_id[e] for e in window.get("absent", []) if e in by_id and e not in window.get("present", [])]
    if not present or not absent:
        return "no bisect: the signature is not absent in any environment that judged it"
    for package in _packages(finding):
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


def _packages(finding: str) -> list[str]:
    """:data:`BISECTABLE`, the tool of ``finding`` (``case:form|pass|oracle|kind``) first."""
    from passcheck.records import Finding
    from passcheck.triage.candidates import tool_of

    parts = finding.split("|")
    if len(parts) != 4:
        return list(BISECTABLE)
    first = tool_of(Finding(parts[3], parts[2], "", "", parts[1], ""))
    return sorted(BISECTABLE, key=lambda p: p != first)


def bisect_commands(signatures: dict[str, dict], pins: dict[str, Sequence[str]], cases_from: Sequence[str]) -> None:
    """Set each windowed signature's ``bisect`` (:func:`bisect_command`) from its own ``window``
    and case module, the environments' pins given as env id → requirement lines (a hunt's
    ``scope["env_pins"]``). Without pins (a hunt from before they were recorded) a signature's
    command is left as it is."""
    if not pins:
        return
    specs = [EnvSpec(env_id, tuple(lines), Path(env_id)) for env_id, lines in pins.items()]
    for rec in signatures.values():
        if rec.get("window") and rec.get("finding"):
            modules = [*cases_from, *([rec["case_module"]] if rec.get("case_module") else [])]
            rec["bisect"] = bisect_command(specs, rec["window"], rec["finding"], modules)
