// A program-scope __constant array of structs (coefficients of piecewise
// linear segments) and a __constant scalar.
// @kernel piecewise
// @global 128
// @arg x global int[128] random(72, 0, 399)
// @arg y global int[128] zero
// @check y exact
// @bench-global 16777216
// @bench-arg x global int[16777216] random(72, 0, 399)
// @bench-arg y global int[16777216] zero
typedef struct {
  int start;
  int slope;
  int offset;
} Segment;
__constant Segment segments[4] = {{0, 2, 0}, {100, -1, 200}, {200, 3, 100}, {300, 0, 400}};
__constant int scale = 3;
__kernel void piecewise(__global const int* x, __global int* y) {
  int v = x[get_global_id(0)];
  int s = v / 100;
  y[get_global_id(0)] = scale * (segments[s].slope * (v - segments[s].start) + segments[s].offset);
}
