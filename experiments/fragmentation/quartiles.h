#pragma once
// Quartiles over seeds for the sweep's summary CSV.
#include <vector>

namespace sharesim {

struct Quartiles {
  double p25 = 0, median = 0, p75 = 0;
};

// Linear interpolation between closest ranks (numpy's default, Hyndman & Fan type 7):
// position q x (n - 1) in the sorted values. `values` is reordered; it must not be empty.
Quartiles quartiles(std::vector<double>& values);

}  // namespace sharesim
