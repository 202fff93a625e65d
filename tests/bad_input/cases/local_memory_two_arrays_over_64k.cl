void fill(local float* tile, global float* p) {
  tile[get_local_id(0)] = p[get_global_id(0)];
}
kernel void k(global float* p) {
  local float a[10000];
  local float b[10000];
  fill(a, p);
  fill(b, p);
  barrier(CLK_LOCAL_MEM_FENCE);
  p[get_global_id(0)] = a[1] + b[2];
}
