// atomic_compare_exchange_strong_explicit as a spin-free claim: each
// work-item tries to claim slot (value % 64); the number of successful
// claims per slot is 1 for every slot that some value maps to.
// @kernel claim
// @std CL3.0
// @global 256
// @arg values global int[256] random(235, 0, 1000)
// @arg slots global int[64] fill(-1)
// @arg claimed global int[64] zero
// @check claimed exact
// @bench-global 4194304
// @bench-arg values global int[4194304] random(235, 0, 1000)
__kernel void claim(__global const int* values, __global atomic_int* slots, __global atomic_int* claimed) {
  const int v = values[get_global_id(0)];
  int expected = -1;
  if (atomic_compare_exchange_strong_explicit(&slots[v % 64], &expected, v, memory_order_acq_rel,
                                              memory_order_relaxed, memory_scope_device))
    atomic_fetch_add_explicit(&claimed[v % 64], 1, memory_order_relaxed, memory_scope_device);
}
