// RUN: xla-opt %s -p convert-xla-to-linalg | filecheck %s

// rng_uniform and rng_normal (below) give the module one mutable i64 global counting
// the rng calls made, however many rng ops it has.
// CHECK:       llvm.mlir.global internal @__xla_rng_calls(0 : i64)
// CHECK-NOT:   llvm.mlir.global

// ThreeFry, 32-bit words: the state words are read once; the new state is the old one
// with counter + 9 (3x5 splits dimension 1, the largest as none is even, into halves
// of 3: 3x3 blocks); each output element encrypts counter + its block's row-major
// position (j // 2 along the split dimension) and takes word j % 2.
// CHECK-LABEL: func.func @three_fry
// CHECK-SAME:    (%[[S:.*]]: tensor<2xi64>)
// CHECK:         %[[KEY:.*]] = tensor.extract %[[S]][%{{.*}}] : tensor<2xi64>
// CHECK:         %[[CTR:.*]] = tensor.extract %[[S]][%{{.*}}] : tensor<2xi64>
// CHECK-NEXT:    %[[USED:.*]] = arith.constant 9 : i64
// CHECK-NEXT:    %[[NEXT:.*]] = arith.addi %[[CTR]], %[[USED]] : i64
// CHECK:         %[[STATE:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2xi64>) {
// CHECK:           %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[OLD:.*]] = tensor.extract %[[S]][%[[I]]] : tensor<2xi64>
// CHECK:           %[[IS_CTR:.*]] = arith.cmpi eq, %[[I]], %{{.*}} : index
// CHECK-NEXT:      %[[W:.*]] = arith.select %[[IS_CTR]], %[[NEXT]], %[[OLD]] : i64
// CHECK-NEXT:      linalg.yield %[[W]] : i64
// CHECK:         %[[BITS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<3x5xi32>) {
// CHECK:           %[[J:.*]] = linalg.index 1 : index
// CHECK:           arith.divsi %[[J]], %{{.*}} : index
// CHECK:           %[[WORD:.*]] = arith.remsi %[[J]], %{{.*}} : index
// CHECK:           %[[POS:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK-NEXT:      %[[BLOCK:.*]] = arith.addi %[[CTR]], %[[POS]] : i64
// The key schedule's third word, 0x1BD11BDA ^ k0 ^ k1, and the first rotation (13).
// CHECK:           arith.constant 466688986 : i32
// CHECK:           arith.constant 13 : i32
// CHECK-NEXT:      arith.shli
// CHECK:           arith.select
// CHECK-NEXT:      linalg.yield %{{.*}} : i32
// CHECK:         func.return %[[STATE]], %[[BITS]] : tensor<2xi64>, tensor<3x5xi32>
func.func @three_fry(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<3x5xui32>) {
  %r:2 = "xla.rng_bit_generator"(%s) <{rng_algorithm = #xla<rng_algorithm THREE_FRY>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x5xui32>)
  func.return %r#0, %r#1 : tensor<2xui64>, tensor<3x5xui32>
}

// Philox, 3-word state, 64-bit outputs: two per block, so 5 elements use 3 blocks; the
// counter's low word wraps into the high word (an unsigned compare and a select), in
// the new state and in each block's counter; ten rounds of 32x32 -> 64-bit products.
// CHECK-LABEL: func.func @philox
// CHECK-SAME:    (%[[S:.*]]: tensor<3xi64>)
// CHECK:         %[[KEY:.*]] = tensor.extract %[[S]][%{{.*}}] : tensor<3xi64>
// CHECK:         %[[LOW:.*]] = tensor.extract %[[S]][%{{.*}}] : tensor<3xi64>
// CHECK:         %[[HIGH:.*]] = tensor.extract %[[S]][%{{.*}}] : tensor<3xi64>
// CHECK-NEXT:    %[[USED:.*]] = arith.constant 3 : i64
// CHECK-NEXT:    %[[NEXT:.*]] = arith.addi %[[LOW]], %[[USED]] : i64
// CHECK-NEXT:    %[[WRAPPED:.*]] = arith.cmpi ult, %[[NEXT]], %[[LOW]] : i64
// CHECK:         %[[NEXT_HIGH:.*]] = arith.select %[[WRAPPED]], %{{.*}}, %[[HIGH]] : i64
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<3xi64>) {
// CHECK:           arith.select %{{.*}}, %[[NEXT]], %{{.*}} : i64
// CHECK:           arith.select %{{.*}}, %[[NEXT_HIGH]], %{{.*}} : i64
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<5xi64>) {
// CHECK-COUNT-20:  arith.muli %{{.*}}, %{{.*}} : i64
// CHECK:           linalg.yield %{{.*}} : i64
func.func @philox(%s: tensor<3xui64>) -> (tensor<3xui64>, tensor<5xui64>) {
  %r:2 = "xla.rng_bit_generator"(%s) <{rng_algorithm = #xla<rng_algorithm PHILOX>}> : (tensor<3xui64>) -> (tensor<3xui64>, tensor<5xui64>)
  func.return %r#0, %r#1 : tensor<3xui64>, tensor<5xui64>
}

// rng_normal: each call reads and increments the call counter before a generic whose
// elements are Philox blocks of (position, call) under the seed key, turned into
// N(mu, sigma) by Box-Muller.
// CHECK-LABEL: func.func @normal
// CHECK-SAME:    (%[[MU:.*]]: tensor<f64>, %[[SIGMA:.*]]: tensor<f64>)
// CHECK:         %[[M:.*]] = tensor.extract %[[MU]][] : tensor<f64>
// CHECK-NEXT:    %[[S:.*]] = tensor.extract %[[SIGMA]][] : tensor<f64>
// CHECK-NEXT:    %[[ADDR:.*]] = llvm.mlir.addressof @__xla_rng_calls : !llvm.ptr
// CHECK-NEXT:    %[[CALL:.*]] = llvm.load %[[ADDR]] : !llvm.ptr -> i64
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    %[[NEXT:.*]] = arith.addi %[[CALL]], %[[ONE]] : i64
// CHECK-NEXT:    llvm.store %[[NEXT]], %[[ADDR]] : i64, !llvm.ptr
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<3xf64>) {
// CHECK:           arith.trunci %[[CALL]] : i64 to i32
// CHECK:           arith.constant 24301 : i32
// CHECK-COUNT-20:  arith.muli %{{.*}}, %{{.*}} : i64
// CHECK:           arith.sitofp %{{.*}} : i64 to f64
// CHECK:           arith.subf
// CHECK:           arith.sitofp %{{.*}} : i64 to f64
// CHECK:           math.log
// CHECK:           math.sqrt
// CHECK:           math.cos
// CHECK:           %[[Z:.*]] = arith.mulf %{{.*}}, %{{.*}} : f64
// CHECK-NEXT:      %[[SZ:.*]] = arith.mulf %[[S]], %[[Z]] : f64
// CHECK-NEXT:      %[[X:.*]] = arith.addf %[[M]], %[[SZ]] : f64
// CHECK-NEXT:      linalg.yield %[[X]] : f64
func.func @normal(%m: tensor<f64>, %s: tensor<f64>) -> tensor<3xf64> {
  %r = xla.rng_normal %m, %s : (tensor<f64>, tensor<f64>) -> tensor<3xf64>
  func.return %r : tensor<3xf64>
}

// rng_uniform on ui8: a + r mod (b - a) in i64 (zero-extended: unsigned), a where
// b <= a (unsigned compare; the divisor is then 1).
// CHECK-LABEL: func.func @uniform_u8
// CHECK:         llvm.load
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<3xi8>) {
// CHECK:           %[[ORDERED:.*]] = arith.cmpi ugt, %[[B:.*]], %[[A:.*]] : i8
// CHECK:           %[[SPAN:.*]] = arith.select %[[ORDERED]], %{{.*}}, %{{.*}} : i64
// CHECK:           %[[R:.*]] = arith.remui %{{.*}}, %[[SPAN]] : i64
// CHECK-NEXT:      %[[WIDE:.*]] = arith.addi %{{.*}}, %[[R]] : i64
// CHECK-NEXT:      %[[V:.*]] = arith.trunci %[[WIDE]] : i64 to i8
// CHECK-NEXT:      %[[OUT:.*]] = arith.select %[[ORDERED]], %[[V]], %[[A]] : i8
// CHECK-NEXT:      linalg.yield %[[OUT]] : i8
func.func @uniform_u8(%a: tensor<ui8>, %b: tensor<ui8>) -> tensor<3xui8> {
  %r = xla.rng_uniform %a, %b : (tensor<ui8>, tensor<ui8>) -> tensor<3xui8>
  func.return %r : tensor<3xui8>
}
