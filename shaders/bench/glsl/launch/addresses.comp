// The launch-cost kernel (tools/bench/launch_cost.cpp) with its four buffer
// arguments as device addresses in push constants, as vkcl passes them
// (method a). Next to nothing to do, so the host's recording and the
// device's per-dispatch cost are what is measured; reading and writing every
// buffer lets the host check that each dispatch got its own arguments.
#version 460
#extension GL_EXT_buffer_reference : require

layout(local_size_x = 1) in;

layout(buffer_reference, std430, buffer_reference_align = 4) readonly restrict buffer In { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) writeonly restrict buffer Out { uint v[]; };
layout(push_constant, std430) uniform Args { In a; In b; In c; Out d; uint slot; };

void main() { d.v[slot] = a.v[0] + b.v[0] + c.v[0] + slot; }
