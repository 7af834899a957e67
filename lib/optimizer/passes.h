// Factories of the built-in optimizer passes, one file each under lib/optimizer/.
#pragma once

#include <memory>

#include "lib/optimizer/graph_transformer.h"

namespace ort {

std::unique_ptr<GraphTransformer> CreateEliminateIdentity();

}  // namespace ort
