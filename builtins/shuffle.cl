// OpenCL C shuffle and shuffle2 (OpenCL C 6.15.12, miscellaneous vector
// functions) for every element type and n, m in 2, 4, 8, 16.
//
// The translator would emit OpenCL.std shuffle/shuffle2, which Vulkan lacks.
// Component i of the result is x[mask[i] % n] (shuffle), or component
// mask[i] % 2n of x followed by y (shuffle2): only the low bits of each mask
// element count, as the specification says. A run-time mask becomes a dynamic
// component extraction (OpVectorExtractDynamic); a constant one folds to a
// plain vector shuffle. Vectors of 8 and 16 components are split by clc before
// translation (tools/clc/legalize_vectors.h).

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define OVERLOADABLE __attribute__((overloadable))

// T: element type, U: the unsigned type of its size, N: input width, M: result width.
#define SHUFFLE(T, U, N, M)                                                      \
  T##M OVERLOADABLE shuffle(T##N x, U##M mask) {                                 \
    T##M r;                                                                      \
    for (int i = 0; i < M; ++i) r[i] = x[mask[i] & (U)(N - 1)];                  \
    return r;                                                                    \
  }                                                                              \
  T##M OVERLOADABLE shuffle2(T##N x, T##N y, U##M mask) {                        \
    T##M r;                                                                      \
    for (int i = 0; i < M; ++i) {                                                \
      const U k = mask[i] & (U)(2 * N - 1);                                      \
      r[i] = k < N ? x[k] : y[k - N];                                            \
    }                                                                            \
    return r;                                                                    \
  }

#define SHUFFLE_M(T, U, N) SHUFFLE(T, U, N, 2) SHUFFLE(T, U, N, 4) SHUFFLE(T, U, N, 8) SHUFFLE(T, U, N, 16)
#define SHUFFLES(T, U) SHUFFLE_M(T, U, 2) SHUFFLE_M(T, U, 4) SHUFFLE_M(T, U, 8) SHUFFLE_M(T, U, 16)

SHUFFLES(char, uchar)
SHUFFLES(uchar, uchar)
SHUFFLES(short, ushort)
SHUFFLES(ushort, ushort)
SHUFFLES(int, uint)
SHUFFLES(uint, uint)
SHUFFLES(long, ulong)
SHUFFLES(ulong, ulong)
SHUFFLES(float, uint)
SHUFFLES(double, ulong)
SHUFFLES(half, ushort)
