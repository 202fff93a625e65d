// Compiled by the installed clc in the install test, then run by vkcl_consumer.
kernel void add_one(global uint* data) { data[get_global_id(0)] += 1; }
