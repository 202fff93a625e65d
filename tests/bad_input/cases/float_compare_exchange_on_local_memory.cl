kernel void k(global float* p) {
  local atomic_float sum;
  atomic_store(&sum, 0.0f);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  float expected = 0.0f;
  p[0] = atomic_compare_exchange_strong(&sum, &expected, 1.0f);
}
