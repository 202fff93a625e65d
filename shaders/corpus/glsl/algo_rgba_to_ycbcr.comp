// GLSL twin of algo_rgba_to_ycbcr.cl (tools/corpus_bench/twin_side.h): RGBA8
// pixels as one uint each, as a Vulkan programmer keeps them in a storage
// buffer; the same fixed-point arithmetic.
#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(set = 0, binding = 0) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { uint dst[]; };
layout(push_constant) uniform Size { int width, height, pitch; };

void main() {
  const int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
  if (x >= width || y >= height) return;
  const uint p = src[y * pitch + x];
  const ivec4 c = ivec4(p & 0xffu, (p >> 8) & 0xffu, (p >> 16) & 0xffu, p >> 24);
  const int luma = ((66 * c.x + 129 * c.y + 25 * c.z + 128) >> 8) + 16;
  const int cb = (-38 * c.x - 74 * c.y + 112 * c.z + 128 + (128 << 8)) >> 8;
  const int cr = (112 * c.x - 94 * c.y - 18 * c.z + 128 + (128 << 8)) >> 8;
  const uvec4 o = uvec4(clamp(ivec4(luma, cb, cr, c.w), 0, 255));
  dst[y * pitch + x] = o.x | (o.y << 8) | (o.z << 16) | (o.w << 24);
}
