"""``passcheck bisect``: the first bad and last good released versions of a tool for one finding.

Pipeline: :mod:`~passcheck.bisect.versions` lists the released versions in the range from the
package index; :mod:`~passcheck.bisect.probe` runs the finding's case and pass in a pinned uv
environment per version (the matrix machinery: same model bytes, isolated workers, cached
environments) and says whether the finding is there; :mod:`~passcheck.bisect.search` narrows the
window with as few probes as binary search allows, skipping versions that cannot be tested.
"""

from passcheck.bisect.search import Outcome, Verdict, bisect

__all__ = ["Outcome", "Verdict", "bisect"]
