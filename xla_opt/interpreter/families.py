"""The interpreter implementations of the op families beyond the element-wise one.

Each family module defines an `InterpreterFunctions` subclass; list it here.
"""

from __future__ import annotations

from xdsl.interpreter import InterpreterFunctions

FAMILIES: list[type[InterpreterFunctions]] = []
