#include "workloads/arrival_scaling.h"

#include <cmath>

#include "sim/input/error_text.h"
#include "sim/input/input_error.h"

namespace sharesim {

SimTime scale_offset(SimTime offset, long double factor) {
  if (factor == 1.0L) return offset;
  const long double scaled = std::round(static_cast<long double>(offset) * factor);
  // 2^63 - 1 is not a long double; its neighbour 2^63 is, and anything from there saturates.
  if (scaled >= 9223372036854775808.0L) return kTimeNever;
  return static_cast<SimTime>(scaled);
}

ArrivalScaling read_arrival_scaling(const nlohmann::json& object, const std::string& pointer,
                                    const ArrivalScaling& outer, const std::string& scenario_file) {
  ArrivalScaling scaling = outer;
  const auto multiply = [&](const char* key, double& factor) {
    const auto it = object.find(key);
    if (it == object.end()) return;
    // The schema admits any number > 0 (JSON has no infinity: the reader refuses 1e999), but
    // the product with the workload's factor may overflow or underflow.
    factor *= it->get<double>();
    if (!std::isfinite(factor) || factor <= 0) {
      throw InputError(scenario_file, pointer + "/" + key,
                       "expected a number that, times the workload's " + std::string(key) +
                           ", stays a finite number > 0, found " + format_number(it->get<double>()) + " (product " +
                           format_number(factor) + ")");
    }
  };
  multiply("time_scale", scaling.time_scale);
  multiply("load_factor", scaling.load_factor);
  return scaling;
}

}  // namespace sharesim
