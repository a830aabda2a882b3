#pragma once
// The scenario's fault section: how often a running job dies of a fatal fault.
#include "sim/core/sim_time.h"

namespace sharesim {

struct FaultSpec {
  SimTime job_mtbf = 0;  // mean running time between fatal faults of one job; 0 = no faults
};

}  // namespace sharesim
