kernel void k(global float4* p) {
  float4 v = (float3)(1.0f, 2.0f, 3.0f);
  p[0] = v;
}
