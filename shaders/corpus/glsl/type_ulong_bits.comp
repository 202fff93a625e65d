// GLSL twin of type_ulong_bits.cl (tools/corpus_bench/twin_side.h): a 64-bit
// population count and bit reversal by hand.
#version 450
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer In { uint64_t in_bits[]; };
layout(set = 0, binding = 1) writeonly buffer Out { u64vec2 out_bits[]; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  const uint64_t v = in_bits[i];
  uint64_t count = v - ((v >> 1) & 0x5555555555555555UL);
  count = (count & 0x3333333333333333UL) + ((count >> 2) & 0x3333333333333333UL);
  count = (((count + (count >> 4)) & 0x0F0F0F0F0F0F0F0FUL) * 0x0101010101010101UL) >> 56;
  uint64_t r = 0UL;
  for (int b = 0; b < 64; ++b) r |= ((v >> b) & 1UL) << (63 - b);
  out_bits[i] = u64vec2(count, r);
}
