"""The FMJD rules of international draughts (10x10), in pure Python.

This package imports nothing from Django, Celery, `clocks` or `arbiter` (a test proves it):
it is the engine that every move, claim and notation sheet is checked against.
"""

from .outcome import Score, Termination

__all__ = ["Score", "Termination"]
