"""Session set-up shared by every test module."""

import importlib.util
import os

import pytest

# Every program the tests compile is verified after each stage of the lowering
# pipeline (lowering/xla_to_llvm.py): every pass's output must verify on its own.
os.environ.setdefault("XLA_OPT_VERIFY_STAGES", "1")
# The JIT's on-disk cache of compiled code: one fresh directory per session, never the user's.
import tempfile  # noqa: E402
os.environ["XLA_OPT_CACHE_DIR"] = tempfile.mkdtemp(prefix="xla-opt-cache-")


@pytest.fixture(scope="session", autouse=True)
def _initialize_jax_before_llvmlite():
    """jaxlib and llvmlite each carry an LLVM. A session once crashed in JAX's MLIR
    set-up after JIT-compiled code had run in the same process; starting JAX's CPU
    backend first, before any llvmlite JIT, keeps the order that works."""
    if importlib.util.find_spec("jax") is not None:
        import jax

        jax.config.update("jax_platforms", "cpu")
        jax.devices()
    yield


@pytest.fixture(autouse=True)
def _restore_jax_x64():
    """Tests that compare with JAX in 64 bits switch `jax_enable_x64` on globally; put
    it back after each test, so that the programs other tests export from JAX (with
    float32 constants) do not depend on which tests ran before in the same worker."""
    if importlib.util.find_spec("jax") is None:
        yield
        return
    import jax

    before = jax.config.jax_enable_x64
    yield
    if jax.config.jax_enable_x64 != before:
        jax.config.update("jax_enable_x64", before)


@pytest.fixture
def targets():
    """`targets(name, fn)` registers a custom-call target for one test."""
    from xla_opt.interpreter.custom_call import register_custom_call, unregister_custom_call

    names = []

    def add(name, fn):
        register_custom_call(name, fn)
        names.append(name)

    yield add
    for n in names:
        unregister_custom_call(n)
