"""A --cases-from module whose import takes ``PASSCHECK_TEST_SLOW_IMPORT`` seconds (tests only): it stands for
a worker start on a loaded machine. The matrix worker imports it before its first case marker, and so does its
pass worker (the module is preloaded there), whose start must not count against ``--timeout``."""

import os
import time

time.sleep(float(os.environ.get("PASSCHECK_TEST_SLOW_IMPORT", "0")))
