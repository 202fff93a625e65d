// The empty kernel of ../empty.cl, for the raw Vulkan dispatch-overhead path
// (tools/bench/raw_vulkan.cpp): one invocation that does nothing, no push
// constants, no descriptors.
#version 460
layout(local_size_x = 1) in;
void main() {}
