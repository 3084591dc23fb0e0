"""`xla-opt`: xDSL's `xdsl-opt` driver with the xla dialect and passes registered, and
mlir-opt's conventions: MLIR's textual pipelines (`--pass-pipeline=
'builtin.module(func.func(canonicalize,cse))'`), `--mlir-*` instrumentation (IR dumps,
timing, statistics), single-dash long options (`-split-input-file`), split input files
reported chunk by chunk, and StableHLO imported by itself before a pipeline runs.

User errors (malformed input or pipeline, unknown op or pass, verifier failures,
missing files) print `file:line:col: error: message` on stderr and exit 1; never a
traceback. Set XLA_OPT_TRACEBACK=1 to see the Python traceback of an internal error.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from collections.abc import Sequence

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException, ParseError
from xdsl.xdsl_opt_main import xDSLOptMain

from xla_opt.context import install_xdsl_patches, multiverse, register_extra_llvm_ops
from xla_opt.diagnostics import (
    Diagnostic,
    DiagnosticError,
    check_expectations,
    collect_expectations,
    one_line,
    silence_broken_pipe,
    parse_error_diagnostic,
    parse_source,
    verify_module,
)
from xla_opt.pass_manager import (
    ALL,
    PassManager,
    PipelineError,
    parse_pipeline_text,
    pipeline_diagnostic,
    statistics_report,
    timing_report,
)
from xla_opt.universe import XLA_OPT_UNIVERSE, llvm_target

SPLIT_MARKER = "// -----"
IMPORTED_DIALECTS = ("stablehlo.", "chlo.")

TARGET_HELP = (
    "output: mlir (default; the IR as text), llvm (LLVM IR of a module lowered with -p xla-to-llvm), "
    "stablehlo (StableHLO text JAX and XLA accept), hlo (HLO text XLA's parser accepts)"
)
PIPELINE_HELP = (
    "passes to run: xDSL's list 'pass1,pass2{option=value}', or MLIR's anchored form "
    "'builtin.module(func.func(canonicalize,cse),xla-to-llvm)' (--list-passes lists the passes)"
)
VERIFY_DIAGNOSTICS_HELP = (
    "check the diagnostics against the input's '// expected-error @+1 {{message}}' comments "
    "(also @-N, @above, @below, expected-error-re): exit 0 when every diagnostic is expected and every "
    "expectation produced, 1 otherwise"
)
NO_IMPORT_HELP = (
    "do not import StableHLO: by default a module with stablehlo/chlo ops is converted to xla "
    "(convert-stablehlo-to-xla) before a pipeline or a non-mlir target runs; without a pipeline "
    "StableHLO is printed as parsed"
)


def _mlir_pass_list(values: list[str] | None) -> frozenset[str]:
    """`--mlir-print-ir-after=cse,canonicalize`, repeatable."""
    return frozenset(name.strip() for value in values or () for name in value.split(",") if name.strip())


class XlaOptMain(xDSLOptMain):
    version_format = "xla-opt built on xdsl {xdsl_version}"

    def __init__(self, args: Sequence[str] | None = None):
        """xDSLOptMain's set-up, with MLIR's spellings of the arguments translated
        before argparse reads them."""
        self.started = time.perf_counter()
        install_xdsl_patches()
        self.available_frontends = {}
        self.available_passes = {}
        self.available_targets = {}
        self.ctx = Context()
        self.register_all_dialects()
        self.register_all_frontends()
        self.register_all_passes()
        self.register_all_targets()

        arg_parser = argparse.ArgumentParser(description="xla-opt: the xla dialect's modular optimizer")
        self.register_all_arguments(arg_parser)
        self._pass_flags: list[str] = []
        self.args = arg_parser.parse_args(self._normalize_argv(arg_parser, sys.argv[1:] if args is None else args))
        target = self.args.target.split("{", 1)[0]
        if target not in self.available_targets:
            arg_parser.error(
                f"argument -t/--target: invalid choice: '{target}' (choose from {', '.join(self.available_targets)})"
            )
        self.ctx.allow_unregistered = self.args.allow_unregistered_dialect
        if self.args.disable_verify:
            from xdsl.ir import Attribute
            from xdsl.xdsl_opt_main import _empty_post_init

            Attribute.__post_init__ = _empty_post_init  # as xdsl-opt does
        self.setup_pipeline()

    # ---- registry ----------------------------------------------------------------------
    def register_all_dialects(self):
        # every installed plugin's, ours included (the registry is read once per process)
        for name, factory in multiverse().all_dialects.items():
            self.ctx.register_dialect(name, factory)
        register_extra_llvm_ops(self.ctx)

    def register_all_passes(self):
        for name, factory in multiverse().all_passes.items():
            self.register_pass(name, factory)

    # xDSL's other targets (x86-asm, riscv-asm, csl, wgsl...) print their own
    # dialects; on xla programs they fail with internal errors, so they are not offered.
    XDSL_TARGETS = ("mlir",)

    def register_all_targets(self):
        self.available_targets = {
            name: factory
            for name, factory in multiverse().all_targets.items()
            if name in self.XDSL_TARGETS or name in XLA_OPT_UNIVERSE.all_targets
        }
        self.available_targets["llvm"] = llvm_target
        self.available_targets["hlo"] = _hlo_target

    # ---- arguments ---------------------------------------------------------------------
    def register_all_arguments(self, arg_parser: argparse.ArgumentParser):
        super().register_all_arguments(arg_parser)
        helps = {
            "target": TARGET_HELP,
            "passes": PIPELINE_HELP,
            "verify_diagnostics": VERIFY_DIAGNOSTICS_HELP,
            "print_between_passes": "print the IR after each pass (as --mlir-print-ir-after-all)",
            "time_passes": "print each pass's time in ms (--mlir-timing prints MLIR's report)",
            "print_debuginfo": "print locations, loc(...) (also --mlir-print-debuginfo)",
            "parsing_diagnostics": argparse.SUPPRESS,
            "shrink": argparse.SUPPRESS,
        }
        for action in arg_parser._actions:
            if action.dest in helps:
                action.help = helps[action.dest]
        add = arg_parser.add_argument
        add("--pass-pipeline", default="", metavar="PIPELINE", help="the pipeline, as -p takes it")
        add("--list-passes", action="store_true", help="list every pass with its description and options, and exit")
        add("--no-import", action="store_true", help=NO_IMPORT_HELP)
        mlir = arg_parser.add_argument_group("mlir-opt's options (also with a single dash)")
        mlir.add_argument("--mlir-print-ir-before-all", action="store_true", help="print the IR before every pass")
        mlir.add_argument("--mlir-print-ir-after-all", action="store_true", help="print the IR after every pass")
        mlir.add_argument(
            "--mlir-print-ir-before", action="append", metavar="PASS", help="print the IR before these passes"
        )
        mlir.add_argument(
            "--mlir-print-ir-after", action="append", metavar="PASS", help="print the IR after these passes"
        )
        mlir.add_argument(
            "--mlir-print-ir-after-change",
            action="store_true",
            help="with --mlir-print-ir-after(-all): print only when the pass changed the IR",
        )
        mlir.add_argument(
            "--mlir-timing", action="store_true", help="print MLIR's execution time report (a tree) on stderr"
        )
        mlir.add_argument(
            "--mlir-pass-statistics",
            action="store_true",
            help="print each pass's statistics (operations before, after, created, erased; patterns applied) on stderr",
        )
        mlir.add_argument("--mlir-print-debuginfo", dest="print_debuginfo", action="store_true", help="print locations")
        mlir.add_argument(
            "--mlir-elide-elementsattrs-if-larger",
            type=int,
            metavar="N",
            help="print dense constants of more than N elements as dense_resource<__elided__>",
        )

    def _normalize_argv(self, arg_parser: argparse.ArgumentParser, argv: Sequence[str]) -> list[str]:
        """MLIR's command line: a long option with one dash (`-split-input-file`,
        `-pass-pipeline=...`) is the long option; `-canonicalize`, `--cse` name passes
        (appended to the pipeline, as mlir-opt's pass flags)."""
        longs = {s for a in arg_parser._actions for s in a.option_strings if s.startswith("--")}
        out: list[str] = []
        rest = list(argv)
        while rest:
            arg, rest = rest[0], rest[1:]
            if arg == "--":
                out += [arg, *rest]
                break
            if arg.startswith("-") and len(arg) > 2:
                bare = arg.lstrip("-")
                name = bare.split("=", 1)[0]
                if f"--{name}" in longs:
                    arg = f"--{bare}"
                elif name.split("{", 1)[0] in self.available_passes:
                    pass_name, _, options = bare.partition("=")  # `-pass="a=1 b=2"`
                    self._pass_flags.append(f"{pass_name}{{{options}}}" if options else pass_name)
                    continue
                elif not arg.startswith("--") and len(name) > 2 and any(s.startswith(f"--{name}") for s in longs):
                    arg = f"--{bare}"  # a prefix, as argparse allows with two dashes
            out.append(arg)
        return out

    def setup_pipeline(self):
        args = self.args
        if args.list_passes:
            sys.stdout.write(list_passes(self.available_passes))
            raise SystemExit(0)
        texts = [t for t in (args.passes, args.pass_pipeline, ",".join(self._pass_flags)) if t.strip()]
        if len(texts) > 1 and args.pass_pipeline.strip():
            raise DiagnosticError(
                [Diagnostic("xla-opt", 0, 0, "give the pipeline once: --pass-pipeline, or -p and pass flags")]
            )
        text = ",".join(texts)
        try:
            self.passes: list[ModulePass] = parse_pipeline_text(text, self.available_passes)
        except PipelineError as e:
            raise DiagnosticError([pipeline_diagnostic(text, e)]) from None
        _check_external_tools(self.passes)
        before = _mlir_pass_list(args.mlir_print_ir_before) | ({ALL} if args.mlir_print_ir_before_all else set())
        after = _mlir_pass_list(args.mlir_print_ir_after) | (
            {ALL} if args.mlir_print_ir_after_all or args.print_between_passes else set()
        )
        self.manager = PassManager(
            self.ctx,
            file=self.get_input_name(),
            verify=not args.disable_verify,
            print_before=frozenset(before),
            print_after=frozenset(after),
            print_after_change=args.mlir_print_ir_after_change,
            print_debuginfo=args.print_debuginfo,
            print_generic=args.print_op_generic,
            statistics=args.mlir_pass_statistics,
            pass_times=self._print_pass_time if args.time_passes else None,
        )

    @staticmethod
    def _print_pass_time(p: ModulePass, seconds: float) -> None:
        print(f"pass {p.name}: {seconds * 1e3:.2f} ms", file=sys.stderr)

    def apply_passes(self, prog: ModuleOp):
        self.manager.run(self.passes, prog)

    # ---- the run loop --------------------------------------------------------------
    def _read_input(self) -> str | bytes:
        name = self.args.input_file
        try:
            if name is None or name == "-":
                data = sys.stdin.buffer.read()
            else:
                with open(name, "rb") as f:
                    data = f.read()
        except OSError as e:
            raise DiagnosticError([Diagnostic(name, 0, 0, f"cannot open input file: {e.strerror}")]) from None
        from xla_opt.loading import is_binary_program

        if is_binary_program(data):  # MLIR bytecode, a serialized jax.export: read by xla_opt.formats
            return data
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as e:
            line = data[: e.start].count(b"\n") + 1
            col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
            raise DiagnosticError(
                [Diagnostic(self.get_input_name(), line, col, "input is not valid UTF-8 text")]
            ) from None

    def _chunks(self, text: str | bytes) -> list[tuple[str | bytes, int]]:
        if not self.args.split_input_file or isinstance(text, bytes):
            return [(text, 0)]
        chunks, offset = [], 0
        # as mlir-opt: the marker starts a line (a comment quoting it does not split)
        for chunk in re.split(r"(?m)^[ \t]*" + re.escape(SPLIT_MARKER), text):
            chunks.append((chunk, offset))
            offset += chunk.count("\n")
        return chunks

    def _needs_import(self, module: ModuleOp) -> bool:
        """StableHLO goes through convert-stablehlo-to-xla before a pipeline or a
        non-mlir target, as xla-run and the API import it; not when the pipeline starts
        with that pass itself (its diagnostics then name it), nor with --no-import."""
        if self.args.no_import or not (self.passes or self.args.target != "mlir"):
            return False
        if self.passes and self.passes[0].name == "convert-stablehlo-to-xla":
            return False
        return any(op.name.startswith(IMPORTED_DIALECTS) for op in module.walk())

    def _process_chunk(self, chunk: str | bytes, offset: int) -> str:
        name = self.get_input_name()
        measure = self.manager.measure
        with measure("Parser"):
            if isinstance(chunk, bytes):  # MLIR bytecode, a serialized jax.export: StableHLO
                from xla_opt.diagnostics import ProgramError
                from xla_opt.formats.binary import read_binary

                try:
                    module = read_binary(chunk, name, self.ctx)
                except ProgramError as e:
                    raise DiagnosticError([Diagnostic(name, 0, 0, str(e).removeprefix(f"{name}: error: "))]) from None
            elif _is_hlo_text(chunk):  # HLO text (XLA's dumps): read as an xla program
                from xla_opt.formats.hlo_text import parse_hlo_text

                module = parse_hlo_text(chunk, name, offset)
            else:
                module = parse_source(self.ctx, chunk, name, offset)
        if not self.args.disable_verify:
            with measure("Verifier"):
                diags = verify_module(module, name)
            if diags:
                raise DiagnosticError(diags)
        try:
            if self._needs_import(module):
                from xla_opt.passes.conversions.convert_stablehlo_to_xla import convert_module

                with measure("StableHLO import"):
                    convert_module(self.ctx, module)
                if diags := verify_module(module, name):
                    raise DiagnosticError(diags)
            self.apply_passes(module)
        except DiagnosticError:
            raise
        except DiagnosticException as e:
            raise DiagnosticError([Diagnostic(name, 0, 0, one_line(e))]) from None
        except ParseError as e:
            raise DiagnosticError([parse_error_diagnostic(e, offset)]) from None
        with measure("Output"):
            return self.output_resulting_program(module)

    def output_resulting_program(self, prog: ModuleOp) -> str:
        limit = self.args.mlir_elide_elementsattrs_if_larger
        if limit is None or self.args.target != "mlir":
            return super().output_resulting_program(prog)
        from io import StringIO

        out = StringIO()
        printer = _eliding_printer(limit)(
            stream=out,
            print_generic_format=self.args.print_op_generic,
            print_properties_as_attributes=self.args.print_no_properties,
            print_debuginfo=self.args.print_debuginfo,
        )
        printer.print_op(prog)
        printer.print_metadata(self.ctx.loaded_dialects)
        out.write("\n\n")
        return out.getvalue()

    def run(self) -> int:  # type: ignore[override]
        text = self._read_input()
        outputs: list[str] = []
        problems: list[str] = []
        failed = False
        chunks = self._chunks(text)
        for i, (chunk, offset) in enumerate(chunks):
            expectations = (
                collect_expectations(chunk, offset) if self.args.verify_diagnostics and isinstance(chunk, str) else []
            )
            try:
                out = self._process_chunk(chunk, offset)
                diags: list[Diagnostic] = []
            except DiagnosticError as e:
                if not (self.args.verify_diagnostics or self.args.split_input_file):
                    raise
                # as mlir-opt: every chunk is reported, a failed one by its diagnostics
                out, diags = "", e.diagnostics
            if self.args.verify_diagnostics:
                problems += check_expectations(expectations, diags, self.get_input_name())
            elif diags:
                failed = True
                for d in diags:
                    print(_format(d), file=sys.stderr)
            if i > 0:
                outputs.append(SPLIT_MARKER + "\n")
            outputs.append(out)
        self._print_reports()
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
        return 1 if failed else 0

    def _print_reports(self) -> None:
        if self.args.mlir_pass_statistics:
            sys.stderr.write(statistics_report(self.manager.root))
        if self.args.mlir_timing:
            sys.stderr.write(timing_report(self.manager.root, time.perf_counter() - self.started))


def _eliding_printer(limit: int) -> type:
    """MLIR's --mlir-elide-elementsattrs-if-larger: dense constants of more than
    `limit` elements print as `dense_resource<__elided__>`."""
    from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
    from xdsl.printer import Printer

    class ElidingPrinter(Printer):
        def print_attribute(self, attribute) -> None:  # type: ignore[no-untyped-def]
            if isinstance(attribute, DenseIntOrFPElementsAttr) and len(attribute) > limit:
                self.print_string("dense_resource<__elided__> : ")
                self.print_attribute(attribute.get_type())
                return
            super().print_attribute(attribute)

    return ElidingPrinter


def list_passes(available: dict) -> str:
    """`--list-passes`: ours first, then xDSL's (and other plugins'), each with the
    first line of its docstring and its options."""
    from xdsl.passes import get_pass_option_infos

    ours = [name for name in XLA_OPT_UNIVERSE.all_passes if name in available]
    others = sorted(name for name in available if name not in XLA_OPT_UNIVERSE.all_passes)
    lines: list[str] = []
    for title, names in (("xla-opt passes", ours), ("xDSL passes", others)):
        lines.append(f"{title}:")
        for name in names:
            try:
                cls = available[name]()
            except Exception as e:  # noqa: BLE001 - a plugin that does not import
                lines.append(f"  {name}  (cannot be loaded: {one_line(str(e))})")
                continue
            summary = pass_summary(cls, name)
            lines.append(f"  {name}" + (f"  - {summary}" if summary else ""))
            for info in get_pass_option_infos(cls):
                default = f" = {info.default_value}" if info.default_value is not None else ""
                kind = info.expected_type.replace("'", "")
                lines.append(f"      {{{info.name.replace('_', '-')}: {kind}{default}}}")
        lines.append("")
    return "\n".join(lines)


def pass_summary(cls: type, name: str) -> str:
    """The first sentence of a pass's docstring (its module's when the class has none:
    a dataclass without one gets its signature as __doc__)."""
    doc = cls.__doc__ or ""
    if not doc.strip() or doc.startswith(cls.__name__ + "("):
        doc = getattr(sys.modules.get(cls.__module__), "__doc__", None) or ""
    paragraph = " ".join(doc.strip().split("\n\n")[0].split())
    for prefix in (f"{name}: ", f"`{name}`: "):
        paragraph = paragraph.removeprefix(prefix)
    return re.split(r"(?<=\.)\s", paragraph, maxsplit=1)[0]


def _check_external_tools(passes: Sequence[ModulePass]) -> None:
    """xDSL's `mlir-opt` pass runs the mlir-opt executable: when it is missing, say so
    before anything runs (issue 31: it was `internal error: ValueError: mlir-opt is not
    available` after the passes before it had run)."""
    import shutil

    from xdsl.transforms.mlir_opt import MLIROptPass

    for p in passes:
        if isinstance(p, MLIROptPass) and not shutil.which(p.executable):
            raise DiagnosticError(
                [
                    Diagnostic(
                        "xla-opt",
                        0,
                        0,
                        f"pass '{p.name}' runs the '{p.executable}' executable, which is not on PATH "
                        "(install MLIR's mlir-opt or set XDSL_MLIR_OPT to its path)",
                    )
                ]
            )


def _hlo_target() -> type:
    from xla_opt.formats.hlo_printer import HloTarget

    return HloTarget


def _is_hlo_text(text: str) -> bool:
    from xla_opt.formats.hlo_syntax import is_hlo_text

    return is_hlo_text(text)


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
    except BrokenPipeError:  # the reader of stdout went away (`| head`)
        code = silence_broken_pipe()
    except Exception as e:
        if os.environ.get("XLA_OPT_TRACEBACK"):
            raise
        print(f"xla-opt: internal error: {type(e).__name__}: {one_line(e)}", file=sys.stderr)
        code = 1
    except BaseException as e:
        if os.environ.get("XLA_OPT_TRACEBACK"):
            raise
        print(f"xla-opt: error: {one_line(str(e))}", file=sys.stderr)
        code = 1
    sys.stdout.flush()
    if argv is None:
        sys.exit(code)
    return code


if __name__ == "__main__":
    main()
