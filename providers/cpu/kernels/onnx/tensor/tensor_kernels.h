// Per-op registration functions of the tensor category.
#pragma once

#include "lib/framework/kernel_registry.h"

namespace ort {}  // namespace ort
