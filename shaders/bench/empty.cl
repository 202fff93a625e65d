// Dispatch overhead: a kernel that does nothing, enqueued over one work-item.
kernel void empty(void) {}
