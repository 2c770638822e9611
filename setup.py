"""Package list: every passcheck package, plus the top-level cases/ folder shipped as
``passcheck._library`` (the built-in case library; see passcheck/cases/_registry.py)."""

from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["passcheck", "passcheck.*"]) + ["passcheck._library"],
    package_dir={"passcheck._library": "cases"},
)
