"""Long fuzz runs, each case in a worker subprocess with a time limit:

    python -m tests.fuzz programs --count 1000 --seed 0      # generated programs
    python -m tests.fuzz mutants --count 5000 --seed 0       # mutants of valid programs
    python -m tests.fuzz program 17                          # one case, with its report
    python -m tests.fuzz mutant 123

Every failure is printed with its seed and a minimized reproducer (a smaller program
that fails the same way: same kind of failure, same stage). `--jobs N` runs N workers
in parallel. The exit code is 1 when anything failed. (`worker` is the subprocess's
own entry point.)
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import numpy as np

from tests.fuzz.oracle import CaseResult, Failure, Worker, describe_array, serve
from tests.fuzz.program_gen import GeneratedProgram, dense, generate_program

MAX_TRIES = 400  # candidate programs per minimization


def _run_all(
    kind: str, seeds: list[int], jobs: int, timeout: float, cli_every: int, focus: str | None = None
) -> list[CaseResult]:
    """Run every seed on `jobs` workers; print progress and each failure as it comes."""
    workers = [Worker(timeout) for _ in range(jobs)]
    results: list[CaseResult] = []

    def request(seed: int) -> dict:
        if kind == "program":
            return {"op": "program", "seed": seed, "focus": focus}
        return {"op": "mutant", "seed": seed, "cli": cli_every > 0 and seed % cli_every == 0}

    def run_slice(k: int) -> None:
        for seed in seeds[k::jobs]:
            result = workers[k].run(request(seed))
            results.append(result)
            if result.failures:
                print(f"\nFAIL {result.case}: " + "; ".join(str(f)[:200] for f in result.failures), flush=True)
            if len(results) % 100 == 0:
                print(f"{len(results)}/{len(seeds)} cases", flush=True)

    try:
        with ThreadPoolExecutor(jobs) as pool:
            list(pool.map(run_slice, range(jobs)))
    finally:
        for w in workers:
            w.close()
    return results


OUTCOMES = {  # note prefix -> how the summary counts the case (the first prefix that matches)
    "outcome: diagnostic": "ended in a parse/verify diagnostic",
    "outcome: verified": "verified only (a huge tensor)",
    "lowering: complete": "lowered through every stage",
    "lowering: diagnostic": "lowering ended in a diagnostic",
    "lowering: xDSL diagnostic": "lowering ended in a diagnostic",
    "ran @": "ran on both backends",
    "xla: compared every": "every result compared with XLA",
    "xla: compared": "some results compared with XLA",
    "xla: results": "some results not compared with XLA",
    "timeout": "timed out (inconclusive: a mutated loop)",
    "known bug": "a known bug",
}


def _summary(results: list[CaseResult]) -> None:
    """How many cases ended which way (from their notes), the timeouts, the slowest."""
    outcomes: Counter[str] = Counter()
    for r in results:
        outcomes.update({next((w for p, w in OUTCOMES.items() if note.startswith(p)), "") for note in r.notes} - {""})
        for note in r.notes:
            if note.startswith("timeout"):
                print(f"  {r.case}: {note}")
    print(f"\n{len(results)} cases, {sum(bool(r.failures) for r in results)} with failures")
    for what, n in outcomes.most_common():
        print(f"  {n:6d}  {what}")
    slowest = max(results, key=lambda r: r.seconds, default=None)
    if slowest is not None:
        print(f"  slowest case: {slowest.case} ({slowest.seconds:.1f} s)")


# --------------------------------------------------------------------------------------
# Minimization: a smaller program that still fails the same way
# --------------------------------------------------------------------------------------


class Reducer:
    """Counts the candidates tried and asks the worker whether one still fails like
    the original (a failure of the same kind and stage, same exception type)."""

    def __init__(self, worker: Worker, target: Failure):
        self.worker = worker
        self.target = target.signature
        self.tries = 0

    def fails(self, request: dict) -> bool:
        if self.tries >= MAX_TRIES:
            return False
        self.tries += 1
        result = self.worker.run(request)
        return any(f.signature == self.target for f in result.failures)


def _rename(text: str, old: str, new: str) -> str:
    """Replace the SSA value `old` (e.g. %v3) by `new` in `text`."""
    return re.sub(re.escape(old) + r"(?![\w#])", new, text)


def _live(program: GeneratedProgram) -> GeneratedProgram:
    return program.restricted(program.results)


def minimize_program(
    worker: Worker, failed: CaseResult, timeout: float, focus: str | None = None
) -> tuple[GeneratedProgram, list[np.ndarray]]:
    """Reduce a failing generated program: keep one result, drop dead statements, then
    bypass or constant-fold statements one by one while the failure persists."""
    program = generate_program(int(failed.case.rsplit(" ", 1)[1]), focus=focus)
    inputs = dict(zip((a.name for a in program.args), program.inputs()))
    target = failed.failures[0]
    reducer = Reducer(worker, target)

    def request(p: GeneratedProgram) -> dict:
        return {
            "op": "program",
            "program": p,
            "inputs": [inputs[a.name] for a in p.args],
            "xla": target.stage.startswith("xla"),
        }

    def attempt(p: GeneratedProgram) -> bool:
        return reducer.fails(request(_live(p)))

    m = re.search(r"result #(\d+)", target.message)
    order = [int(m.group(1))] if m else []
    order += [i for i in range(len(program.results)) if i not in order]
    for i in order:
        candidate = replace(program, results=[program.results[i]])
        if attempt(candidate):
            program = _live(candidate)
            break
    types = {a.name: a.type for a in program.args}
    for st in program.statements:
        types.update(zip(st.defines, st.types))
    progress = True
    while progress and reducer.tries < MAX_TRIES:
        progress = False
        for k in range(len(program.statements) - 1, -1, -1):
            if k >= len(program.statements):
                continue
            st = program.statements[k]
            if len(st.types) != 1:
                continue
            name, t = st.defines[0], st.types[0]
            later = program.statements[k + 1 :]
            # bypass: its uses take one of its operands of the same type instead
            substitutes = [u for u in sorted(st.uses) if types.get(u) == t]
            candidates = []
            for u in substitutes:
                candidates.append(replace(
                    program,
                    statements=program.statements[:k] + [replace(s, text=_rename(s.text, name, u)) for s in later],
                    results=[replace(r, name=u) if r.name == name else r for r in program.results],
                ))  # fmt: skip
            # constant-fold: a splat of 0 (or 1) of its type in its place
            if not st.text.lstrip().startswith(f"{name} = xla.constant"):
                for splat in (0, 1):
                    folded = replace(st, text=f"  {name} = xla.constant {dense(t, np.array(splat))} : {t}")
                    candidates.append(replace(program, statements=program.statements[:k] + [folded] + later))
            for candidate in candidates:
                if attempt(candidate):
                    program = _live(candidate)
                    progress = True
                    break
    return program, [inputs[a.name] for a in program.args]


def _split_top_level(text: str) -> list[str]:
    """`a, tensor<2xf32>, tuple<x, y>` -> its comma-separated items (not those nested in <>)."""
    items, depth, current = [], 0, ""
    for ch in text:
        depth += ch in "<([{"
        depth -= ch in ">)]}"
        if ch == "," and depth == 0:
            items.append(current.strip())
            current = ""
        else:
            current += ch
    return [*items, current.strip()] if current.strip() else items


def _without_result(text: str, k: int) -> str | None:
    """The text with the k-th result of its last function dropped from the function's
    signature and its `func.return` (so that what computed it becomes dead)."""
    header = list(re.finditer(r"^func\.func [^\n]*-> \((.*)\) \{$", text, re.MULTILINE))
    ret = list(re.finditer(r"^(\s*)func\.return (.*) : (.*)$", text, re.MULTILINE))
    if not header or not ret:
        return None
    h, r = header[-1], ret[-1]
    types, values, value_types = (
        _split_top_level(h.group(1)),
        _split_top_level(r.group(2)),
        _split_top_level(r.group(3)),
    )
    if len(types) < 2 or not (len(types) == len(values) == len(value_types)) or k >= len(types):
        return None
    keep = [i for i in range(len(types)) if i != k]
    new_header = h.group(0)[: h.start(1) - h.start(0)] + ", ".join(types[i] for i in keep) + ") {"
    new_return = (
        f"{r.group(1)}func.return {', '.join(values[i] for i in keep)} : {', '.join(value_types[i] for i in keep)}"
    )
    text = text[: r.start()] + new_return + text[r.end() :]
    return text[: h.start()] + new_header + text[h.end() :]


def minimize_lines(worker: Worker, failed: CaseResult, seed: int, cli: bool) -> str:
    """Drop results of the failing mutant's function one by one, then delta debugging
    over its lines, while it fails the same way."""
    reducer = Reducer(worker, failed.failures[0])

    def still_fails(text: str) -> bool:
        return reducer.fails({"op": "mutant", "text": text, "seed": seed, "cli": cli})

    text = failed.text
    k = 0
    while k < 16:
        candidate = _without_result(text, k)
        if candidate is None:
            break
        if still_fails(candidate):
            text = candidate
        else:
            k += 1
    lines = text.splitlines(keepends=True)
    n = 2
    while len(lines) >= 2 and reducer.tries < MAX_TRIES:
        chunk = -(-len(lines) // n)
        for i in range(0, len(lines), chunk):
            candidate = lines[:i] + lines[i + chunk :]
            if still_fails("".join(candidate)):
                lines = candidate
                n = max(n - 1, 2)
                break
        else:
            if n >= len(lines):
                break
            n = min(len(lines), 2 * n)
    return "".join(lines)


def report_minimized(failed: list[CaseResult], kind: str, timeout: float, focus: str | None = None) -> None:
    """Print each failure with a minimized reproducer (one per failure signature)."""
    worker = Worker(timeout)
    seen: set[tuple] = set()
    try:
        for result in failed:
            first = result.failures[0]
            seed = int(result.case.rsplit(" ", 1)[1])
            print("\n" + "=" * 88)
            print(f"{result.case}: " + "; ".join(str(f)[:300] for f in result.failures))
            if first.kind == "hang" or first.signature in seen:
                print("(not minimized: " + ("a hang" if first.kind == "hang" else "same signature as above") + ")")
                print(result.text)
                continue
            seen.add(first.signature)
            if kind == "program":
                program, inputs = minimize_program(worker, result, timeout, focus)
                print("--- minimized program ---")
                print(program.text)
                print("--- inputs ---")
                for i, a in enumerate(inputs):
                    print(f"  #{i}: {describe_array(a)}")
                again = worker.run({"op": "program", "program": program, "inputs": inputs,
                                    "xla": first.stage.startswith("xla")})  # fmt: skip
                print("--- observed ---")
                for f in again.failures:
                    print(f"  {f}")
                print("--- reproduce ---")
                if first.stage.startswith("xla"):
                    print("  xla_oracle.run_stablehlo(to_stablehlo_text(xla_opt.load_program(text), entry='main'), "
                          "*inputs) vs xla_opt.run(text, *inputs)")  # fmt: skip
                else:
                    print("  xla_opt.run(text, *inputs, backend='jit') vs xla_opt.run(text, *inputs)")
            else:
                cli = first.kind == "cli"
                text = minimize_lines(worker, result, seed, cli)
                print("--- minimized mutant ---")
                print(text)
                again = worker.run({"op": "mutant", "text": text, "seed": seed, "cli": cli})
                print("--- observed ---")
                for f in again.failures:
                    print(f"  {f}")
    finally:
        worker.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("programs", "mutants"):
        p = sub.add_parser(name)
        p.add_argument("--count", type=int, default=1000)
        p.add_argument("--seed", type=int, default=0, help="the first seed")
        p.add_argument("--jobs", type=int, default=2)
        p.add_argument("--timeout", type=float, default=60.0 if name == "programs" else 20.0, help="seconds per case")
        p.add_argument("--cli-every", type=int, default=10, help="(mutants) run xla-opt on every Nth mutant")
        p.add_argument("--no-minimize", action="store_true")
        if name == "programs":
            p.add_argument("--focus", help="(programs) an op every program holds, e.g. xla.sort")
    for name in ("program", "mutant"):
        p = sub.add_parser(name)
        p.add_argument("seed", type=int)
        p.add_argument("--timeout", type=float, default=60.0)
        p.add_argument("--minimize", action="store_true", help="also print a minimized reproducer")
        if name == "program":
            p.add_argument("--focus", help="an op the program holds (as `programs --focus`)")
    sub.add_parser("worker")
    args = parser.parse_args(argv)

    if args.command == "worker":
        serve()
        return 0
    if args.command in ("program", "mutant"):
        worker = Worker(args.timeout)
        try:
            request = {"op": args.command, "seed": args.seed, "cli": args.command == "mutant"}
            if getattr(args, "focus", None):
                request["focus"] = args.focus
            result = worker.run(request)
        finally:
            worker.close()
        print(result.report())
        print("notes:", *result.notes, sep="\n  ")
        if result.failures and args.minimize:
            report_minimized([result], args.command, args.timeout, getattr(args, "focus", None))
        return 1 if result.failures else 0

    kind = args.command.removesuffix("s")
    start = time.perf_counter()
    focus = getattr(args, "focus", None)
    results = _run_all(kind, list(range(args.seed, args.seed + args.count)), args.jobs, args.timeout, args.cli_every,
                       focus)  # fmt: skip
    failed = sorted((r for r in results if r.failures), key=lambda r: r.case)
    _summary(results)
    print(f"  wall time: {time.perf_counter() - start:.0f} s")
    if failed and not args.no_minimize:
        report_minimized(failed, kind, args.timeout, focus)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
