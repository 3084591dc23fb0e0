"""The custom_call family to calls out of the compiled code.

A target registered in Python (`xla_opt.register_custom_call`) when the program is
lowered becomes a host call (`__xla_host_<id>_custom_call`, see host_calls.py): the
runtime calls the interpreter's custom_call on the operand buffers, so the target sees
read-only numpy arrays and its results are checked against the declared types, as on
the interpreter.

Any other target is a native symbol, called from native code through
`__xla_native_<id>_<target>`, which the runtime binds to a wrapper calling the target
with XLA's CPU custom-call convention, API version 1 (the op's `void
call_target_name(void* out, void** in)`):

    extern "C" void target(void* out, const void** in);

`in` holds one pointer per operand; `out` is the result buffer when there is one
result, else an array of one pointer per result. Buffers are dense, row-major, of the
declared element types (i1 as one byte, bf16 as its 16 bits); backend_config is not
passed (version 1 has no opaque argument). A symbol the JIT cannot resolve (not in the
process, not loaded with llvmlite.binding.load_library_permanently, not added with
llvmlite.binding.add_symbol) is a LookupError when the program is compiled.

Custom calls with tuple operands or results run on the interpreter only.
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xla_opt.dialects.xla.custom_call import CustomCallOp

from .host_calls import call_external, describe, host_call_name, replace_with_host_call


class CustomCallToHostCall(RewritePattern):
    """custom_call of a Python target -> a host call; of another -> a native call."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CustomCallOp, rewriter: PatternRewriter, /) -> None:
        # the registry lives with the interpreter, imported only by programs that call out
        from xla_opt.interpreter.custom_call import registered_custom_calls

        operands = list(op.inputs)
        results = [r.type for r in op.results_]
        if not all(isinstance(t, TensorType) for t in (*(v.type for v in operands), *results)):
            return
        target = op.get_call_target_name()
        call = describe(op, "custom_call", operands, list(op.results_), target=target)
        if target in registered_custom_calls():
            replace_with_host_call(op, rewriter, call, operands, token=False)
            return
        rewriter.replace(op, call_external(op, host_call_name(call, native=True), operands, results))


PATTERNS: list[RewritePattern] = [CustomCallToHostCall()]

# The ops these patterns lower (tensors only: tuples run on the interpreter).
LOWERED: frozenset[str] = frozenset({CustomCallOp.name})
