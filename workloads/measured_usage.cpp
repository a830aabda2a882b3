#include "workloads/measured_usage.h"

#include <algorithm>

namespace sharesim {

void apply_measured_usage(const MeasuredUsage& measured, PhaseDemand& demand) {
  if (measured.gpu_util_pct) demand.duty = *measured.gpu_util_pct / 100.0;
  if (measured.sm_active) demand.sm = std::min(1.0, *measured.sm_active / demand.duty);
  // DRAM_ACTIVE is the direct measure of bandwidth use; utilization.memory the coarser one.
  if (measured.dram_active) {
    demand.bw = std::min(1.0, *measured.dram_active / demand.duty);
  } else if (measured.mem_util_pct) {
    demand.bw = std::min(1.0, *measured.mem_util_pct / 100.0 / demand.duty);
  }
}

std::string model_field_of(const std::string& key) {
  if (key == "gpu_util_pct") return "duty";
  if (key == "sm_active") return "sm";
  if (key == "mem_util_pct" || key == "dram_active") return "bw";
  return key;
}

}  // namespace sharesim
