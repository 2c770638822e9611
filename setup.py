"""Package list: every passcheck package, the top-level cases/ folder shipped as
``passcheck._library`` (the built-in case library; see passcheck/cases/_registry.py), and the
pins files of ci/envs shipped as data in ``passcheck/_envs`` (see passcheck/matrix/envs.py)."""

from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["passcheck", "passcheck.*"]) + ["passcheck._library", "passcheck._envs"],
    package_dir={"passcheck._library": "cases", "passcheck._envs": "ci/envs"},
    package_data={
        "passcheck._envs": ["*.txt"],
        "passcheck.generate": ["domains.json"],
        "passcheck.attribution": ["*.json"],
        "passcheck.triage": ["*.json"],
        "passcheck.hunt": ["documented.json"],
    },
)
