"""xla_opt.lowering: the progressive lowering from the xla dialect to LLVM IR.

See `pipeline.py` for the stages.
"""


def lowered_op_names() -> set[str]:
    """Names of the xla ops the JIT pipeline lowers (for the README's op table)."""
    from xla_opt.lowering.xla_to_linalg import LOWERED_OPS

    return set(LOWERED_OPS)
