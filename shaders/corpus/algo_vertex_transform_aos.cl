// Vertex processing on an array of structs in a global buffer (a 48-byte
// vertex: position, normal, texture coordinates, packed colour, material):
// each work-item reads some of the fields of its vertex (a strided access
// pattern), transforms the position by a 4x4 matrix in __constant memory,
// computes a clamped diffuse term, and writes structure-of-arrays outputs.
// The buffer is generated as integer-valued floats (the colour and material
// words are their bit patterns), so every result is exact.
// @kernel transform_vertices
// @global 256
// @local 64
// @arg verts global float4[768] randint(317, -8, 8)
// @arg mvp constant float4[4] randint(318, -3, 3)
// @arg light float4 1,0,0,0
// @arg clip global float4[256] zero
// @arg shade global float[256] zero
// @arg uv_scaled global float2[256] zero
// @arg rgba global uint[256] zero
// @arg count int 256
// @check clip exact
// @check shade exact
// @check uv_scaled exact
// @check rgba exact
// @bench-global 2097152
// @bench-arg verts global float4[6291456] randint(317, -8, 8)
// @bench-arg clip global float4[2097152] zero
// @bench-arg shade global float[2097152] zero
// @bench-arg uv_scaled global float2[2097152] zero
// @bench-arg rgba global uint[2097152] zero
// @bench-arg count int 2097152
typedef struct {
  float4 position;
  float4 normal;
  float2 uv;
  uint color;     // 0xAARRGGBB
  uint material;
} Vertex;

__kernel void transform_vertices(__global const Vertex* verts, __constant float4* mvp, const float4 light,
                                 __global float4* clip, __global float* shade, __global float2* uv_scaled,
                                 __global uint* rgba, const int count) {
  const int i = get_global_id(0);
  if (i >= count) return;
  __global const Vertex* v = &verts[i];

  const float4 p = (float4)(v->position.xyz, 1.0f);
  clip[i] = (float4)(dot(mvp[0], p), dot(mvp[1], p), dot(mvp[2], p), dot(mvp[3], p));
  shade[i] = fmax(dot(v->normal.xyz, light.xyz), 0.0f) + (float)(v->material & 7u);
  uv_scaled[i] = v->uv * 0.5f;
  const uint c = v->color;
  rgba[i] = (c << 8) | (c >> 24);  // ARGB to RGBA
}
