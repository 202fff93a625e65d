// Pointer arithmetic on global pointers: a walking pointer with a stride,
// a pointer difference, and pointer comparisons as the loop bound.
// @kernel strided_sum
// @global 64
// @arg data global int[1024] random(79, -100, 100)
// @arg out global int[64] zero
// @check out exact
// @bench-skip the walk's stride (64) and end (data + 1024) are constants in the code: the range is pinned at 64 work-items
__kernel void strided_sum(__global const int* data, __global int* out) {
  __global const int* p = data + get_global_id(0);
  __global const int* end = data + 1024;
  int sum = 0, steps = 0;
  while (p < end) {
    sum += *p;
    p += 64;
    ++steps;
  }
  out[get_global_id(0)] = sum * 10 + (int)(p - end) + steps;
}
