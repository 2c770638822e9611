"""Saved runs: the observations a run's oracles judged, kept so the run can be judged again.

``--save-run DIR`` writes ``DIR/runs.jsonl``, one JSON line per judged group
(:class:`passcheck.engine.Judged`: every form of one subject under one pass, or the forms
themselves), ``DIR/models/<sha256>.onnx`` for each model it names (pass inputs and outputs), and
``DIR/environments.json``: each environment id the run used → its exact tool versions. A run saving
into a folder that holds one already appends, after a run-start line of its own: the folder keeps every
run, and :func:`rejudge` judges the latest (:func:`saved_runs` lists them).
Values are stored by kind: tensors as dtype, shape and base64 bytes (strings as a list),
sequences, optionals, maps, and shape-only observations. A value of another kind (a sparse
tensor) is not saved: a rejudged run reports it unobserved.

:func:`rejudge` loads the groups and applies the oracles registered now to the saved runs:
with the same oracles it gives the same cells and findings, without running any pass or model.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from passcheck._locks import exclusive
from passcheck.errors import PasscheckError

if TYPE_CHECKING:
    import onnx

    from passcheck.engine import Judged
    from passcheck.records import CellResult

FORMAT = 1
LINES = "runs.jsonl"
ENVIRONMENTS = "environments.json"
#: ``type`` of the line each run saving into a folder starts with (the groups after it are that run's).
RUN = "run"


def _now() -> str:
    import datetime

    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def _encode(value: Any) -> Any:
    from passcheck.runtime.observe import TensorMeta
    from passcheck.runtime.plan import Repeated

    if value is None:
        return {"t": "none"}
    if isinstance(value, TensorMeta):
        return {"t": "meta", "shape": list(value.shape), "dtype": value.dtype.name}
    if isinstance(value, (np.ndarray, np.generic)):
        a = np.asarray(value)
        if a.dtype.kind in "OUS":
            return {
                "t": "strings",
                "shape": list(a.shape),
                "items": [x.decode() if isinstance(x, bytes) else str(x) for x in a.ravel().tolist()],
            }
        return {
            "t": "array",
            "dtype": a.dtype.name,
            "shape": list(a.shape),
            "data": base64.b64encode(np.ascontiguousarray(a).tobytes()).decode(),
        }
    if isinstance(value, (list, tuple)):
        return {"t": "repeated" if isinstance(value, Repeated) else "list", "items": [_encode(v) for v in value]}
    if isinstance(value, dict):
        return {"t": "map", "items": [[k.item() if hasattr(k, "item") else k, _encode(v)] for k, v in value.items()]}
    if isinstance(value, (bool, int, float, str)):
        return {"t": "scalar", "value": value}
    return {"t": "unsaved", "kind": type(value).__name__}


_UNSAVED = object()


def _dtype(name: str) -> np.dtype:
    try:
        return np.dtype(name)
    except TypeError:
        import ml_dtypes  # bfloat16, float8 kinds: registered by ml_dtypes

        return np.dtype(getattr(ml_dtypes, name))


def _decode(d: dict[str, Any]) -> Any:
    from passcheck.runtime.observe import TensorMeta
    from passcheck.runtime.plan import Repeated

    t = d["t"]
    if t == "none":
        return None
    if t == "meta":
        return TensorMeta(tuple(d["shape"]), _dtype(d["dtype"]))
    if t == "array":
        return np.frombuffer(base64.b64decode(d["data"]), dtype=_dtype(d["dtype"])).reshape(d["shape"]).copy()
    if t == "strings":
        return np.array(d["items"], dtype=object).reshape(d["shape"])
    if t in ("list", "repeated"):
        items = [x for x in (_decode(i) for i in d["items"]) if x is not _UNSAVED]
        return Repeated(items) if t == "repeated" else items
    if t == "map":
        return {k: _decode(v) for k, v in d["items"]}
    if t == "scalar":
        return d["value"]
    return _UNSAVED


def _values(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in ((k, _decode(x)) for k, x in d.items()) if v is not _UNSAVED}


class Recorder:
    """Writes each judged group of a run to ``folder`` (the engine's ``record`` callback), after a
    run-start line; ``continues``: the run resumes the one saved last there (it skips the cells that
    run judged), and :func:`load` reads the two as one.

    One run saves into a folder at a time: ``runs.jsonl`` is held with an exclusive ``flock`` while open.

    Raises:
        PasscheckError: the folder cannot be created or written, or another run is saving there.
    """

    def __init__(self, folder: str | Path, env: str = "local", continues: bool = False):
        from passcheck._versions import environment

        self.folder = Path(folder)
        try:
            (self.folder / "models").mkdir(parents=True, exist_ok=True)
            # one writer: two runs' groups interleaved after both run-start lines would read as one run
            refusal = (
                f"--save-run {folder}: another passcheck run is saving there; wait for it to end, or use another folder"
            )
            self._out = exclusive(self.folder / LINES, refusal)
            if self._out.tell() and not (self.folder / LINES).read_bytes().endswith(b"\n"):
                self._out.write("\n")  # end a line torn by a kill, so this run's records stay whole
            start = {"format": FORMAT, "type": RUN, "started": _now(), "env": env, "continues": continues}
            self._out.write(json.dumps(start) + "\n")
            self._out.flush()
            known = {**_environments(self.folder), env: environment()}
            (self.folder / f".{ENVIRONMENTS}").write_text(json.dumps(known), encoding="utf-8")
            (self.folder / f".{ENVIRONMENTS}").replace(self.folder / ENVIRONMENTS)
        except OSError as exc:
            raise PasscheckError(f"--save-run {folder}: cannot write there: {exc.strerror or exc}") from None

    def _model(self, model: onnx.ModelProto | None) -> str | None:
        if model is None:
            return None
        from passcheck.execution.payloads import whole
        from passcheck.modelio import model_hash

        model = whole(model)  # a pass output hollowed in this process: saved with its payloads
        sha = model_hash(model)
        path = self.folder / "models" / f"{sha}.onnx"
        if not path.exists():
            path.write_bytes(model.SerializeToString())
        return sha

    def _run(self, r) -> dict[str, Any]:
        return {
            "outputs": {k: _encode(v) for k, v in r.outputs.items()},
            "observed": {k: _encode(v) for k, v in r.observed.items()},
            "error": r.error,
            "unobservable": dict(r.unobservable),
        }

    def __call__(self, judged: Judged) -> None:
        c = judged.cells
        runs = []
        for r in c.runs:
            o = r.outcome
            runs.append(
                {
                    "case": r.case,
                    "form": r.form,
                    "pass": r.pass_id,
                    "model": self._model(r.model),
                    "outcome": {**o.to_json(), "seconds": o.seconds, "model": self._model(o.model)},
                    "feeds": [{k: _encode(v) for k, v in f.items()} for f in r.feeds],
                    "baseline": [self._run(x) for x in r.baseline],
                    "runs": [self._run(x) for x in r.runs],
                    "folds_constants": r.folds_constants,
                    "folds_shapes": r.folds_shapes,
                    "clears": sorted(r.clears),
                    "optimizes": r.optimizes,
                    "env": r.env,
                    "rtol": r.rtol,
                    "atol": r.atol,
                    "unknown_dim_param": r.unknown_dim_param,
                    "precision": r.precision,
                    "writes_given_unchanged": r.writes_given_unchanged,
                }
            )
        line = {
            "format": FORMAT,
            "kind": c.kind,
            "expect": [_expectation_json(e) for e in c.expect],
            "parity": sorted(c.parity),
            "feeds_given": c.feeds_given,
            "hashes": judged.hashes,
            "repro": judged.repro,
            "env": judged.env,
            "forms": judged.forms,
            "form_repro": judged.form_repro,
            "timeout": judged.timeout,
            "runs": runs,
        }
        self._out.write(json.dumps(line) + "\n")
        self._out.flush()

    def close(self) -> None:
        self._out.close()


def _expectation_json(e) -> dict[str, Any]:
    return {
        "pass_id": e.pass_id,
        "form": e.form,
        "no_op_types": list(e.no_op_types),
        "output_shapes": {k: list(v) for k, v in e.output_shapes.items()},
        "reason": e.reason,
        "transformer": e.transformer,
    }


def _lines_of(path: str | Path) -> Path:
    p = Path(path)
    lines = p / LINES if p.is_dir() else p
    if not lines.is_file():
        raise PasscheckError(f"--rejudge {path}: no saved run there (expected a --save-run folder holding {LINES})")
    return lines


def _marker(text: str) -> dict[str, Any] | None:
    """The run-start record on this line, or None (a group line, torn or not, is never that short)."""
    if len(text) > 512:
        return None
    try:
        g = json.loads(text)
    except ValueError:
        return None
    return g if isinstance(g, dict) and g.get("type") == RUN else None


def saved_runs(path: str | Path) -> list[dict[str, Any]]:
    """The runs saved in ``path`` (see :func:`load`), oldest first: each ``{"line": N, "started": T,
    "env": E, "continues": C, "groups": G}`` (its run-start line, when it started (UTC, ISO 8601),
    whether it resumed the run before it, the lines of judged groups after it); groups saved before
    any run-start line (a folder saved by an older passcheck) are one run with ``line`` 0 and no
    ``started``.

    Raises:
        PasscheckError: nothing saved there.
    """
    runs: list[dict[str, Any]] = []
    with open(_lines_of(path), encoding="utf-8") as f:
        for n, text in enumerate(f, 1):
            if (m := _marker(text)) is not None:
                runs.append(
                    {
                        "line": n,
                        "started": m.get("started"),
                        "env": m.get("env"),
                        "continues": bool(m.get("continues")),
                        "groups": 0,
                    }
                )
            elif text.strip():
                if not runs:
                    runs.append({"line": 0, "started": None, "env": None, "continues": False, "groups": 0})
                runs[-1]["groups"] += 1
    return runs


def latest(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The runs of :func:`saved_runs` that make up the latest run: the last one, and those it continues
    (``--resume``: each resumed run with the one before it)."""
    first = len(runs) - 1
    while first > 0 and runs[first]["continues"]:
        first -= 1
    return runs[max(first, 0) :]


def load(path: str | Path) -> Iterator[Judged]:
    """The judged groups of the latest run saved in ``path`` (a ``--save-run`` folder, or its
    ``runs.jsonl``): each run saving there appends after its own run-start line, and only the groups of
    the last run (with the runs it resumed, :func:`latest`) are read (:func:`saved_runs` lists them
    all); a last line torn by a kill while it was written is left out, the other groups kept.

    Raises:
        PasscheckError: nothing saved there, or a line or model that cannot be read.
    """
    import onnx

    from passcheck.case_model import Expectation
    from passcheck.engine import Judged
    from passcheck.oracles import Cells, FormRun
    from passcheck.passes import PassOutcome
    from passcheck.runtime import RunResult

    lines = _lines_of(path)
    start = next((r["line"] for r in latest(saved_runs(lines))), 0)  # the latest run's first line
    models: dict[str, onnx.ModelProto] = {}

    def model(sha: str | None):
        if sha is None:
            return None
        if sha not in models:
            try:
                models[sha] = onnx.load_model_from_string((lines.parent / "models" / f"{sha}.onnx").read_bytes())
            except (OSError, Exception) as exc:  # noqa: BLE001 - a missing or damaged file is bad input
                raise PasscheckError(f"--rejudge {path}: model {sha} cannot be read: {exc}") from None
        return models[sha]

    def run(d) -> RunResult:
        return RunResult(_values(d["outputs"]), _values(d["observed"]), d["error"], dict(d.get("unobservable") or {}))

    torn, whole = 0, 0
    with open(lines, encoding="utf-8") as f:
        for n, text in enumerate(f, 1):
            if n <= start or not text.strip() or _marker(text) is not None:  # before the run, or a resumed run's start
                continue
            try:
                g = json.loads(text)
            except ValueError:
                torn = n  # a line torn by a kill while it was written (ended by the next run's Saver): the rest stands
                continue
            try:
                if not isinstance(g, dict):
                    raise TypeError("not a JSON object")
                if g.get("format") != FORMAT:
                    raise ValueError(f"format {g.get('format')!r}, this passcheck reads {FORMAT}")
                runs = []
                for r in g["runs"]:
                    o = r["outcome"]
                    outcome = PassOutcome(
                        o["pass"], o["status"], model(o["model"]), o["error"], o["versions"], o["seconds"]
                    )
                    runs.append(
                        FormRun(
                            r["case"],
                            r["form"],
                            r["pass"],
                            model(r["model"]),
                            outcome,
                            [_values(x) for x in r["feeds"]],
                            [run(x) for x in r["baseline"]],
                            [run(x) for x in r["runs"]],
                            r["folds_constants"],
                            r["optimizes"],
                            r["env"],
                            r["rtol"],
                            r["atol"],
                            r["unknown_dim_param"],
                            precision=r.get("precision"),
                            writes_given_unchanged=bool(r.get("writes_given_unchanged", False)),
                            folds_shapes=bool(r.get("folds_shapes", True)),
                            clears=frozenset(r.get("clears", ())),
                        )
                    )
                expect = [
                    Expectation(
                        e["pass_id"],
                        e["form"],
                        tuple(e["no_op_types"]),
                        {k: tuple(v) for k, v in e["output_shapes"].items()},
                        e["reason"],
                        e.get("transformer", ""),
                    )
                    for e in g["expect"]
                ]
            except (ValueError, KeyError, TypeError) as exc:
                raise PasscheckError(f"--rejudge {lines}: line {n} is not a saved run: {exc}") from None
            whole += 1
            yield Judged(
                Cells(runs, g["kind"], expect, frozenset(g["parity"]), g["feeds_given"]),
                g["hashes"],
                g["repro"],
                g["env"],
                g["forms"],
                g.get("form_repro", {}),
                g.get("timeout"),
            )
    if torn and not whole:
        raise PasscheckError(
            f"--rejudge {lines}: no whole saved run: line {torn} was torn while it was written (the run was killed)"
        )


def _environments(folder: Path) -> dict[str, dict[str, Any]]:
    try:
        found = json.loads((folder / ENVIRONMENTS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def saved_environments(path: str | Path, cells: list[CellResult]) -> dict[str, dict[str, Any]]:
    """Each environment id of ``cells`` → the tool versions the saved run recorded for it; a run saved
    before ``environments.json`` existed gives the versions its pass outcomes carry (those passes' tools)."""
    recorded = _environments(Path(path))
    found = dict(recorded)
    for c in cells:
        if not recorded.get(c.env):
            found.setdefault(c.env, {}).update({k: v for k, v in c.versions.items() if v})
    return found


def rejudge(path: str | Path) -> list[CellResult]:
    """Judge a saved run again with the registered oracles: the cells of the latest run saved in
    ``path`` (see :func:`load`), in saved order; a cell a resumed run judged again (its group was
    saved, the run stopped before the cell was final) is the resumed run's.

    Raises:
        PasscheckError: see :func:`load`.
    """
    cells = {cell.key: cell for judged in load(path) for cell in judged.results()}
    return list(cells.values())
