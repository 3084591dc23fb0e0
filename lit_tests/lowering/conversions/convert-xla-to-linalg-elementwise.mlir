// RUN: xla-opt %s -p convert-xla-to-linalg | filecheck %s

// An element-wise op is one generic: identity maps, parallel loops, the op as scalar
// code in the body, tensor.empty as the destination.
// CHECK-LABEL: func.func @add_f32
// CHECK-SAME:    (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x3xf32>)
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[A]], %[[B]] : tensor<2x3xf32>, tensor<2x3xf32>) outs(%[[E]] : tensor<2x3xf32>) {
// CHECK-NEXT:    ^{{.*}}(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK-NEXT:    } -> tensor<2x3xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<2x3xf32>
func.func @add_f32(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = xla.add %a, %b : tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// Signed division: the divisor is 1 where it is 0 or where INT_MIN / -1 would
// overflow (INT_MIN / 1 = INT_MIN), then x / 0 becomes -1.
// CHECK-LABEL: func.func @divide_si32
// CHECK:         ^{{.*}}(%[[X:.*]]: i32, %[[Y:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[BY_ZERO:.*]] = arith.cmpi eq, %[[Y]], %[[ZERO]] : i32
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:      %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK-NEXT:      %[[IS_MIN:.*]] = arith.cmpi eq, %[[X]], %[[MIN]] : i32
// CHECK-NEXT:      %[[M1:.*]] = arith.constant -1 : i32
// CHECK-NEXT:      %[[IS_M1:.*]] = arith.cmpi eq, %[[Y]], %[[M1]] : i32
// CHECK-NEXT:      %[[OVERFLOW:.*]] = arith.andi %[[IS_MIN]], %[[IS_M1]] : i1
// CHECK-NEXT:      %[[UNSAFE:.*]] = arith.ori %[[BY_ZERO]], %[[OVERFLOW]] : i1
// CHECK-NEXT:      %[[SAFE:.*]] = arith.select %[[UNSAFE]], %[[ONE]], %[[Y]] : i32
// CHECK-NEXT:      %[[Q:.*]] = arith.divsi %[[X]], %[[SAFE]] : i32
// CHECK-NEXT:      %[[ALL_ONES:.*]] = arith.constant -1 : i32
// CHECK-NEXT:      %[[RES:.*]] = arith.select %[[BY_ZERO]], %[[ALL_ONES]], %[[Q]] : i32
// CHECK-NEXT:      linalg.yield %[[RES]] : i32
func.func @divide_si32(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %r = xla.divide %a, %b : tensor<4xi32>
  func.return %r : tensor<4xi32>
}

// Unsigned types become signless; the unsigned op (remui) carries the signedness,
// and x % 0 is x.
// CHECK-LABEL: func.func @remainder_ui8
// CHECK-SAME:    (%{{.*}}: tensor<4xi8>, %{{.*}}: tensor<4xi8>) -> tensor<4xi8>
// CHECK:         ^{{.*}}(%[[X:.*]]: i8, %[[Y:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0 : i8
// CHECK-NEXT:      %[[BY_ZERO:.*]] = arith.cmpi eq, %[[Y]], %[[ZERO]] : i8
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : i8
// CHECK-NEXT:      %[[SAFE:.*]] = arith.select %[[BY_ZERO]], %[[ONE]], %[[Y]] : i8
// CHECK-NEXT:      %[[REM:.*]] = arith.remui %[[X]], %[[SAFE]] : i8
// CHECK-NEXT:      %[[RES:.*]] = arith.select %[[BY_ZERO]], %[[X]], %[[REM]] : i8
// CHECK-NEXT:      linalg.yield %[[RES]] : i8
// CHECK-NOT:     ui8
func.func @remainder_ui8(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xui8> {
  %r = xla.remainder %a, %b : tensor<4xui8>
  func.return %r : tensor<4xui8>
}

// bf16 computes in f32 and rounds back.
// CHECK-LABEL: func.func @exp_bf16
// CHECK:         ^{{.*}}(%[[X:.*]]: bf16, %{{.*}}: bf16):
// CHECK-NEXT:      %[[W:.*]] = arith.extf %[[X]] : bf16 to f32
// CHECK-NEXT:      %[[E:.*]] = math.exp %[[W]] : f32
// CHECK-NEXT:      %[[N:.*]] = arith.truncf %[[E]] : f32 to bf16
// CHECK-NEXT:      linalg.yield %[[N]] : bf16
func.func @exp_bf16(%a: tensor<3xbf16>) -> tensor<3xbf16> {
  %r = xla.exponential %a : tensor<3xbf16>
  func.return %r : tensor<3xbf16>
}

// TOTALORDER compares integer keys of the bits: negative patterns flip their
// magnitude bits.
// CHECK-LABEL: func.func @compare_totalorder
// CHECK:         outs(%{{.*}} : tensor<2xi1>)
// CHECK-NEXT:    ^{{.*}}(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: i1):
// CHECK-NEXT:      %[[XB:.*]] = arith.bitcast %[[X]] : f32 to i32
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[XN:.*]] = arith.cmpi slt, %[[XB]], %[[Z]] : i32
// CHECK-NEXT:      %[[MAG:.*]] = arith.constant 2147483647 : i32
// CHECK-NEXT:      %[[XF:.*]] = arith.xori %[[XB]], %[[MAG]] : i32
// CHECK-NEXT:      %[[XK:.*]] = arith.select %[[XN]], %[[XF]], %[[XB]] : i32
// CHECK-NEXT:      %[[YB:.*]] = arith.bitcast %[[Y]] : f32 to i32
// CHECK:           %[[YK:.*]] = arith.select %{{.*}}, %{{.*}}, %[[YB]] : i32
// CHECK-NEXT:      %[[LT:.*]] = arith.cmpi slt, %[[XK]], %[[YK]] : i32
// CHECK-NEXT:      linalg.yield %[[LT]] : i1
func.func @compare_totalorder(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xi1> {
  %r = xla.compare %a, %b, comparison_direction = LT, compare_type = TOTALORDER : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  func.return %r : tensor<2xi1>
}

// Unsigned operands compare UNSIGNED by default; floats compare ordered except NE.
// CHECK-LABEL: func.func @compare_defaults
// CHECK:         arith.cmpi uge, %{{.*}}, %{{.*}} : i16
// CHECK:         arith.cmpf une, %{{.*}}, %{{.*}} : f16
// CHECK:         arith.cmpi sle, %{{.*}}, %{{.*}} : i64
func.func @compare_defaults(%a: tensor<2xui16>, %b: tensor<2xf16>, %c: tensor<2xi64>) -> (tensor<2xi1>, tensor<2xi1>, tensor<2xi1>) {
  %r0 = xla.compare %a, %a, comparison_direction = GE : (tensor<2xui16>, tensor<2xui16>) -> tensor<2xi1>
  %r1 = xla.compare %b, %b, comparison_direction = NE : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xi1>
  %r2 = xla.compare %c, %c, comparison_direction = LE : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi1>
  func.return %r0, %r1, %r2 : tensor<2xi1>, tensor<2xi1>, tensor<2xi1>
}

// Shifts by the bit width or more give 0 (the shift itself uses a safe amount).
// CHECK-LABEL: func.func @shift_left
// CHECK:         ^{{.*}}(%[[X:.*]]: i8, %[[Y:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT:      %[[W:.*]] = arith.constant 8 : i8
// CHECK-NEXT:      %[[BIG:.*]] = arith.cmpi uge, %[[Y]], %[[W]] : i8
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0 : i8
// CHECK-NEXT:      %[[AMOUNT:.*]] = arith.select %[[BIG]], %[[Z]], %[[Y]] : i8
// CHECK-NEXT:      %[[Z2:.*]] = arith.constant 0 : i8
// CHECK-NEXT:      %[[SH:.*]] = arith.shli %[[X]], %[[AMOUNT]] : i8
// CHECK-NEXT:      %[[RES:.*]] = arith.select %[[BIG]], %[[Z2]], %[[SH]] : i8
// CHECK-NEXT:      linalg.yield %[[RES]] : i8
func.func @shift_left(%a: tensor<2xi8>, %b: tensor<2xi8>) -> tensor<2xi8> {
  %r = xla.shift_left %a, %b : tensor<2xi8>
  func.return %r : tensor<2xi8>
}

// The arithmetic right shift saturates the amount at width - 1 (the sign fill).
// CHECK-LABEL: func.func @shift_right_arithmetic
// CHECK:           %[[W:.*]] = arith.constant 16 : i16
// CHECK-NEXT:      %[[BIG:.*]] = arith.cmpi uge, %{{.*}}, %[[W]] : i16
// CHECK-NEXT:      %[[LAST:.*]] = arith.constant 15 : i16
// CHECK-NEXT:      %[[AMOUNT:.*]] = arith.select %[[BIG]], %[[LAST]], %{{.*}} : i16
// CHECK-NEXT:      %[[RES:.*]] = arith.shrsi %{{.*}}, %[[AMOUNT]] : i16
// CHECK-NEXT:      linalg.yield %[[RES]] : i16
func.func @shift_right_arithmetic(%a: tensor<2xi16>, %b: tensor<2xi16>) -> tensor<2xi16> {
  %r = xla.shift_right_arithmetic %a, %b : tensor<2xi16>
  func.return %r : tensor<2xi16>
}

// Float maximum: NaN propagates and, like the interpreter (numpy), the lhs is taken
// only when strictly greater or NaN.
// CHECK-LABEL: func.func @maximum_f32
// CHECK:         ^{{.*}}(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[GT:.*]] = arith.cmpf ogt, %[[X]], %[[Y]] : f32
// CHECK-NEXT:      %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK-NEXT:      %[[TAKE:.*]] = arith.ori %[[GT]], %[[NAN]] : i1
// CHECK-NEXT:      %[[RES:.*]] = arith.select %[[TAKE]], %[[X]], %[[Y]] : f32
// CHECK-NEXT:      linalg.yield %[[RES]] : f32
func.func @maximum_f32(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %r = xla.maximum %a, %b : tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// Float remainder is fmod (llvm.frem: xDSL has no arith.remf).
// CHECK-LABEL: func.func @remainder_f64
// CHECK:         %[[R:.*]] = llvm.frem %{{.*}}, %{{.*}} : f64
// CHECK-NEXT:    linalg.yield %[[R]] : f64
func.func @remainder_f64(%a: tensor<2xf64>, %b: tensor<2xf64>) -> tensor<2xf64> {
  %r = xla.remainder %a, %b : tensor<2xf64>
  func.return %r : tensor<2xf64>
}

// Select: the pred is the first input of the generic.
// CHECK-LABEL: func.func @select
// CHECK-SAME:    (%[[P:.*]]: tensor<2x2xi1>, %[[A:.*]]: tensor<2x2xf64>, %[[B:.*]]: tensor<2x2xf64>)
// CHECK:         ins(%[[P]], %[[A]], %[[B]] : tensor<2x2xi1>, tensor<2x2xf64>, tensor<2x2xf64>)
// CHECK-NEXT:    ^{{.*}}(%[[C:.*]]: i1, %[[T:.*]]: f64, %[[F:.*]]: f64, %{{.*}}: f64):
// CHECK-NEXT:      %[[RES:.*]] = arith.select %[[C]], %[[T]], %[[F]] : f64
// CHECK-NEXT:      linalg.yield %[[RES]] : f64
func.func @select(%p: tensor<2x2xi1>, %a: tensor<2x2xf64>, %b: tensor<2x2xf64>) -> tensor<2x2xf64> {
  %r = xla.select %p, %a, %b : (tensor<2x2xi1>, tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  func.return %r : tensor<2x2xf64>
}

// Clamp of unsigned integers: min(max(x, lo), hi) with the unsigned ops.
// CHECK-LABEL: func.func @clamp_ui32
// CHECK:         ^{{.*}}(%[[LO:.*]]: i32, %[[X:.*]]: i32, %[[HI:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT:      %[[M:.*]] = arith.maxui %[[X]], %[[LO]] : i32
// CHECK-NEXT:      %[[RES:.*]] = arith.minui %[[M]], %[[HI]] : i32
// CHECK-NEXT:      linalg.yield %[[RES]] : i32
func.func @clamp_ui32(%lo: tensor<3xui32>, %x: tensor<3xui32>, %hi: tensor<3xui32>) -> tensor<3xui32> {
  %r = xla.clamp %lo, %x, %hi : tensor<3xui32>
  func.return %r : tensor<3xui32>
}

// Float to integer truncates, saturates and maps NaN to 0; fptosi's out-of-range
// (poison) result is never selected.
// CHECK-LABEL: func.func @convert_f32_to_si8
// CHECK:         ^{{.*}}(%[[X:.*]]: f32, %{{.*}}: i8):
// CHECK-NEXT:      %[[T:.*]] = math.trunc %[[X]] : f32
// CHECK-NEXT:      %[[MAXF:.*]] = arith.constant 1.270000e+02 : f32
// CHECK-NEXT:      %[[HIGH:.*]] = arith.cmpf oge, %[[T]], %[[MAXF]] : f32
// CHECK-NEXT:      %[[MINF:.*]] = arith.constant -1.280000e+02 : f32
// CHECK-NEXT:      %[[LOW:.*]] = arith.cmpf ole, %[[T]], %[[MINF]] : f32
// CHECK-NEXT:      %[[I:.*]] = arith.fptosi %[[T]] : f32 to i8
// CHECK-NEXT:      %[[MAX:.*]] = arith.constant 127 : i8
// CHECK-NEXT:      %[[MIN:.*]] = arith.constant -128 : i8
// CHECK-NEXT:      %[[S1:.*]] = arith.select %[[LOW]], %[[MIN]], %[[I]] : i8
// CHECK-NEXT:      %[[S2:.*]] = arith.select %[[HIGH]], %[[MAX]], %[[S1]] : i8
// CHECK-NEXT:      %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0 : i8
// CHECK-NEXT:      %[[RES:.*]] = arith.select %[[NAN]], %[[Z]], %[[S2]] : i8
// CHECK-NEXT:      linalg.yield %[[RES]] : i8
func.func @convert_f32_to_si8(%a: tensor<2xf32>) -> tensor<2xi8> {
  %r = xla.convert %a : (tensor<2xf32>) -> tensor<2xi8>
  func.return %r : tensor<2xi8>
}

// Conversions from unsigned integers use the unsigned casts.
// CHECK-LABEL: func.func @convert_unsigned
// CHECK:         arith.uitofp %{{.*}} : i8 to f32
// CHECK:         arith.extui %{{.*}} : i8 to i64
func.func @convert_unsigned(%a: tensor<2xui8>) -> (tensor<2xf32>, tensor<2xi64>) {
  %r0 = xla.convert %a : (tensor<2xui8>) -> tensor<2xf32>
  %r1 = xla.convert %a : (tensor<2xui8>) -> tensor<2xi64>
  func.return %r0, %r1 : tensor<2xf32>, tensor<2xi64>
}

// To PRED: x != 0 (NaN is true).
// CHECK-LABEL: func.func @convert_to_pred
// CHECK:         %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[NE:.*]] = arith.cmpf une, %{{.*}}, %[[Z]] : f32
// CHECK-NEXT:    linalg.yield %[[NE]] : i1
func.func @convert_to_pred(%a: tensor<2xf32>) -> tensor<2xi1> {
  %r = xla.convert %a : (tensor<2xf32>) -> tensor<2xi1>
  func.return %r : tensor<2xi1>
}

// bitcast_convert of equal widths is arith.bitcast (other widths change the shape
// and are not lowered: see xla_to_linalg_unlowered.mlir).
// CHECK-LABEL: func.func @bitcast_convert
// CHECK:         %[[B:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK-NEXT:    linalg.yield %[[B]] : i32
func.func @bitcast_convert(%a: tensor<2xf32>) -> tensor<2xi32> {
  %r0 = xla.bitcast_convert %a : (tensor<2xf32>) -> tensor<2xi32>
  func.return %r0 : tensor<2xi32>
}

// reduce_precision to bf16's format: round the mantissa to nearest even on the bits
// (the exponent is already 8 bits wide); NaN is kept.
// CHECK-LABEL: func.func @reduce_precision
// CHECK:         ^{{.*}}(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[BITS:.*]] = arith.bitcast %[[X]] : f32 to i32
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:      %[[DROP:.*]] = arith.constant 16 : i32
// CHECK-NEXT:      %[[SH:.*]] = arith.shrui %[[BITS]], %[[DROP]] : i32
// CHECK-NEXT:      %[[LAST:.*]] = arith.andi %[[SH]], %[[ONE]] : i32
// CHECK-NEXT:      %[[HALF:.*]] = arith.constant 32767 : i32
// CHECK-NEXT:      %[[BIAS:.*]] = arith.addi %[[HALF]], %[[LAST]] : i32
// CHECK-NEXT:      %[[ROUNDED:.*]] = arith.addi %[[BITS]], %[[BIAS]] : i32
// CHECK-NEXT:      %[[MASK:.*]] = arith.constant -65536 : i32
// CHECK-NEXT:      %[[KEPT:.*]] = arith.andi %[[ROUNDED]], %[[MASK]] : i32
// CHECK-NEXT:      %[[F:.*]] = arith.bitcast %[[KEPT]] : i32 to f32
// CHECK-NEXT:      %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK-NEXT:      %[[RES:.*]] = arith.select %[[NAN]], %[[X]], %[[F]] : f32
// CHECK-NEXT:      linalg.yield %[[RES]] : f32
func.func @reduce_precision(%a: tensor<2xf32>) -> tensor<2xf32> {
  %r = xla.reduce_precision %a, exponent_bits = 8, mantissa_bits = 7 : tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// Rank 0: a generic with no loops.
// CHECK-LABEL: func.func @rank0
// CHECK:         linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%{{.*}} : tensor<f32>) outs(%{{.*}} : tensor<f32>)
// CHECK:           arith.negf %{{.*}} : f32
func.func @rank0(%a: tensor<f32>) -> tensor<f32> {
  %r = xla.negate %a : tensor<f32>
  func.return %r : tensor<f32>
}

// Integer power: exponentiation by squaring in an scf.while; negative exponents
// select 0, 1 or -1 afterwards.
// CHECK-LABEL: func.func @power_i32
// CHECK:         %{{.*}}, %{{.*}}, %{{.*}} = scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %[[E:.*]] = %{{.*}}) : (i32, i32, i32) -> (i32, i32, i32) {
// CHECK:           %[[MORE:.*]] = arith.cmpi ne, %[[E]], %{{.*}} : i32
// CHECK-NEXT:      scf.condition(%[[MORE]])
// CHECK:         } do {
// CHECK:           arith.muli
// CHECK:           arith.muli
// CHECK:           arith.shrui
// CHECK-NEXT:      scf.yield
// CHECK:         linalg.yield %{{.*}} : i32
func.func @power_i32(%a: tensor<2xi32>, %b: tensor<2xi32>) -> tensor<2xi32> {
  %r = xla.power %a, %b : tensor<2xi32>
  func.return %r : tensor<2xi32>
}

// Constants become arith.constant of the same dense value, unsigned values wrapped
// into the signless type.
// CHECK-LABEL: func.func @constants
// CHECK-NEXT:    %[[U:.*]] = arith.constant dense<[1, -56, -1]> : tensor<3xi8>
// CHECK-NEXT:    %[[F:.*]] = arith.constant dense<1.500000e+00> : tensor<2x2xf32>
// CHECK-NEXT:    %[[S:.*]] = arith.constant dense<true> : tensor<i1>
// CHECK-NEXT:    func.return %[[U]], %[[F]], %[[S]]
func.func @constants() -> (tensor<3xui8>, tensor<2x2xf32>, tensor<i1>) {
  %u = xla.constant dense<[1, 200, 255]> : tensor<3xui8>
  %f = xla.constant dense<1.5> : tensor<2x2xf32>
  %s = xla.constant dense<true> : tensor<i1>
  func.return %u, %f, %s : tensor<3xui8>, tensor<2x2xf32>, tensor<i1>
}

// Iota: a generic with no inputs yielding the loop index, converted.
// CHECK-LABEL: func.func @iota_f32
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%[[E]] : tensor<2x3xf32>) {
// CHECK-NEXT:    ^{{.*}}(%{{.*}}: f32):
// CHECK-NEXT:      %[[I:.*]] = linalg.index 1 : index
// CHECK-NEXT:      %[[W:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT:      %[[F:.*]] = arith.sitofp %[[W]] : i64 to f32
// CHECK-NEXT:      linalg.yield %[[F]] : f32
func.func @iota_f32() -> tensor<2x3xf32> {
  %r = xla.iota iota_dimension = 1 : tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @iota_ui8
// CHECK:           %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[W:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT:      %[[N:.*]] = arith.trunci %[[W]] : i64 to i8
// CHECK-NEXT:      linalg.yield %[[N]] : i8
func.func @iota_ui8() -> tensor<4xui8> {
  %r = xla.iota iota_dimension = 0 : tensor<4xui8>
  func.return %r : tensor<4xui8>
}
