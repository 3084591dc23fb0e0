"""Programs that are not text, told apart by their content (not their file name):

* MLIR bytecode (`ML\\xefR` magic): a StableHLO portable artifact (VHLO, with `sdy`
  when sharded), as `jax.export` and `serialize_portable_artifact` write it, or MLIR
  bytecode of the `func`/builtin dialects;
* a serialized `jax.export.Exported` (a flatbuffer whose module field holds such
  bytecode; `jax_export.py` says what of its calling convention is honoured).

`read_binary` gives the StableHLO module (what our parser gives for the text JAX
prints); `xla_opt.loading` imports it as it imports StableHLO text. Every failure
is a `ProgramError` of one line: `name: error: message`.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FunctionType,
    ModuleOp,
    StringAttr,
    TensorType,
    i32,
)
from xdsl.ir import Attribute

from xla_opt.diagnostics import ProgramError, one_line

from .bytecode import MAGIC, BuiltinCodec, BytecodeError, BytecodeReader, FuncCodec
from .jax_export import ExportedInfo, check_supported, looks_like_exported, read_exported

BYTECODE = "MLIR bytecode"
JAX_EXPORT = "serialized jax.export.Exported"


def binary_kind(data: bytes | bytearray | memoryview) -> str | None:
    """`BYTECODE`, `JAX_EXPORT`, or None for anything else (text)."""
    head = bytes(data[:4])
    if head == MAGIC:
        return BYTECODE
    if len(data) >= 16 and looks_like_exported(bytes(data)):
        return JAX_EXPORT
    return None


def read_binary(data: bytes | bytearray | memoryview, name: str = "<program>", ctx: Any = None) -> ModuleOp:
    """The StableHLO module of MLIR bytecode or of a serialized Exported."""
    data = bytes(data)
    kind = binary_kind(data)
    if kind == BYTECODE:
        return read_bytecode(data, name, ctx)
    if kind == JAX_EXPORT:
        return read_jax_export(data, name, ctx)[0]
    raise ProgramError(f"{name}: error: neither MLIR bytecode nor a serialized jax.export.Exported")


def _fail(name: str, e: BaseException) -> ProgramError:
    if isinstance(e, BytecodeError):
        text = str(e)
    elif isinstance(e, RecursionError):
        text = "the bytecode nests too deeply"
    else:  # whatever the bytes made a constructor refuse
        text = f"malformed bytecode ({type(e).__name__}: {e})"
    return ProgramError(f"{name}: error: {one_line(text)}")


def read_bytecode(data: bytes, name: str = "<bytecode>", ctx: Any = None) -> ModuleOp:
    """MLIR bytecode (a StableHLO portable artifact) as a StableHLO module."""
    from xdsl.parser import Parser

    from xla_opt.context import make_context

    from .sdy import SdyCodec
    from .vhlo import VhloCodec

    ctx = ctx if ctx is not None else make_context()

    def parse_text(text: str, is_type: bool) -> Attribute:
        """The text fallback: an attribute or type stored as its assembly."""
        try:
            parser = Parser(ctx, text, f"{name} (an attribute's text)")
            value = parser.parse_type() if is_type else parser.parse_attribute()
            if parser._current_token.kind.name != "EOF":  # noqa: SLF001
                raise BytecodeError(f"trailing characters after '{text}'")
        except BytecodeError:
            raise
        except Exception as e:  # noqa: BLE001 - a ParseError, or a dialect we do not have
            raise BytecodeError(
                f"cannot parse the {'type' if is_type else 'attribute'} '{text}': {one_line(str(e))}"
            ) from None
        return value

    codecs = {
        "builtin": BuiltinCodec(),
        "func": FuncCodec(),
        "vhlo": VhloCodec(),
        "sdy": SdyCodec(lambda text: parse_text(text, False)),
    }
    try:
        reader = BytecodeReader(data, codecs, parse_text)
        module = reader.read()
    except ProgramError:
        raise
    except Exception as e:  # noqa: BLE001 - any malformed input is one line
        raise _fail(name, e) from None
    except RecursionError as e:
        raise _fail(name, e) from None
    if not isinstance(module, ModuleOp):
        raise ProgramError(f"{name}: error: the bytecode holds no builtin.module")
    return module


def read_jax_export(data: bytes, name: str = "<exported>", ctx: Any = None) -> tuple[ModuleOp, ExportedInfo]:
    """A serialized Exported: its StableHLO module, whose entry takes every input of
    `in_avals` (see `jax_export.py`), and what the flatbuffer says."""
    try:
        info = read_exported(data)
        check_supported(info)
    except BytecodeError as e:
        raise ProgramError(f"{name}: error: {one_line(str(e))}") from None
    module = read_bytecode(info.module, name, ctx)
    from xla_opt.diagnostics import verify_module

    if diags := verify_module(module, name):  # @main is what its type says before it is adapted
        raise ProgramError("\n".join(map(str, diags)))
    try:
        adapt_entry(module, info)
    except BytecodeError as e:
        raise ProgramError(f"{name}: error: {one_line(str(e))}") from None
    return module, info


# --------------------------------------------------------------------------------------
# The entry, as Exported.call calls it
# --------------------------------------------------------------------------------------

_DTYPE_TYPES = {
    "bool": "i1",
    "int8": "i8",
    "int16": "i16",
    "int32": "i32",
    "int64": "i64",
    "uint8": "ui8",
    "uint16": "ui16",
    "uint32": "ui32",
    "uint64": "ui64",
    "float16": "f16",
    "float32": "f32",
    "float64": "f64",
    "bfloat16": "bf16",
    "complex64": "complex<f32>",
    "complex128": "complex<f64>",
    "int4": "i4",
    "uint4": "ui4",
    "float8_e4m3b11fnuz": "f8E4M3B11FNUZ",
    "float8_e4m3fn": "f8E4M3FN",
    "float8_e4m3fnuz": "f8E4M3FNUZ",
    "float8_e5m2": "f8E5M2",
    "float8_e5m2fnuz": "f8E5M2FNUZ",
    "float8_e4m3": "f8E4M3",
    "float8_e3m4": "f8E3M4",
    "float8_e8m0fnu": "f8E8M0FNU",
    "float4_e2m1fn": "f4E2M1FN",
}


def _element_type(dtype: str) -> Attribute:
    from xdsl.parser import Parser

    from xla_opt.context import make_context

    text = _DTYPE_TYPES.get(dtype)
    if text is None:
        raise BytecodeError(f"dtype {dtype} has no element type here")
    return Parser(make_context(), text).parse_type()


def _entry(module: ModuleOp) -> func.FuncOp:
    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == "main":
            return op
    raise BytecodeError("the module has no @main")


def adapt_entry(module: ModuleOp, info: ExportedInfo) -> None:
    """Bind the platform index, and give back the inputs the module dropped."""
    main = _entry(module)
    block = main.body.blocks.first
    if block is None:
        raise BytecodeError("@main has no body")
    inputs = list(main.function_type.inputs.data)
    outputs = list(main.function_type.outputs.data)
    arg_attrs = list(main.arg_attrs.data) if main.arg_attrs is not None else [DictionaryAttr({}) for _ in inputs]
    if len(arg_attrs) != len(inputs) or len(block.args) != len(inputs):
        raise BytecodeError("@main's arguments do not match its type")

    if len(info.platforms) > 1:
        # the first argument selects the platform's lowering: bind it to ours
        attr = arg_attrs[0].data.get("jax.global_constant") if arg_attrs else None
        if not inputs or not (isinstance(attr, StringAttr) and attr.data == "_platform_index"):
            raise BytecodeError(f"an export for {', '.join(info.platforms)} without a platform index argument")
        index = info.platforms.index("cpu") if "cpu" in info.platforms else 0
        from xla_opt.dialects.stablehlo.ops import STABLEHLO_OPS

        t = inputs[0]
        value = DenseIntOrFPElementsAttr.from_list(TensorType(i32, []), [index])
        if t != TensorType(i32, []):
            raise BytecodeError(f"the platform index argument has type {t}")
        const = STABLEHLO_OPS["constant"].create(result_types=[t], properties={"value": value})
        block.insert_op_before(const, block.first_op) if block.first_op else block.add_op(const)
        block.args[0].replace_all_uses_with(const.results[0])
        block.erase_arg(block.args[0])
        del inputs[0], arg_attrs[0]

    from xla_opt.dialects.stablehlo.attrs import StablehloTokenType

    n_tokens = 0
    while n_tokens < len(inputs) and isinstance(inputs[n_tokens], StablehloTokenType):
        n_tokens += 1
    kept = info.module_kept_var_idx or list(range(len(info.in_avals)))
    if len(inputs) - n_tokens != len(kept):
        raise BytecodeError(f"@main has {len(inputs) - n_tokens} array arguments, the export keeps {len(kept)} inputs")
    if len(kept) < len(info.in_avals):
        kept_set = set(kept)
        for i, aval in enumerate(info.in_avals):
            if i in kept_set:
                continue
            t = TensorType(_element_type(aval.dtype), [int(d) for d in aval.shape])
            block.insert_arg(t, n_tokens + i)
            inputs.insert(n_tokens + i, t)
            arg_attrs.insert(n_tokens + i, DictionaryAttr({}))
    main.properties["function_type"] = FunctionType.from_lists(inputs, outputs)
    main.properties["arg_attrs"] = ArrayAttr(arg_attrs)


__all__ = ["BYTECODE", "JAX_EXPORT", "binary_kind", "read_binary", "read_bytecode", "read_jax_export"]
