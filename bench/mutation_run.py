"""Run mutants in parallel, each in a tree copy of its own, and kill every child on Ctrl-C or SIGTERM.

One thread per tree copy takes the next mutant, writes it over its module (cosmic-ray's
``mutate_code``; the pristine file is copied back after), and runs its tests as
``nice -n 15 python -m pytest -x …`` in a new session (a process group of its own), with
``PYTHONDONTWRITEBYTECODE`` so no mutant's bytecode outlives it. On SIGINT or SIGTERM the script
kills the process tree of every running test command (``passcheck._procs.Children``: the pytest
process, its group and every descendant, isolation workers in groups of their own included), waits
for the threads, and exits 130 / 143.
"""

from __future__ import annotations

import dataclasses
import difflib
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
        self, root: Path, work: Path, workers: int, timeout: float, copy: Callable[[Path], None], factor: float = 3.0
    ):
        self.root, self.timeout, self.factor = root, timeout, factor
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

    def _command(self, m: Mutant) -> list[str]:
        pytest = ["-m", "pytest", "-x", "-q", "-n", "0", "-p", "no:cacheprovider", "-W", "ignore", "-m", "not matrix"]
        cmd = ["nice", "-n", "15", sys.executable, *pytest, *m.tests]
        return cmd + (["-k", m.keyword] if m.keyword else [])

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
        for pyc in (path.parent / "__pycache__").glob(path.stem + ".*.pyc"):
            pyc.unlink(missing_ok=True)
        path.write_text(mutated)
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        started = time.monotonic()
        try:
            try:
                proc = self.children.popen(
                    self._command(m), cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
                )
            except Stopped:
                return
            try:
                code = proc.wait(self.limit(m))
                m.outcome = "killed" if code in KILLED_CODES else "survived" if code == 0 else "incompetent"
                if m.outcome == "incompetent":
                    m.note = f"pytest exited {code}"
            except subprocess.TimeoutExpired:
                kill_tree(proc.pid)
                proc.wait()
                m.outcome = "timeout"
            finally:
                self.children.done(proc)
        finally:
            shutil.copy2(self.root / m.module, path)
            m.seconds = time.monotonic() - started

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
            if main:
                signal.signal(signal.SIGTERM, previous)

    def stop(self) -> None:
        """Kill every running test command's process tree; no new one starts."""
        self.stopping.set()
        self.children.stop()


def raise_interrupt(signum, frame) -> None:  # noqa: ARG001 - signal handler signature
    """SIGTERM as Ctrl-C: the run stops the same way."""
    raise KeyboardInterrupt
