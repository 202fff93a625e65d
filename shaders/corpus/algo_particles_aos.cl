// Particle update on an array of structs in a global buffer (OpenCL's
// struct layout: float4 aligned to 16 bytes), bouncing off the walls of a box.
// @kernel particles
// @global 64
// @arg particles global float4[192] randint(61, -8, 8)
// @arg dt float 0.5
// @check particles exact
// @bench-global 4194304
// @bench-arg particles global float4[12582912] randint(61, -8, 8)
typedef struct {
  float4 position;
  float4 velocity;
  int bounces;
  float mass;
  int pad[2];
} Particle;
__kernel void particles(__global Particle* particles, float dt) {
  __global Particle* p = &particles[get_global_id(0)];
  float4 pos = p->position + p->velocity * dt;
  float4 vel = p->velocity;
  int bounces = 0;
  if (pos.x < -8.0f || pos.x > 8.0f) { vel.x = -vel.x; ++bounces; }
  if (pos.y < -8.0f || pos.y > 8.0f) { vel.y = -vel.y; ++bounces; }
  p->position = pos;
  p->velocity = vel;
  p->bounces = bounces;
  p->mass = (float)(bounces * 2);
}
