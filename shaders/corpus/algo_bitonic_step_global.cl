// One compare-exchange pass of a global bitonic sort (stage k = 64,
// distance j = 16), as a host loop would enqueue it; ints with a key/value
// pair in int2.
// @kernel bitonic_step
// @global 512
// @arg data global int2[512] random(31, -1000, 1000)
// @arg j uint 16
// @arg k uint 64
// @check data exact
// @bench-global 16777216
// @bench-arg data global int2[16777216] random(31, -1000, 1000)
__kernel void bitonic_step(__global int2* data, uint j, uint k) {
  const uint i = get_global_id(0);
  const uint partner = i ^ j;
  if (partner > i) {
    int2 a = data[i], b = data[partner];
    bool up = (i & k) == 0;
    if ((a.x > b.x) == up) {
      data[i] = b;
      data[partner] = a;
    }
  }
}
