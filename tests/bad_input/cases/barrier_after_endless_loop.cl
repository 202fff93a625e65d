#define NUM_CCMA_CONSTRAINTS 0
// OpenMM's CCMA iteration: with no constraints, LLVM makes the inner loop
// endless (its exit test is loop-invariant), behind a branch never taken.
kernel void runCCMA(global const float* delta1, global float* delta2, global const int* column_of,
                    global const float* value, local int* converged) {
  for (int iteration = 0; iteration < 150; iteration++) {
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int index = get_global_id(0); index < NUM_CCMA_CONSTRAINTS; index += get_global_size(0)) {
      float sum = 0;
      for (int i = 0;; i++) {
        int element = index + i * NUM_CCMA_CONSTRAINTS;
        int column = column_of[element];
        if (column >= NUM_CCMA_CONSTRAINTS) break;
        sum += delta1[column] * value[element];
      }
      delta2[index] = sum;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (*converged) return;
  }
}
