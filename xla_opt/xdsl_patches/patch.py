"""A patch to xDSL as a record: what it fixes and why, where it belongs upstream, the
xDSL version it was written for, and how it is installed, so that each patch can be
installed, removed (what it replaced is put back) and tested on its own.

A patch's `apply(changes)` makes every change through `changes` (`replace` an
attribute of a class or module, `update` a table of xDSL's, act `when_imported` on a
module imported later), which records how to undo it: `Patch.uninstall` undoes the
changes in reverse order and checks that nothing replaced them again meanwhile."""

from __future__ import annotations

import contextlib
import importlib.abc
import importlib.util
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator, MutableMapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

_ABSENT = object()


class Changes:
    """The changes one patch made to xDSL, and how to undo each of them."""

    def __init__(self, patch: str):
        self.patch = patch
        self._undo: list[Callable[[], None]] = []

    def replace(self, owner: type | ModuleType, name: str, value: Any) -> None:
        """Set `owner.name` (a class's or module's own attribute) to `value`. Undone, the
        attribute is what `owner` itself held before (deleted again if it was inherited)."""
        previous = vars(owner).get(name, _ABSENT)
        setattr(owner, name, value)

        def undo() -> None:
            if vars(owner).get(name, _ABSENT) is not value:
                raise RuntimeError(
                    f"xDSL patch {self.patch}: {owner.__name__}.{name} was replaced again after the patch; "
                    "undo that change first"
                )
            if previous is _ABSENT:
                delattr(owner, name)
            else:
                setattr(owner, name, previous)

        self._undo.append(undo)

    def update(self, table: MutableMapping[Any, Any], entries: dict[Any, Any]) -> None:
        """Add `entries` to one of xDSL's tables; undone, each key has its earlier value
        again, or is absent again."""
        previous = {key: table.get(key, _ABSENT) for key in entries}
        table.update(entries)

        def undo() -> None:
            for key, value in previous.items():
                if value is _ABSENT:
                    table.pop(key, None)
                else:
                    table[key] = value

        self._undo.append(undo)

    def when_imported(self, module: str, action: Callable[[ModuleType], None]) -> None:
        """Run `action(module)` now if `module` is imported, else right after it is
        executed (importing it here would cost every start-up its import time). A hook
        still waiting is dropped when the patch is undone."""
        if module in sys.modules:
            action(sys.modules[module])
            return
        hook = _AfterImport(module, action)
        sys.meta_path.insert(0, hook)

        def undo() -> None:
            if hook in sys.meta_path:
                sys.meta_path.remove(hook)

        self._undo.append(undo)

    def undo(self) -> None:
        """Undo every change, the last made first."""
        while self._undo:
            self._undo[-1]()  # kept if it refuses: the patch stays undoable
            self._undo.pop()


def replacing(owner: type | ModuleType, name: str, value: Any) -> Callable[[Changes], None]:
    """The `apply` of a patch that replaces one attribute."""
    return lambda changes: changes.replace(owner, name, value)


class _AfterImport(importlib.abc.MetaPathFinder):
    """Runs `action(module)` once the module `name` has been executed."""

    def __init__(self, name: str, action: Callable[[ModuleType], None]):
        self.name, self.action = name, action

    def find_spec(self, fullname, path, target=None):  # type: ignore[no-untyped-def]
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec
        exec_module, action = spec.loader.exec_module, self.action

        def exec_and_act(module: ModuleType) -> None:
            exec_module(module)
            action(module)

        spec.loader.exec_module = exec_and_act  # type: ignore[method-assign]
        return spec


@dataclass(eq=False)
class Patch:
    """One change to xDSL's behaviour. `reason` says what xDSL does and what the patch
    does instead; `upstream` where the fix belongs in xDSL and whether it was reported;
    `xdsl_version` the xDSL version (major.minor) it was written for and tested with;
    `apply(changes)` installs it, making every change through `changes`."""

    name: str
    reason: str
    upstream: str
    apply: Callable[[Changes], None]
    xdsl_version: str = "0.74"
    _changes: Changes | None = field(default=None, init=False, repr=False)
    _held_out: int = field(default=0, init=False, repr=False)  # the `removed()` blocks running

    def __post_init__(self) -> None:
        # records write their texts as indented paragraphs: one line each
        self.reason = " ".join(self.reason.split())
        self.upstream = " ".join(self.upstream.split())

    @property
    def installed(self) -> bool:
        return self._changes is not None

    @property
    def held_out(self) -> bool:
        """Within `removed()`: `install` leaves the patch out."""
        return self._held_out > 0

    def install(self) -> None:
        """Install the patch (nothing if it is installed or held out by `removed()`);
        warns once if the installed xDSL is not the version the patch was written for."""
        if self._changes is None and not self._held_out:
            check_xdsl_version([self])
            self._install()

    def _install(self) -> None:
        """`install` once the version is checked (the package checks all patches at once)."""
        if self._changes is not None or self._held_out:
            return
        changes = Changes(self.name)
        try:
            self.apply(changes)
        except BaseException:
            changes.undo()
            raise
        self._changes = changes

    def uninstall(self) -> None:
        """Put back what the patch replaced (nothing if it is not installed)."""
        changes, self._changes = self._changes, None
        if changes is not None:
            changes.undo()

    @contextmanager
    def removed(self) -> Iterator[Patch]:
        """xDSL without this patch for the duration (the other patches stay as they
        are), even if `install()` is called meanwhile (loading a dialect of ours calls
        it); installed again afterwards if it was installed."""
        was_installed = self.installed
        self.uninstall()
        self._held_out += 1
        try:
            yield self
        finally:
            self._held_out -= 1
            if was_installed:
                self.install()


# --------------------------------------------------------------------------------------
# the xDSL version each patch was written for
# --------------------------------------------------------------------------------------


class XdslVersionWarning(UserWarning):
    """The installed xDSL is not the version some patches were written for."""


_warned: set[str] = set()  # the patches a version warning has named (each is named once)


def _major_minor(version: str) -> tuple[str, ...]:
    return tuple(version.split(".")[:2])


def _installed_xdsl_version() -> str | None:
    """The installed xDSL's version, from its `xdsl-<version>.dist-info` folder beside
    the package (a directory listing: importlib.metadata takes 20 ms to import on a
    first compile's path), else from importlib.metadata; None when xDSL runs from a
    source tree (nothing to compare)."""
    import os

    spec = importlib.util.find_spec("xdsl")
    if spec is not None and spec.origin is not None:
        site = os.path.dirname(os.path.dirname(spec.origin))
        with contextlib.suppress(OSError):
            found = [n for n in os.listdir(site) if n.startswith("xdsl-") and n.endswith(".dist-info")]
            if len(found) == 1:
                return found[0][len("xdsl-") : -len(".dist-info")]
    from importlib import metadata

    try:
        return metadata.version("xdsl")
    except metadata.PackageNotFoundError:
        return None


def check_xdsl_version(patches: Iterable[Patch]) -> None:
    """Warn, once per patch, when the installed xDSL's major.minor version differs from
    the one a patch was written for: a patch replaces xDSL's code of that version (and
    copies some of it), so on another version it may undo a fix or break. A warning,
    not an error: pyproject.toml pins the version, this catches an environment that
    does not follow it."""
    pending = [p for p in patches if p.name not in _warned]
    if not pending or (installed := _installed_xdsl_version()) is None:
        return
    stale = [p for p in pending if _major_minor(p.xdsl_version) != _major_minor(installed)]
    if not stale:
        return
    _warned.update(p.name for p in stale)
    written_for = ", ".join(sorted({p.xdsl_version for p in stale}))
    warnings.warn(
        f"xDSL {installed} is installed, but xla-opt's patches to xDSL were written for xDSL {written_for} "
        "(pyproject.toml pins that version); these may no longer fix what they fix, or may break xDSL: "
        f"{', '.join(p.name for p in stale)}",
        XdslVersionWarning,
        stacklevel=3,
    )
