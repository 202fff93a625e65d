#define PRIV_TYPE char
#define PRIV_VTYPE char3
__kernel void test_fn( __global PRIV_TYPE *srcValues, __global uint *offsets, __global PRIV_VTYPE *destBuffer, uint alignmentOffset )
{
  __private PRIV_VTYPE sPrivateStorage[ 64 ];
  int tid = get_global_id( 0 );
 sPrivateStorage[tid] = (PRIV_VTYPE)(PRIV_TYPE)0;

  vstore3( vload3(tid,srcValues), offsets[ tid ], ( (__private PRIV_TYPE *)sPrivateStorage ) + alignmentOffset );
  uint i;
  __private PRIV_TYPE *sp = ((__private PRIV_TYPE*) sPrivateStorage) + 3*offsets[tid] + alignmentOffset;
  __global PRIV_TYPE *dp = ((__global PRIV_TYPE*) destBuffer) + 3*offsets[tid] + alignmentOffset;
  for( i = 0; i < 3; i++ )
       dp[i] = sp[i];
}
