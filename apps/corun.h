#pragma once
// `sharesim corun`: how fast each job of a group runs when the group shares one GPU under a
// sharing policy, relative to running alone (docs/models.md "Co-run predictions"). Each job is
// described as operators measure it alone (nvidia-smi utilization.gpu, utilization.memory,
// memory.used; optionally DCGM fields or a workload profile), and the prediction is the
// policy's own admission, memory and rate code, the code a simulated run uses.
#include <cstddef>
#include <string>
#include <vector>

#include "sim/cluster/gpu_catalog.h"

namespace sharesim {

struct CorunRequest {
  std::string input;              // CSV: group,job,gpu_util_pct,mem_util_pct,mem_mib[,...]
  std::string policy;             // a sharing policy name (sharesim compare lists them)
  std::string gpu;                // GPU catalog id
  std::vector<std::string> sets;  // sharing settings as KEY=VALUE (value read as JSON, else text)
};

struct CorunResult {
  std::string csv;  // the input rows and columns, plus the predicted ones
  std::size_t groups = 0;
  std::size_t rows = 0;
};

// Throws InputError (file, line and column) for bad input.
CorunResult predict_coruns(const CorunRequest& request, const GpuCatalog& catalog);

}  // namespace sharesim
