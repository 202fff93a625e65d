// OpenCL 1.1 atomic_add and atomic_sub on global ints from every
// work-item; only the final counters are compared (the values each call
// returns depend on the order the work-items ran in).
// @kernel add_sub
// @global 1024
// @arg counters global int[2] fill(1000)
// @arg values global int[1024] random(230, 1, 10)
// @check counters exact
// @bench-global 4194304
// @bench-arg values global int[4194304] random(230, 1, 10)
__kernel void add_sub(__global int* counters, __global const int* values) {
  const int v = values[get_global_id(0)];
  atomic_add(&counters[0], v);
  atomic_sub(&counters[1], v);
}
