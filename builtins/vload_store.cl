// OpenCL C vector data load and store functions (OpenCL C 6.15.10): vloadn
// and vstoren for n = 2, 3, 4, 8 and 16, every element type, every address
// space (vstoren not to __constant), as element-by-element loads and stores.
//
// The translator would emit OpenCL.std vloadn/vstoren, which Vulkan lacks;
// element accesses need only the element's alignment, which is all OpenCL
// promises for these pointers. The vectors of 8 and 16 components that
// vload8/vload16 build are split by clc before translation
// (tools/clc/legalize_vectors.h), like every other such vector.
// The half conversions (vload_half, vstore_half, vloada_half, ...) are in
// vload_store_half.cl.

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define OVERLOADABLE __attribute__((overloadable))

// Component lists: the n elements at q, and the components of a vector v.
#define VKCL_LOAD2(q) (q)[0], (q)[1]
#define VKCL_STORE2(q, v) (q)[0] = (v).s0; (q)[1] = (v).s1;
#define VKCL_LOAD3(q) (q)[0], (q)[1], (q)[2]
#define VKCL_STORE3(q, v) (q)[0] = (v).s0; (q)[1] = (v).s1; (q)[2] = (v).s2;
#define VKCL_LOAD4(q) (q)[0], (q)[1], (q)[2], (q)[3]
#define VKCL_STORE4(q, v) (q)[0] = (v).s0; (q)[1] = (v).s1; (q)[2] = (v).s2; (q)[3] = (v).s3;
#define VKCL_LOAD8(q) (q)[0], (q)[1], (q)[2], (q)[3], (q)[4], (q)[5], (q)[6], (q)[7]
#define VKCL_STORE8(q, v) (q)[0] = (v).s0; (q)[1] = (v).s1; (q)[2] = (v).s2; (q)[3] = (v).s3; (q)[4] = (v).s4; (q)[5] = (v).s5; (q)[6] = (v).s6; (q)[7] = (v).s7;
#define VKCL_LOAD16(q) (q)[0], (q)[1], (q)[2], (q)[3], (q)[4], (q)[5], (q)[6], (q)[7], (q)[8], (q)[9], (q)[10], (q)[11], (q)[12], (q)[13], (q)[14], (q)[15]
#define VKCL_STORE16(q, v) (q)[0] = (v).s0; (q)[1] = (v).s1; (q)[2] = (v).s2; (q)[3] = (v).s3; (q)[4] = (v).s4; (q)[5] = (v).s5; (q)[6] = (v).s6; (q)[7] = (v).s7; (q)[8] = (v).s8; (q)[9] = (v).s9; (q)[10] = (v).sa; (q)[11] = (v).sb; (q)[12] = (v).sc; (q)[13] = (v).sd; (q)[14] = (v).se; (q)[15] = (v).sf;

#define VLOAD(T, N, AS)                                                   \
  T##N OVERLOADABLE vload##N(size_t offset, const AS T* p) {             \
    const AS T* q = p + offset * N;                                        \
    return (T##N)(VKCL_LOAD##N(q));                                        \
  }
#define VSTORE(T, N, AS)                                                  \
  void OVERLOADABLE vstore##N(T##N data, size_t offset, AS T* p) {       \
    AS T* q = p + offset * N;                                              \
    VKCL_STORE##N(q, data)                                                 \
  }
#define VLOAD_VSTORE_N(T, N)                                                                          \
  VLOAD(T, N, __global) VLOAD(T, N, __local) VLOAD(T, N, __constant) VLOAD(T, N, __private) VLOAD(T, N, ) \
  VSTORE(T, N, __global) VSTORE(T, N, __local) VSTORE(T, N, __private) VSTORE(T, N, )
#define VLOAD_VSTORE(T) \
  VLOAD_VSTORE_N(T, 2) VLOAD_VSTORE_N(T, 3) VLOAD_VSTORE_N(T, 4) VLOAD_VSTORE_N(T, 8) VLOAD_VSTORE_N(T, 16)

VLOAD_VSTORE(char)
VLOAD_VSTORE(uchar)
VLOAD_VSTORE(short)
VLOAD_VSTORE(ushort)
VLOAD_VSTORE(int)
VLOAD_VSTORE(uint)
VLOAD_VSTORE(long)
VLOAD_VSTORE(ulong)
VLOAD_VSTORE(float)
VLOAD_VSTORE(double)
VLOAD_VSTORE(half)
