"""Package discovery for `pip install .`: the top-level folders domain/, ledger/, projections/ and cli/ install as
chronicle.domain, chronicle.ledger, chronicle.projections and chronicle.cli, with every sub-package beneath them
found by setuptools rather than listed by hand (a hand-written list once missed chronicle.cli.systems).
Everything else about the distribution is in pyproject.toml."""

from __future__ import annotations

from setuptools import find_packages, setup

FOLDERS = ("domain", "ledger", "projections", "cli")

packages = ["chronicle"] + [
    f"chronicle.{found}" for found in find_packages(include=[*FOLDERS, *(f"{folder}.*" for folder in FOLDERS)])
]
package_dir = {"chronicle": "chronicle", **{f"chronicle.{folder}": folder for folder in FOLDERS}}

setup(packages=packages, package_dir=package_dir)
