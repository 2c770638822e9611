"""A warm pytest per tree copy: one process imports the third-party packages once, then forks a pytest per mutant.

A mutant killed by its first test costs mostly interpreter start-up: importing numpy, onnx,
onnxruntime, pytest and hypothesis took ~8 s of a one-test pytest command's ~16 s at load 15
(``docs/mutation-score.md``). This server imports them (:data:`PRELOAD`) and nothing of passcheck,
so each forked child imports the tree copy's (mutated) passcheck afresh, as ``python -m pytest``
run in that copy would: ``sys.path[0]`` is the copy, the working directory too.

Protocol, one JSON object a line on stdin: ``{"cwd": tree, "args": [pytest args], "env": {…}}``; per
request the server writes the child's pid, then, once the child ends, its exit code (negative: the
signal that ended it), each on a line of its own. The child leads a session of its own (so
``passcheck._procs.kill_tree`` reaches it and all it starts), its stdin, stdout and stderr are
/dev/null, and it writes bytecode beside each source of the tree unless the request's environment
says not to (``bench/mutation_run.py`` removes the mutated module's before and after each mutant).
The server ends at the end of its stdin.

Only :data:`PRELOAD` is imported: importing every installed package the tree's code and tests name
(onnxscript, onnx_ir, onnxsim, skl2onnx, …) made each fork slower, kills 4.4–8.6 s against 3.2–5.7 s
side by side (``docs/mutation-score.md``), and a server's start ~25 s longer at load 20–30.

Run as ``python bench/mutation_warm.py`` (bench/ is on the path; its ``coverage.py`` is not imported).
"""

from __future__ import annotations

import importlib
import json
import os
import sys

#: Imported once by the server: the test run's heaviest imports, none of them passcheck's.
PRELOAD = ("numpy", "onnx", "onnx.reference", "onnxruntime", "hypothesis", "pytest", "xdist")


def _child(request: dict) -> None:
    """Run pytest as ``python -m pytest`` would in ``request["cwd"]``; never returns."""
    code = 3
    try:
        os.setsid()
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.dont_write_bytecode = bool(request["env"].get("PYTHONDONTWRITEBYTECODE"))
        sys.pycache_prefix = request["env"].get("PYTHONPYCACHEPREFIX")
        sys.path[0] = request["cwd"]  # as -m puts the working directory first
        sys.argv = ["pytest", *request["args"]]
        import pytest

        code = int(pytest.main(request["args"]))
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)


def serve(lines, out) -> None:
    """Answer each request line of ``lines`` on ``out`` (module docs), one child at a time."""
    for line in lines:
        if not line.strip():
            continue
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _child(request)
        out.write(f"{pid}\n")
        out.flush()
        _, status = os.waitpid(pid, 0)
        out.write(f"{os.waitstatus_to_exitcode(status)}\n")
        out.flush()


def main() -> None:
    sys.dont_write_bytecode = True
    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError:  # the child imports it itself, if it needs it
            pass
    serve(sys.stdin, sys.stdout)


if __name__ == "__main__":
    main()
