"""Run mutants in parallel, each in a tree copy of its own, and kill every child on Ctrl-C or SIGTERM.

One thread per tree copy takes the next mutant, writes it over its module (cosmic-ray's
``mutate_code``; the pristine file is copied back after), and runs its tests as
``nice -n 15 python -m pytest -x …`` in a new session (a process group of its own). Bytecode is
written and kept in the tree copy (``__pycache__`` beside each source: the compiled and
assertion-rewritten tests and modules of one mutant serve the next), except the mutated module's,
removed before and after each mutant: a pyc is trusted on its source's mtime (whole seconds) and
size, which two mutants of one line written within a second can share. On SIGINT or SIGTERM the script
kills the process tree of every running test command (``passcheck._procs.Children``: the pytest
process, its group and every descendant, isolation workers in groups of their own included), waits
for the threads, and exits 130 / 143.

With ``warm``, each tree copy has a server (``bench/mutation_warm.py``) that imported the third-party
packages once and forks the pytest of each mutant, the same arguments in the same tree: a mutant killed
by its first test no longer pays for importing numpy, onnx, onnxruntime and hypothesis.

Each pytest loads ``bench/mutation_killer.py`` (``-p mutation_killer``, copied to ``work/_plugins``, first on
``PYTHONPATH``), which names the first failing test (:attr:`Mutant.killer`); an ``order`` hook, when given,
reorders a mutant's tests just before it runs.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from passcheck._procs import Stopped, kill_tree

#: The environment variable bench/mutation_killer.py writes the killing test's node id to.
KILLER_FILE = "PASSCHECK_MUTATION_KILLER"

#: pytest exit codes that mean the tests ran and one failed (1) or collection failed (2: the mutant broke an import).
KILLED_CODES = (1, 2)


@dataclasses.dataclass
class Mutant:
    """One mutant to judge: where, which operator, and the tests to run (empty: none covers it)."""

    module: str
    line: int
    operator: str
    occurrence: int
    tests: list[str]
    keyword: str = ""
    before: str = ""
    after: str = ""
    outcome: str = ""  # killed, survived, timeout, incompetent, uncovered
    context: str = ""  # the stripped line above the changed one (bench/mutation_equivalent.toml's `context`)
    seconds: float = 0.0
    note: str = ""
    budget: float = 0.0  # seconds its tests took in the map's coverage run (0: unknown)
    result_key: str = ""  # bench/mutation_results.py result_key
    killer: str = ""  # node id of the first failing test (bench/mutation_killer.py)

    @property
    def key(self) -> tuple[str, str, int]:
        return self.module, self.operator, self.occurrence


def changed_lines(original: str, mutated: str) -> tuple[str, str]:
    """The (stripped, joined) lines a mutant removes and adds."""
    diff = list(difflib.unified_diff(original.splitlines(), mutated.splitlines(), lineterm="", n=0))
    before = " ".join(s[1:].strip() for s in diff if s.startswith("-") and not s.startswith("---"))
    after = " ".join(s[1:].strip() for s in diff if s.startswith("+") and not s.startswith("+++"))
    return before, after


def context_above(original: str, mutated: str) -> str:
    """The stripped unchanged line just above the changed one."""
    a, b = original.splitlines(), mutated.splitlines()
    i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return a[i - 1].strip() if i else ""


class Runner:
    """``workers`` tree copies of ``root`` under ``work``; :meth:`run` judges mutants on them."""

    def __init__(
        self,
        root: Path,
        work: Path,
        workers: int,
        timeout: float,
        copy: Callable[[Path], None],
        factor: float = 3.0,
        warm: bool = False,
        order: Callable[[Mutant], None] | None = None,
    ):
        self.root, self.timeout, self.factor, self.warm, self.order = root, timeout, factor, warm, order
        self.plugins = work / "_plugins"
        self.plugins.mkdir(parents=True, exist_ok=True)
        shutil.copy2(Path(__file__).with_name("mutation_killer.py"), self.plugins / "mutation_killer.py")
        self._servers: dict[Path, _Server] = {}
        self.trees = []
        for i in range(workers):
            tree = work / f"tree-{i}"
            tree.mkdir(parents=True)
            copy(tree)
            self.trees.append(tree)
        from passcheck._procs import Children

        self.children = Children()
        self.stopping = threading.Event()

    def limit(self, m: Mutant) -> float:
        """Seconds ``m``'s tests may run before it counts as killed (``timeout``): ``timeout``, or
        ``factor`` × its tests' seconds in the map when longer, so that tests slow by nature are not
        taken for a mutant that hangs (a survivor counted as killed)."""
        return max(self.timeout, self.factor * m.budget)

    def _pytest_args(self, m: Mutant) -> list[str]:
        args = ["-x", "-q", "-n", "0", "-p", "no:cacheprovider", "-p", "mutation_killer", "-W", "ignore"]
        args += ["-m", "not matrix", *m.tests]
        return args + (["-k", m.keyword] if m.keyword else [])

    def _command(self, m: Mutant) -> list[str]:
        return ["nice", "-n", "15", sys.executable, "-m", "pytest", *self._pytest_args(m)]

    def _exit_code(self, tree: Path, m: Mutant, env: dict) -> int | None:
        """The exit code of ``m``'s pytest in ``tree`` (a fresh process, or forked by the tree's warm
        server); None past its :meth:`limit` (the process tree killed)."""
        if self.warm:
            server = self._servers.get(tree)
            if server is None or not server.alive():
                server = self._servers[tree] = _Server(self.children, tree, self._env())
            pid = server.start(self._pytest_args(m), env)
            code = server.result(self.limit(m))
            if code is None:
                kill_tree(pid)
                server.result(None)  # the server reaps it
            return code
        proc = self.children.popen(
            self._command(m), cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            return proc.wait(self.limit(m))
        except subprocess.TimeoutExpired:
            kill_tree(proc.pid)
            proc.wait()
            return None
        finally:
            self.children.done(proc)

    def _judge(self, tree: Path, m: Mutant) -> None:
        from cosmic_ray.mutating import mutate_code
        from cosmic_ray.plugins import get_operator

        path = tree / m.module
        original = path.read_text()
        mutated = mutate_code(original, get_operator(m.operator)(), m.occurrence)
        if mutated is None:
            m.outcome, m.note = "incompetent", "cosmic-ray applied no mutation"
            return
        m.before, m.after = changed_lines(original, mutated)
        m.context = context_above(original, mutated)
        if not m.tests:
            m.outcome = "uncovered"
            return
        if self.order is not None:
            self.order(m)
        drop_bytecode(path)
        path.write_text(mutated)
        env = self._env()
        killer = tree / "_killer"
        killer.unlink(missing_ok=True)
        env[KILLER_FILE] = str(killer)
        started = time.monotonic()
        try:
            try:
                code = self._exit_code(tree, m, env)
            except Stopped:
                if self.stopping.is_set():
                    return
                code, m.note = -1, "the warm server ended"
            if killer.exists():
                m.killer = killer.read_text()
            if code is None:
                m.outcome = "timeout"
            else:
                m.outcome = "killed" if code in KILLED_CODES else "survived" if code == 0 else "incompetent"
                if m.outcome == "incompetent":
                    m.note = m.note or f"pytest exited {code}"
        finally:
            shutil.copy2(self.root / m.module, path)
            drop_bytecode(path)
            m.seconds = time.monotonic() - started

    def _env(self) -> dict[str, str]:
        """:func:`_env` with :mod:`mutation_killer`'s folder first on ``PYTHONPATH``."""
        env = _env()
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(self.plugins), env.get("PYTHONPATH")]))
        return env

    def run(self, mutants: Iterable[Mutant], done: Callable[[Mutant], None]) -> None:
        """Judge ``mutants`` (in place); ``done(m)`` after each, from the thread that judged it.

        Raises:
            KeyboardInterrupt: on SIGINT or SIGTERM, after every test command was killed.
        """
        todo: queue.Queue = queue.Queue()
        for m in mutants:
            todo.put(m)

        def loop(tree: Path) -> None:
            while not self.stopping.is_set():
                try:
                    m = todo.get_nowait()
                except queue.Empty:
                    return
                self._judge(tree, m)
                if m.outcome and not self.stopping.is_set():
                    done(m)

        threads = [threading.Thread(target=loop, args=(t,), daemon=True) for t in self.trees]
        main = threading.current_thread() is threading.main_thread()  # signal handlers live there only
        previous = signal.signal(signal.SIGTERM, raise_interrupt) if main else None
        try:
            for t in threads:
                t.start()
            for t in threads:
                while t.is_alive():
                    t.join(0.5)
        except KeyboardInterrupt:
            self.stop()
            for t in threads:
                t.join()
            raise
        finally:
            self.close()
            if main:
                signal.signal(signal.SIGTERM, previous)

    def stop(self) -> None:
        """Kill every running test command's process tree; no new one starts."""
        self.stopping.set()
        self.children.stop()

    def close(self) -> None:
        """End the warm servers (their stdin closed: each exits after its current child) and reap them;
        :meth:`run` does it before it returns."""
        for server in self._servers.values():
            server.close()
        self._servers.clear()


class _Server:
    """A ``bench/mutation_warm.py`` process for one tree copy, started through ``children`` (so a stop
    kills it with every pytest it forked).

    Raises (from the constructor):
        Stopped: the run was stopped.
    """

    def __init__(self, children, tree: Path, env: dict[str, str]):
        self.children, self.tree = children, tree
        argv = ["nice", "-n", "15", sys.executable, str(Path(__file__).with_name("mutation_warm.py"))]
        self.proc = children.popen(argv, cwd=tree, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(int(line))
        self.lines.put(None)  # the server ended

    def alive(self) -> bool:
        return self.proc.poll() is None

    def start(self, args: list[str], env: dict) -> int:
        """Fork a pytest with ``args`` in the tree; its pid.

        Raises:
            Stopped: the server ended (the run was stopped, or it died).
        """
        try:
            self.proc.stdin.write(json.dumps({"cwd": str(self.tree), "args": args, "env": env}) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError) as e:
            raise Stopped from e
        pid = self.lines.get()
        if pid is None:
            raise Stopped
        return pid

    def result(self, timeout: float | None) -> int | None:
        """The exit code of the child :meth:`start` forked; None when ``timeout`` seconds passed first.

        Raises:
            Stopped: the server ended before the child's code came.
        """
        try:
            code = self.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if code is None:
            raise Stopped
        return code

    def close(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        self.proc.wait()
        self.children.done(self.proc)


def drop_bytecode(path: Path) -> None:
    """Remove the pyc files of the module at ``path`` (``__pycache__/<stem>.*.pyc``, pytest's rewritten
    ones included)."""
    for pyc in (path.parent / "__pycache__").glob(path.stem + ".*.pyc"):
        pyc.unlink(missing_ok=True)


def _env() -> dict[str, str]:
    """The environment of a test command: bytecode written beside its source in the tree copy (neither
    ``PYTHONDONTWRITEBYTECODE`` nor ``PYTHONPYCACHEPREFIX``), so :func:`drop_bytecode` reaches it."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("PYTHONPYCACHEPREFIX", None)
    return env


def raise_interrupt(signum, frame) -> None:  # noqa: ARG001 - signal handler signature
    """SIGTERM as Ctrl-C: the run stops the same way."""
    raise KeyboardInterrupt
