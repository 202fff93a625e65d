// Launch cost (tools/bench/launch_cost.h): the kernel of
// shaders/bench/glsl/launch/ in OpenCL C, four buffer arguments and a slot,
// enqueued over one work-item with new arguments every time.
kernel void launch(global const uint* restrict a, global const uint* restrict b, global const uint* restrict c,
                   global uint* restrict d, uint slot) {
  d[slot] = a[0] + b[0] + c[0] + slot;
}
