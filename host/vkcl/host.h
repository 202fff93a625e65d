// The vkcl host runtime: Device, Buffer, Program, Kernel, NDRange, CommandList, Event.
#pragma once

#include "vkcl/buffer.h"
#include "vkcl/device.h"
#include "vkcl/error.h"
#include "vkcl/kernel.h"
#include "vkcl/ndrange.h"
#include "vkcl/program.h"
#include "vkcl/queue.h"
