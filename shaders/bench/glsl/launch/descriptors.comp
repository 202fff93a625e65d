// The launch-cost kernel (tools/bench/launch_cost.cpp, conventions:
// addresses.comp) with its four buffer arguments as storage-buffer
// descriptors, bound by push descriptors, descriptor sets or a descriptor
// buffer (methods b, c, d); the scalar stays a push constant.
#version 460

layout(local_size_x = 1) in;

layout(set = 0, binding = 0, std430) readonly restrict buffer A { uint a; };
layout(set = 0, binding = 1, std430) readonly restrict buffer B { uint b; };
layout(set = 0, binding = 2, std430) readonly restrict buffer C { uint c; };
layout(set = 0, binding = 3, std430) writeonly restrict buffer D { uint d[]; };
layout(push_constant, std430) uniform Args { uint slot; };

void main() { d[slot] = a + b + c + slot; }
