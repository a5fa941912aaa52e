"""Puts the repository's python/ folder first on sys.path, so the tests import this checkout's
kbenchpy whether or not a kbenchpy is installed."""
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
PYTHON = os.path.join(ROOT, "python")
if sys.path[0] != PYTHON:
    sys.path.insert(0, PYTHON)
