"""`xla-opt`: xDSL's `xdsl-opt` driver with the xla dialect and passes registered, and
mlir-opt's conventions for diagnostics.

User errors (malformed input, unknown op or pass, verifier failures, missing files)
print `file:line:col: error: message` on stderr and exit 1; never a traceback. Set
XLA_OPT_TRACEBACK=1 to see the Python traceback of an internal error.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import PassPipeline
from xdsl.utils.exceptions import DiagnosticException, ParseError
from xdsl.xdsl_opt_main import xDSLOptMain

from xla_opt.context import install_xdsl_patches, register_extra_llvm_ops
from xla_opt.diagnostics import (
    Diagnostic,
    DiagnosticError,
    check_expectations,
    collect_expectations,
    one_line,
    parse_error_diagnostic,
    parse_source,
    verify_module,
)
from xla_opt.universe import XLA_OPT_UNIVERSE, llvm_target

SPLIT_MARKER = "// -----"


class XlaOptMain(xDSLOptMain):
    version_format = "xla-opt built on xdsl {xdsl_version}"

    def __init__(self, args: Sequence[str] | None = None):
        install_xdsl_patches()
        super().__init__(description="xla-opt: the xla dialect's modular optimizer", args=args)

    def register_all_dialects(self):
        super().register_all_dialects()  # every installed plugin's, ours included
        register_extra_llvm_ops(self.ctx)

    # xDSL's other targets (x86-asm, riscv-asm, csl, wgsl...) print their own
    # dialects; on xla programs they fail with internal errors, so they are not offered.
    XDSL_TARGETS = ("mlir",)

    def register_all_targets(self):
        super().register_all_targets()
        self.available_targets = {
            name: factory
            for name, factory in self.available_targets.items()
            if name in self.XDSL_TARGETS or name in XLA_OPT_UNIVERSE.all_targets
        }
        self.available_targets["llvm"] = llvm_target

    def setup_pipeline(self):
        try:
            super().setup_pipeline()
        except Exception as e:  # unknown pass, bad pass option
            raise DiagnosticError(
                [Diagnostic("xla-opt", 0, 0, f"invalid pass pipeline '{self.args.passes}': {one_line(e)}")]
            ) from None
        # Verification runs through our located verifier instead of module.verify().
        self.pipeline = PassPipeline(self.pipeline.passes, self._between_passes)

    def _between_passes(self, previous, module: ModuleOp, next_pass) -> None:
        if previous is not None and self.args.time_passes:
            # the pass ends here; the verification after it is not its time
            print(f"pass {previous.name}: {(time.perf_counter() - self._pass_start) * 1e3:.2f} ms", file=sys.stderr)
        if previous is not None and not self.args.disable_verify:
            diags = verify_module(module, self.get_input_name())
            if diags:
                raise DiagnosticError(
                    [
                        Diagnostic(d.file, d.line, d.col, f"{d.message} (after pass '{previous.name}')")
                        for d in diags
                    ]
                )
        if previous and next_pass and self.args.print_between_passes:
            print(f"// -----// IR after {previous.name} //----- //", file=sys.stderr)
            print(module, file=sys.stderr)
        if next_pass is not None and self.args.time_passes:
            self._pass_start = time.perf_counter()

    # ---- the run loop --------------------------------------------------------------
    def _read_input(self) -> str:
        name = self.args.input_file
        try:
            if name is None or name == "-":
                data = sys.stdin.buffer.read()
            else:
                with open(name, "rb") as f:
                    data = f.read()
        except OSError as e:
            raise DiagnosticError(
                [Diagnostic(name, 0, 0, f"cannot open input file: {e.strerror}")]
            ) from None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as e:
            line = data[: e.start].count(b"\n") + 1
            col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
            raise DiagnosticError(
                [Diagnostic(self.get_input_name(), line, col, "input is not valid UTF-8 text")]
            ) from None

    def _chunks(self, text: str) -> list[tuple[str, int]]:
        if not self.args.split_input_file:
            return [(text, 0)]
        chunks, offset = [], 0
        for chunk in text.split(SPLIT_MARKER):
            chunks.append((chunk, offset))
            offset += chunk.count("\n")
        return chunks

    def _process_chunk(self, chunk: str, offset: int) -> str:
        name = self.get_input_name()
        module = parse_source(self.ctx, chunk, name, offset)
        if not self.args.disable_verify:
            diags = verify_module(module, name)
            if diags:
                raise DiagnosticError(diags)
        try:
            self.apply_passes(module)
        except DiagnosticError:
            raise
        except DiagnosticException as e:
            raise DiagnosticError([Diagnostic(name, 0, 0, one_line(e))]) from None
        except ParseError as e:
            raise DiagnosticError([parse_error_diagnostic(e, offset)]) from None
        return self.output_resulting_program(module)

    def run(self) -> int:  # type: ignore[override]
        text = self._read_input()
        outputs: list[str] = []
        problems: list[str] = []
        for i, (chunk, offset) in enumerate(self._chunks(text)):
            expectations = (
                collect_expectations(chunk, offset) if self.args.verify_diagnostics else []
            )
            try:
                out = self._process_chunk(chunk, offset)
                diags: list[Diagnostic] = []
            except DiagnosticError as e:
                if not self.args.verify_diagnostics:
                    raise
                out, diags = "", e.diagnostics
            if self.args.verify_diagnostics:
                problems += check_expectations(expectations, diags, self.get_input_name())
            if i > 0:
                outputs.append(SPLIT_MARKER + "\n")
            outputs.append(out)
        if problems:
            for p in problems:
                print(p, file=sys.stderr)
            return 1
        result = "".join(outputs)
        if self.args.output_file:
            try:
                with open(self.args.output_file, "w") as f:
                    f.write(result)
            except OSError as e:
                raise DiagnosticError(
                    [Diagnostic(self.args.output_file, 0, 0, f"cannot write output: {e.strerror}")]
                ) from None
        else:
            sys.stdout.write(result)
        return 0


def _format(d: Diagnostic) -> str:
    if d.line == 0:
        return f"{d.file}: {d.severity}: {d.message}"
    return str(d)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        code = XlaOptMain(args=argv).run()
    except DiagnosticError as e:
        for d in e.diagnostics:
            print(_format(d), file=sys.stderr)
        code = 1
    except SystemExit as e:  # argparse: --help/--version (0) or a usage error (2)
        code = 0 if not e.code else 1
    except RecursionError:
        print("xla-opt: error: input nests too deeply", file=sys.stderr)
        code = 1
    except KeyboardInterrupt:
        code = 130
    except Exception as e:  # noqa: BLE001 - never show a traceback to users
        if os.environ.get("XLA_OPT_TRACEBACK"):
            raise
        print(f"xla-opt: internal error: {type(e).__name__}: {one_line(e)}", file=sys.stderr)
        code = 1
    sys.stdout.flush()
    if argv is None:
        sys.exit(code)
    return code



if __name__ == "__main__":
    main()
