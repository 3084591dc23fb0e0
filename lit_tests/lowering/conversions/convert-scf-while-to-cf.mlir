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

// A while inside a for (xla.power's loop over elements): the for becomes branches
// too, since its body may hold one block only; a for without a while stays for
// convert-scf-to-cf. xla-opt verifies the output (issue 8: it did not verify).
// CHECK-LABEL: func.func @while_in_for(
// CHECK-NOT:     scf.while
// CHECK-NOT:     scf.for %
// CHECK:         cf.cond_br
// CHECK:         scf.for
// CHECK-NOT:     scf.while
// CHECK:         func.return
func.func @while_in_for(%n: i32, %m: memref<4xi32>) {
  %lb = arith.constant 0 : index
  %ub = arith.constant 4 : index
  %st = arith.constant 1 : index
  %c1 = arith.constant 1 : i32
  scf.for %i = %lb to %ub step %st {
    %r = scf.while (%x = %c1) : (i32) -> i32 {
      %c = arith.cmpi slt, %x, %n : i32
      scf.condition(%c) %x : i32
    } do {
    ^bb0(%y: i32):
      %z = arith.addi %y, %y : i32
      scf.yield %z : i32
    }
    memref.store %r, %m[%i] : memref<4xi32>
  }
  scf.for %j = %lb to %ub step %st {
    memref.store %c1, %m[%j] : memref<4xi32>
  }
  func.return
}
