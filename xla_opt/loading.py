"""Reading a program: MLIR text, a path to a `.mlir` file, or a parsed module, in the
xla dialect or in StableHLO (as JAX, PyTorch/XLA and TensorFlow print it), which is
imported (`convert-stablehlo-to-xla`). Every entry point reads programs here: the API,
`xla-run`, the MPI launcher's ranks."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # xDSL is imported when a program is parsed (not to read a file's bytes)
    from xdsl.dialects.builtin import ModuleOp


def program_path(program: Any) -> Path | None:
    """The file `program` names, or None when it is a program itself: a path object, or
    a one-line string ending in `.mlir`, `.hlo` or `.txt` or naming a file."""
    if isinstance(program, os.PathLike) or (
        isinstance(program, str)
        and "\n" not in program
        and (program.endswith((".mlir", ".hlo", ".txt")) or _is_file(program))
    ):
        return Path(program)
    return None


def load_program(program: str | bytes | os.PathLike | ModuleOp, name: str | None = None) -> ModuleOp:
    """Parse and verify a program given as text, a path, bytes (MLIR bytecode or a
    serialized jax.export.Exported, also as a file) or a module."""
    from xdsl.dialects.builtin import ModuleOp

    from xla_opt.diagnostics import ProgramError, verify_module

    if isinstance(program, ModuleOp):
        module = program
        diags = verify_module(module, name or "<module>")
    elif isinstance(program, bytes | bytearray | memoryview):  # MLIR bytecode, a serialized jax.export
        return import_binary(bytes(program), name or "<program>")
    else:
        if (path := program_path(program)) is not None:
            try:
                data = path.read_bytes()
            except OSError as e:
                raise ProgramError(f"{path}: error: cannot open input file: {e.strerror}") from None
            name = name or str(path)
            if is_binary_program(data):  # by content, whatever the file's name
                return import_binary(data, name)
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                raise ProgramError(f"{path}: error: not UTF-8 text, MLIR bytecode or a serialized jax.export") from None
        else:
            text = str(program)
            name = name or "<program>"
        if is_hlo_text(text):  # HLO text (XLA's dumps), known by its `HloModule` header
            return import_hlo_text(text, name)
        if is_stablehlo_text(text):
            # StableHLO (JAX, PyTorch/XLA, TensorFlow): parsed, converted to xla, verified
            return import_stablehlo(text, name)
        return _read(text, name)
    if diags:
        raise ProgramError("\n".join(map(str, diags)))
    return module


def _is_file(text: str) -> bool:
    return len(text) < 4096 and os.path.isfile(text)


def is_binary_program(data: bytes) -> bool:
    """Whether `data` is MLIR bytecode or a serialized jax.export.Exported (by content)."""
    from xla_opt.formats.binary import binary_kind

    return binary_kind(data) is not None


def import_binary(data: bytes, name: str = "<program>") -> ModuleOp:
    """MLIR bytecode (a StableHLO portable artifact, as jax.export writes it) or a
    serialized `jax.export.Exported` (xla_opt/formats/binary.py), read as StableHLO,
    converted to xla and verified as StableHLO text is; a ProgramError otherwise."""
    from xla_opt.context import make_context
    from xla_opt.diagnostics import DiagnosticError, ProgramError, verify_module
    from xla_opt.formats.binary import read_binary
    from xla_opt.passes.conversions.convert_stablehlo_to_xla import convert_module

    ctx = make_context()
    module = read_binary(data, name, ctx)
    if diags := verify_module(module, name):  # what the bytes hold, before it is imported
        raise ProgramError("\n".join(map(str, diags)))
    try:
        convert_module(ctx, module)
    except DiagnosticError as e:
        raise ProgramError(str(e)) from None
    if diags := verify_module(module, name):
        raise ProgramError("\n".join(map(str, diags)))
    return module


def _read(text: str, name: str, convert=None) -> ModuleOp:
    """Parse `text`, run `convert(ctx, module)` if given, verify: a ProgramError holding
    the located diagnostics of the first step that fails."""
    from xla_opt.context import make_context
    from xla_opt.diagnostics import DiagnosticError, ProgramError, parse_source, verify_module

    ctx = make_context()
    try:
        module = parse_source(ctx, text, name)
        if convert is not None:
            convert(ctx, module)
    except DiagnosticError as e:
        raise ProgramError(str(e)) from None
    if diags := verify_module(module, name):
        raise ProgramError("\n".join(map(str, diags)))
    return module


# --------------------------------------------------------------------------------------
# StableHLO text in: parse, convert-stablehlo-to-xla, verify
# --------------------------------------------------------------------------------------

_STABLEHLO_OP_LINE = re.compile(r'^\s*(?:%[^=]*=\s*)?"?(?:stablehlo|chlo)\.[A-Za-z_]', re.MULTILINE)


def is_stablehlo_text(text: str) -> bool:
    """Whether MLIR text uses StableHLO/CHLO ops (and so needs importing): an op named
    `stablehlo.*` or `chlo.*` starts a line (results aside; comments do not count)."""
    return _STABLEHLO_OP_LINE.search(re.sub(r"//[^\n]*", "", text)) is not None


def is_hlo_text(text: str) -> bool:
    """Whether the text is an HLO module (`HloModule` first, comments aside)."""
    from xla_opt.formats.hlo_syntax import is_hlo_text as starts_hlo_module

    return starts_hlo_module(text)


def import_hlo_text(text: str, name: str = "<hlo>") -> ModuleOp:
    """Read HLO text (xla_opt/formats/hlo_text.py) as a verified xla program; raises
    `ProgramError` with located diagnostics."""
    from xla_opt.formats.hlo_text import parse_hlo_text

    return parse_hlo_text(text, name)


def import_stablehlo(text: str, name: str = "<stablehlo>") -> ModuleOp:
    """Parse StableHLO text, convert it to the xla dialect and verify the result.

    Raises `ProgramError` with located diagnostics (`name:line:col: error:
    ...`) when the text does not parse, uses an op with no xla counterpart, or the
    converted program does not verify."""
    from xla_opt.passes.conversions.convert_stablehlo_to_xla import convert_module

    return _read(text, name, convert_module)
