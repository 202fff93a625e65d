typedef struct { char pre[12]; char2 vec; char post[12]; } padded;
kernel void k(global uint* dest) {
  padded p;
  dest[get_global_id(0)] = (uint)((uchar*)&p.vec);
}
