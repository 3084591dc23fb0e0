"""`xla_opt_stream_store` and `xla_opt_stream_fence`: stores that bypass the caches,
for results too large to stay in them (`stream-result-stores` writes them).

    void xla_opt_stream_store(i8* dst, i8* src, i64 bytes)

copies `bytes` bytes from `src` (a chunk of a result, computed into a small buffer in
L1) to `dst` (its place in the result): the head up to dst's first 64-byte boundary
and the tail after its last one with ordinary stores (a non-temporal store of part of
a line costs more than the read it saves), every whole line between with one
non-temporal `<16 x i32>` store (`!nontemporal`: x86's `movntdq`, two or four of them
where vectors are narrower; a plain store on targets without such a store).

An ordinary store of a line the core does not hold first reads the line from memory
("read for ownership"), so a loop writing a result that the caches cannot hold moves
each of its bytes twice over the memory bus, and evicts the loop's inputs from L3 as
it goes. A non-temporal store writes the whole line without reading it. Measured on
the Zen 4 development machine (one thread, a 2048x2048 f32 broadcast add whose 16 MiB
input is read again on every call): 1.05-1.33 ms with ordinary stores, 0.74-0.83 ms
through this kernel.

    void xla_opt_stream_fence()

Non-temporal stores are weakly ordered: another thread may see a later store (the
flag of a barrier) before them. Every thread that streamed calls the fence (a `fence
seq_cst`: x86's `mfence`, which waits for them) before it reports its work done: once
per thread and loop nest, not per chunk (a fence per 8 KiB chunk waits for the
chunk's lines to reach memory, and undid the whole gain).
"""

from __future__ import annotations

STORE = "xla_opt_stream_store"
FENCE = "xla_opt_stream_fence"
SYMBOLS = (STORE, FENCE)
# Their parameters, (LLVM type, name) as the kernels' PARAMS lists: what a call passes.
STORE_PARAMS = [("ptr", "%dst"), ("ptr", "%src"), ("i64", "%bytes")]
FENCE_PARAMS: list[tuple[str, str]] = []

LINE = 64  # bytes: a cache line, and the non-temporal vector's size

STREAM_IR = f"""
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare i64 @llvm.umin.i64(i64, i64)

define void @{STORE}(ptr noalias nocapture writeonly %dst, ptr noalias nocapture readonly %src, i64 %bytes) nounwind {{
entry:
  %address = ptrtoint ptr %dst to i64
  %to_boundary = sub i64 0, %address
  %head_bytes = and i64 %to_boundary, {LINE - 1}
  %head = call i64 @llvm.umin.i64(i64 %head_bytes, i64 %bytes)
  %has_head = icmp ne i64 %head, 0
  br i1 %has_head, label %copy_head, label %lines_start
copy_head:
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 %head, i1 false)
  br label %lines_start
lines_start:
  %rest = sub i64 %bytes, %head
  %lines = lshr i64 %rest, 6
  %dst_lines = getelementptr inbounds i8, ptr %dst, i64 %head
  %src_lines = getelementptr inbounds i8, ptr %src, i64 %head
  %any = icmp ne i64 %lines, 0
  br i1 %any, label %line, label %tail
line:
  %i = phi i64 [0, %lines_start], [%next, %line]
  %offset = shl i64 %i, 6
  %from = getelementptr inbounds i8, ptr %src_lines, i64 %offset
  %to = getelementptr inbounds i8, ptr %dst_lines, i64 %offset
  %value = load <16 x i32>, ptr %from, align 1
  store <16 x i32> %value, ptr %to, align {LINE}, !nontemporal !0
  %next = add nuw i64 %i, 1
  %more = icmp ult i64 %next, %lines
  br i1 %more, label %line, label %tail
tail:
  %streamed = shl i64 %lines, 6
  %tail_bytes = sub i64 %rest, %streamed
  %dst_tail = getelementptr inbounds i8, ptr %dst_lines, i64 %streamed
  %src_tail = getelementptr inbounds i8, ptr %src_lines, i64 %streamed
  %has_tail = icmp ne i64 %tail_bytes, 0
  br i1 %has_tail, label %copy_tail, label %done
copy_tail:
  call void @llvm.memcpy.p0.p0.i64(ptr %dst_tail, ptr %src_tail, i64 %tail_bytes, i1 false)
  br label %done
done:
  ret void
}}

define void @{FENCE}() nounwind {{
entry:
  fence seq_cst
  ret void
}}

!0 = !{{i32 1}}
"""
