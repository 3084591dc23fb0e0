// RUN: xla-opt %s -p convert-scf-while-to-cf | filecheck %s

// CHECK-LABEL: func.func @count(%n: i32) -> i32 {
// CHECK:         cf.br ^[[BEFORE:.*]](%c0 : i32)
// CHECK-NEXT:  ^[[BEFORE]](%[[I:.*]]: i32):
// CHECK-NEXT:    %[[C:.*]] = arith.cmpi slt, %[[I]], %n : i32
// CHECK-NEXT:    cf.cond_br %[[C]], ^[[AFTER:.*]](%[[I]] : i32), ^[[END:.*]](%[[I]] : i32)
// CHECK-NEXT:  ^[[AFTER]](%[[J:.*]]: i32):
// CHECK-NEXT:    %[[K:.*]] = arith.addi %[[J]], %c1 : i32
// CHECK-NEXT:    cf.br ^[[BEFORE]](%[[K]] : i32)
// CHECK-NEXT:  ^[[END]](%[[R:.*]]: i32):
// CHECK-NEXT:    func.return %[[R]] : i32
func.func @count(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %c = arith.cmpi slt, %i, %n : i32
    scf.condition(%c) %i : i32
  } do {
  ^bb0(%j: i32):
    %k = arith.addi %j, %c1 : i32
    scf.yield %k : i32
  }
  func.return %r : i32
}
