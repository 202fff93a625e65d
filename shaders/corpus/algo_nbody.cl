// All-pairs n-body step: accelerations from float4 positions (w is the
// mass) with softening, bodies staged through __local memory in tiles, then
// a leapfrog update. rsqrt is 2 ulp in the full profile, the sums around it
// are reassociated differently by each compiler: compared with an absolute bound.
// @kernel nbody
// @global 128
// @local 32
// @arg pos global float4[128] random(28, -1, 1)
// @arg vel global float4[128] random(29, -0.1, 0.1)
// @arg new_pos global float4[128] zero
// @arg new_vel global float4[128] zero
// @arg dt float 0.01
// @arg tile local float4[32]
// @check new_pos abs 1e-4
// @check new_vel abs 1e-3
// @bench-global 16384
// @bench-arg pos global float4[16384] random(28, -1, 1)
// @bench-arg vel global float4[16384] random(29, -0.1, 0.1)
// @bench-arg new_pos global float4[16384] zero
// @bench-arg new_vel global float4[16384] zero
__kernel void nbody(__global const float4* pos, __global const float4* vel, __global float4* new_pos,
                    __global float4* new_vel, float dt, __local float4* tile) {
  const int i = get_global_id(0), lid = get_local_id(0), n = get_global_size(0), t = get_local_size(0);
  const float4 p = pos[i];
  float3 acc = (float3)(0.0f);
  for (int base = 0; base < n; base += t) {
    tile[lid] = pos[base + lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = 0; j < t; ++j) {
      float4 q = tile[j];
      float3 d = q.xyz - p.xyz;
      float dist2 = dot(d, d) + 0.01f;
      float inv = rsqrt(dist2);
      acc += d * (q.w * inv * inv * inv);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  float4 v = vel[i];
  v.xyz += acc * dt;
  new_vel[i] = v;
  new_pos[i] = (float4)(p.xyz + v.xyz * dt, p.w);
}
