#pragma once
// Load scaling of a workload's job arrivals (docs/scenario.md "Load scaling"), for sweeps over
// load without editing arrival processes or traces:
//   time_scale s: every arrival's offset from its source's reference time is multiplied by s
//     (0.5: the same arrivals twice as dense; 2: half as dense). The whole arrival pattern is
//     stretched, a diurnal period and MMPP stays included.
//   load_factor f: the arrival rate is multiplied by f, as a load sweep in Gavel's simulator
//     varies the input job rate (Narayanan et al., OSDI'20, sec. 7). A generator's rate
//     parameters are multiplied (Poisson rate, diurnal mean rate, each MMPP state's rate; a
//     diurnal period and MMPP stays are kept); a trace has no rate parameter, so its offsets
//     are divided by f.
// Reference time: a generator's `start`, a trace's first arrival. Durations are never scaled.
// Factors given at workload level and on a source multiply.
#include <nlohmann/json.hpp>
#include <string>

#include "sim/core/sim_time.h"

namespace sharesim {

struct ArrivalScaling {
  double time_scale = 1;
  double load_factor = 1;

  // What a trace's offsets are multiplied by: time_scale / load_factor.
  long double trace_factor() const {
    return static_cast<long double>(time_scale) / static_cast<long double>(load_factor);
  }
};

// offset x factor, rounded to the nearest nanosecond (halves away from zero) in long double
// (64-bit mantissa: exact for every int64 offset), saturating at kTimeNever. A factor of 1
// returns the offset unchanged.
SimTime scale_offset(SimTime offset, long double factor);

// `outer` with the schema-checked time_scale and load_factor of `object` (a workload, a
// generator or a trace, at `pointer`) multiplied in. Throws InputError (scenario_file,
// pointer of the key) when a product is not a finite number > 0.
ArrivalScaling read_arrival_scaling(const nlohmann::json& object, const std::string& pointer,
                                    const ArrivalScaling& outer, const std::string& scenario_file);

}  // namespace sharesim
