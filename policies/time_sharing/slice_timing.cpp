#include "policies/time_sharing/slice_timing.h"

#include <cmath>

namespace sharesim {

SliceTiming slice_timing(const std::string& level, const CalibrationProfile& profile) {
  const CalibrationValue& slice = level == "short"    ? profile.short_slice_ns
                                  : level == "medium" ? profile.medium_slice_ns
                                  : level == "long"   ? profile.long_slice_ns
                                                      : profile.default_slice_ns;
  return SliceTiming{std::llround(slice.value),
                     std::llround(profile.switch_cost_ns.value + profile.cache_refill_ns.value)};
}

}  // namespace sharesim
