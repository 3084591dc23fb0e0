"""Compiled code's temporary buffers stay mapped between calls (xla_opt/runtime/allocator.py).

A program whose intermediate value is a 1 MiB buffer (a tanh between two products) is
called repeatedly in a fresh process, and the process's minor page faults per call are
counted (getrusage): with glibc's defaults each call frees the buffer back to the system
and faults its 256 pages in again; once the JIT has raised the thresholds, none. The
same script with XLA_OPT_MALLOC_TUNING=0 shows the faults, so the test measures what it
claims.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

PROBE = '''
import resource
import numpy as np
import xla_opt

PROGRAM = """
func.func @main(%x: tensor<512x512xf32>, %w: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %a = xla.dot %x, %w : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  %b = xla.tanh %a : tensor<512x512xf32>
  %c = xla.dot %b, %w : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  func.return %c : tensor<512x512xf32>
}
"""
f = xla_opt.compile(PROGRAM, backend="jit")
x = np.full((512, 512), 0.01, np.float32)
expected = np.tanh(x @ x) @ x
for _ in range(3):
    np.testing.assert_allclose(f(x, x)[0], expected, rtol=1e-4)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(20):
    f(x, x)
print((resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / 20)
'''

pytestmark = pytest.mark.skipif(
    platform.system() != "Linux" or not platform.libc_ver()[0] == "glibc", reason="glibc's malloc only"
)


def faults_per_call(**env: str) -> float:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE], env={**os.environ, **env}, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    return float(proc.stdout.split()[-1])


def test_temporary_buffers_do_not_page_fault_on_every_call():
    assert faults_per_call() < 16  # (a page or two of numpy's small objects at most)


def test_without_the_tuning_every_call_faults_its_buffers_in():
    """The control: glibc's defaults unmap the 1 MiB buffer (256 pages) after each call."""
    assert faults_per_call(XLA_OPT_MALLOC_TUNING="0") > 200
