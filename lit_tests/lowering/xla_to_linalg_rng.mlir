// RUN: xla-opt %s -p convert-xla-to-linalg | filecheck %s

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
