// Per-op registration functions of the generator category.
#pragma once

#include "lib/framework/kernel_registry.h"

namespace ort {}  // namespace ort
