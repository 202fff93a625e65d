// bool in private memory: an array of flags (a sieve over a small window),
// bools stored, loaded and combined with logical operators.
// @kernel sieve
// @global 64
// @arg out global int[64] zero
// @check out exact
// @bench-skip the sieve's window (64 private flags) is the range: a larger one would index past the array
__kernel void sieve(__global int* out) {
  bool composite[64];
  for (int i = 0; i < 64; ++i) composite[i] = false;
  for (int p = 2; p * p < 64; ++p)
    if (!composite[p])
      for (int m = p * p; m < 64; m += p) composite[m] = true;
  const int n = get_global_id(0);
  bool prime = n >= 2 && !composite[n];
  bool twin = prime && ((n + 2 < 64 && !composite[n + 2]) || (n >= 4 && !composite[n - 2]));
  out[n] = prime + 2 * twin;
}
