// Black-Scholes call and put prices (exp, log, sqrt and a polynomial
// approximation of the normal CDF), a classic benchmark kernel.
// @kernel black_scholes
// @global 256
// @arg spot global float[256] random(56, 5, 30)
// @arg strike global float[256] random(57, 1, 100)
// @arg years global float[256] random(58, 0.25, 10)
// @arg call global float[256] zero
// @arg put global float[256] zero
// @arg rate float 0.02
// @arg volatility float 0.30
// @check call abs 2e-3
// @check put abs 2e-3
// @bench-global 8388608
// @bench-arg spot global float[8388608] random(56, 5, 30)
// @bench-arg strike global float[8388608] random(57, 1, 100)
// @bench-arg years global float[8388608] random(58, 0.25, 10)
// @bench-arg call global float[8388608] zero
// @bench-arg put global float[8388608] zero
float cnd(float d) {
  const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f, a5 = 1.330274429f;
  float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
  float c = 0.39894228040143267794f * exp(-0.5f * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d > 0 ? 1.0f - c : c;
}
__kernel void black_scholes(__global const float* spot, __global const float* strike, __global const float* years,
                            __global float* call, __global float* put, float rate, float volatility) {
  const int i = get_global_id(0);
  float s = spot[i], x = strike[i], t = years[i];
  float sqrt_t = sqrt(t);
  float d1 = (log(s / x) + (rate + 0.5f * volatility * volatility) * t) / (volatility * sqrt_t);
  float d2 = d1 - volatility * sqrt_t;
  float discount = exp(-rate * t);
  call[i] = s * cnd(d1) - x * discount * cnd(d2);
  put[i] = x * discount * (1.0f - cnd(d2)) - s * (1.0f - cnd(d1));
}
