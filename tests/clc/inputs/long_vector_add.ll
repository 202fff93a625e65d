; clc-opt's test input (tests/clc/CMakeLists.txt): an 8-component add, which
; legalize_vectors splits into components.
define i32 @f(i32 %x) {
  %v0 = insertelement <8 x i32> undef, i32 %x, i32 0
  %w = add <8 x i32> %v0, <i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8>
  %e = extractelement <8 x i32> %w, i32 0
  ret i32 %e
}
