kernel void k(read_only pipe int in, global int* p) {
  int v;
  read_pipe(in, &v);
  p[0] = v;
}
