"""A snapshot of what the compiler writes, to show that a change keeps behaviour.

    .venv/bin/python benchmarks/ir_snapshot.py OUT_DIR            # write the snapshot
    diff -r OLD_DIR NEW_DIR                                        # compare two of them

It writes, one file each:
- `llvm/<program>.ll`: the LLVM IR the JIT compiles (`xla_opt.compile(..., backend="jit")`,
  two compile threads, so pipelined programs are split the same way every time) for the
  benchmark workloads (`bench.py`), the compile-time programs JAX exports (when JAX is
  installed) and `examples/*.mlir`;
- `cli/<program>.ll`: the same programs through `xla-opt -p xla-to-llvm -t llvm`;
- `lit/<digest>.<n>.out`: the output (stdout and stderr) of every `// RUN:` line of
  `lit_tests/`, run up to its first `| FileCheck`, named by a digest of the test's text
  (a test moved or renamed keeps its name here) and with the test's path written `%s`.

A refactoring that claims "behaviour unchanged" takes one snapshot before and one
after, and `diff -r` shows nothing.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def programs() -> dict[str, str]:
    """Program name -> text: the benchmark workloads, JAX's exports, the examples."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench

    found = {}
    for make in bench.WORKLOADS:
        w = make()
        found[f"bench_{w.name}"] = w.program
    jax, jnp = bench._import_jax()
    if jax is not None:
        import numpy as np

        for name, make in bench.COMPILE_PROGRAMS.items():
            fn, args = make(jax, jnp, np.random.default_rng(1))
            found[f"jax_{name}"] = jax.jit(fn).lower(*args).as_text()
    for path in sorted((ROOT / "examples").glob("*.mlir")):
        found[f"example_{path.stem}"] = path.read_text()
    return found


def lit_commands() -> list[tuple[str, int, str]]:
    """(test file, index, shell command) for every RUN line, cut before FileCheck."""
    commands = []
    for path in sorted((ROOT / "lit_tests").rglob("*.mlir")):
        runs, pending = [], ""
        for line in path.read_text().splitlines():
            m = re.match(r"\s*//\s*RUN:\s?(.*)$", line)
            if not m:
                continue
            text = pending + m.group(1)
            if text.rstrip().endswith("\\"):
                pending = text.rstrip()[:-1] + " "
                continue
            pending = ""
            runs.append(text)
        for i, run in enumerate(runs):
            run = run.split("| FileCheck")[0].split("| filecheck")[0]
            run = run.replace("%xla-opt", str(BIN / "xla-opt")).replace("%xla-run", str(BIN / "xla-run"))
            run = run.replace("%s", str(path)).replace("%t", f"/tmp/ir_snapshot_{path.stem}_{i}")
            run = run.replace("not ", "", 1) if run.lstrip().startswith("not ") else run
            commands.append((str(path), i, run))
    return commands


def main(argv: list[str]) -> int:
    out = Path(argv[0])
    env = dict(os.environ, XLA_OPT_NUM_THREADS="2", XLA_OPT_CACHE="0", PATH=f"{BIN}:{os.environ['PATH']}")
    os.environ.update(env)
    import xla_opt

    (out / "llvm").mkdir(parents=True, exist_ok=True)
    (out / "cli").mkdir(parents=True, exist_ok=True)
    (out / "lit").mkdir(parents=True, exist_ok=True)
    for name, text in programs().items():
        try:
            ir = xla_opt.compile(text, backend="jit").jit.llvm_ir
        except Exception as e:  # noqa: BLE001 - recorded in the snapshot
            ir = f"error: {type(e).__name__}: {e}"
        (out / "llvm" / f"{name}.ll").write_text(ir)
        src = out / f"{name}.mlir"
        src.write_text(text)
        done = subprocess.run(
            [str(BIN / "xla-opt"), str(src), "-p", "xla-to-llvm", "-t", "llvm"], capture_output=True, text=True, env=env
        )
        (out / "cli" / f"{name}.ll").write_text(done.stdout + done.stderr.replace(str(src), name))
        src.unlink()
    for test, i, command in lit_commands():
        done = subprocess.run(command, shell=True, capture_output=True, text=True, env=env, cwd=ROOT / "lit_tests")
        output = (done.stdout + done.stderr).replace(test, "%s").replace(str(ROOT), "ROOT")
        output = re.sub(r"\d+\.\d{4}( \(\s*\d+\.\d%\))?", "<time>", output)  # --mlir-timing's figures
        digest = hashlib.sha256(Path(test).read_bytes()).hexdigest()[:16]
        (out / "lit" / f"{digest}.{i}.out").write_text(output)
    print(f"snapshot in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
