"""Passes that kill or hang the worker process, loaded with --cases-from (tests only)."""

import os
import signal
import time

from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass


def _segfault(model):
    os.kill(os.getpid(), signal.SIGSEGV)
    return model


def _hang(model):
    time.sleep(3600)
    return model


for _id, _fn in (("planted:segfault", _segfault), ("planted:hang", _hang)):
    if _id not in known_pass_ids():
        register_pass(FunctionAdapter(_id, _fn, doc=f"test pass: {_fn.__name__[1:]}s the process"))
