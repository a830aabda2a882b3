#pragma once
// The shared contention (rate) model of concurrent sharing (docs/models.md, "Contention
// model"; DESIGN.md "Contention model"). Tasks that run at the same time on one GPU share its
// SMs and its DRAM bandwidth processor-sharing style: task i at rate r_i (1.0 = its standalone
// speed) occupies r_i * sm_i of the SMs and r_i * bw_i of the bandwidth, and may not exceed its
// own cap (r_i * sm_i <= sm_cap_i, r_i <= 1). The rates are the weighted max-min fair
// allocation, found by progressive filling ("water-filling", Bertsekas & Gallager, Data
// Networks, 2nd ed., section 6.5.2): all unfrozen rates rise in proportion to their weights
// until a resource saturates or a task reaches its cap; those tasks freeze; repeat. A task's
// rate is therefore set by its bottleneck resource.
#include <span>

namespace sharesim {

struct ContentionTask {
  double sm = 1.0;      // fraction of the GPU's SMs it keeps busy when alone (0..1)
  double bw = 0.5;      // fraction of DRAM bandwidth it uses when alone (0..1)
  double sm_cap = 1.0;  // most SMs it may use (MPS active thread percentage, ...)
  double weight = 1.0;  // share weight (> 0)
};

// Writes rates.size() == tasks.size() rates. A task with sm == 0 and bw == 0 is idle (it
// holds memory but has no GPU work) and gets rate 0.
void solve_contention(std::span<const ContentionTask> tasks, std::span<double> rates);

// Rate of one task alone on a partition of the GPU that holds fractions f_sm of its SMs and
// f_bw of its DRAM bandwidth (a MIG instance): the water-filling above with one task and
// those capacities, min(1, f_sm / sm, f_bw / bw); 0 for an idle task. The profile fit
// (workloads/profiles/profile_fit.h, partition_speed) fits demands with the same rule.
double partition_rate(const ContentionTask& task, double f_sm, double f_bw);

}  // namespace sharesim
