"""Any external command that reads a model and writes a model: ``cmd:'TOOL {in} {out}'``.

``{in}`` and ``{out}`` are replaced by file paths in a private work folder. A non-zero exit is
``declined`` (stderr tail recorded); death by a signal or no output file is ``crashed``.
"""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

from passcheck.errors import PasscheckError
from passcheck.passes._base import PassAdapter, PassDeclined


class CommandAdapter(PassAdapter):
    tools = ()

    def __init__(self, template: str, timeout: float | None = None, folds_constants: bool = True):
        if "{in}" not in template or "{out}" not in template:
            raise PasscheckError(f"cmd pass {template!r} must contain both {{in}} and {{out}}")
        try:
            shlex.split(template)
        except ValueError as exc:
            raise PasscheckError(f"cmd pass {template!r}: {exc}") from None
        self.template = template
        self.id = f"cmd:{template}"
        self.timeout = timeout
        self._folds = folds_constants
        self.doc = f"external command: {template}"

    @property
    def folds_constants(self) -> bool:  # type: ignore[override]
        return self._folds

    optimizes = True

    def apply(self, model, workdir: Path):
        import onnx

        src, dst = Path(workdir) / "in.onnx", Path(workdir) / "out.onnx"
        src.write_bytes(model.SerializeToString())
        argv = [a.replace("{in}", str(src)).replace("{out}", str(dst)) for a in shlex.split(self.template)]
        try:
            proc = subprocess.run(argv, capture_output=True, text=True, timeout=self.timeout, stdin=subprocess.DEVNULL)
        except FileNotFoundError as exc:
            raise PassDeclined(f"command not found: {argv[0]}") from exc
        tail = (proc.stderr or proc.stdout or "").strip()[-1500:]
        if proc.returncode < 0:
            raise RuntimeError(f"killed by signal {-proc.returncode}: {tail}")
        if proc.returncode != 0:
            raise PassDeclined(f"exit {proc.returncode}: {tail}")
        if not dst.is_file():
            raise RuntimeError(f"command exited 0 but wrote no {{out}} file: {tail}")
        return onnx.load(str(dst))
