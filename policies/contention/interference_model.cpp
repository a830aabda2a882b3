#include "policies/contention/interference_model.h"

namespace sharesim {

void concurrent_rates(std::span<const InterferenceParams* const> params, std::span<double> rates) {
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (params[i] == nullptr) {
      rates[i] = 0;
      continue;
    }
    double slowdown = 0;
    for (std::size_t j = 0; j < params.size(); ++j) {
      if (j != i && params[j] != nullptr) slowdown += interference_term(*params[i], *params[j]);
    }
    rates[i] = 1.0 / (1.0 + slowdown);
  }
}

}  // namespace sharesim
