#pragma once
// The span of simulated time that the summary's time averages cover (docs/outputs.md
// "Measurement window"). The runtime clips its usage integrals to it as it accumulates them,
// so GPU time before a warm-up ends or after a configured end never enters a utilization;
// the job figures keep the jobs that arrive inside it.
#include <algorithm>

#include "sim/core/sim_time.h"

namespace sharesim {

struct MeasurementWindow {
  SimTime start = 0;
  SimTime end = kTimeNever;

  // Length of [from, to] that lies inside the window; 0 when they do not meet.
  SimTime overlap(SimTime from, SimTime to) const {
    const SimTime low = std::max(from, start);
    const SimTime high = std::min(to, end);
    return high > low ? high - low : 0;
  }
  // Whether an instant is inside, both ends included.
  bool contains(SimTime time) const { return time >= start && time <= end; }
};

}  // namespace sharesim
