// Per-op registration functions of the controlflow category.
#pragma once

#include "lib/framework/kernel_registry.h"

namespace ort {}  // namespace ort
