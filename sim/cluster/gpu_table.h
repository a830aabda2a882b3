#pragma once
// The GPU catalog as a fixed-width text table, for `sharesim gpus`.
#include <string>

#include "sim/cluster/gpu_catalog.h"

namespace sharesim {

// One header row and one row per model in catalog order, columns separated by two spaces;
// text columns are left-aligned and numeric ones right-aligned. Ends with a newline.
std::string format_gpu_table(const GpuCatalog& catalog);

}  // namespace sharesim
