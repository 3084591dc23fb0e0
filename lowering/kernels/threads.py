"""The thread count and libgomp's entry points, as compiled code calls them.

Parallel regions (`convert-omp-to-llvm`'s `GOMP_parallel` calls) and the multi-thread
kernels ask one process-wide setting how many threads to use:

    i32 xla_opt_num_threads()            the thread count a parallel region asks for
    void xla_opt_set_num_threads(i32)

`COUNTER_IR` defines both over one global. Where libgomp is missing, `SERIAL_GOMP_IR`
defines `GOMP_parallel`, `omp_get_thread_num` and `omp_get_num_threads` for one thread
(the region runs once, as thread 0 of a team of 1), so the same code runs serially.
The runtime (xla_opt/runtime/threads.py) loads libgomp, compiles these and sets the
count; this module only names and builds them.
"""

from __future__ import annotations

NUM_THREADS = "xla_opt_num_threads"  # i32 (): the thread count a parallel region asks for
SET_NUM_THREADS = "xla_opt_set_num_threads"  # void (i32)
GOMP_PARALLEL = "GOMP_parallel"  # void (void (*fn)(void *), void *data, unsigned nthreads, unsigned flags)
THREAD_NUM = "omp_get_thread_num"  # i32 ()
TEAM_SIZE = "omp_get_num_threads"  # i32 ()
GOMP_SYMBOLS = (GOMP_PARALLEL, THREAD_NUM, TEAM_SIZE)

COUNTER_IR = f"""
@count = internal global i32 1, align 4

define i32 @{NUM_THREADS}() nounwind {{
  %n = load atomic i32, ptr @count monotonic, align 4
  ret i32 %n
}}

define void @{SET_NUM_THREADS}(i32 %n) nounwind {{
  store atomic i32 %n, ptr @count monotonic, align 4
  ret void
}}
"""

# libgomp's entry points on one thread: the region runs once, as thread 0 of a team of 1
SERIAL_GOMP_IR = f"""
define void @{GOMP_PARALLEL}(ptr %fn, ptr %data, i32 %n, i32 %flags) {{
  call void %fn(ptr %data)
  ret void
}}

define i32 @{THREAD_NUM}() nounwind {{
  ret i32 0
}}

define i32 @{TEAM_SIZE}() nounwind {{
  ret i32 1
}}
"""
