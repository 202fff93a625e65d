// mem_fence, read_mem_fence and write_mem_fence between accesses of one
// work-item (ordering only; the result is single-work-item data flow).
// @kernel fences
// @global 128
// @arg data global int[128] random(262, -100, 100)
// @arg out global int[128] zero
// @check out exact
// @check data exact
// @bench-global 16777216
// @bench-arg data global int[16777216] random(262, -100, 100)
// @bench-arg out global int[16777216] zero
__kernel void fences(__global int* data, __global int* out) {
  const int i = get_global_id(0);
  data[i] += 1;
  write_mem_fence(CLK_GLOBAL_MEM_FENCE);
  int v = data[i];
  read_mem_fence(CLK_GLOBAL_MEM_FENCE);
  mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  out[i] = v * 2;
}
