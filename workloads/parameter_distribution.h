#pragma once
// A number drawn once per generated service or notebook (a request rate, an SLO, a lifetime,
// device memory), so that a generator's services differ as real ones do. Schema
// `parameter_distribution` (docs/scenario.md "Service and notebook generators"):
//   {"dist": "constant", "value": v}
//   {"dist": "uniform", "min": a, "max": b}            a <= b
//   {"dist": "exponential", "mean": m}
//   {"dist": "lognormal", "mean": m, "cv": c}          mean and coefficient of variation
//   {"dist": "choice", "values": [...], "weights": [...]}  weights optional (equal)
// The unit is the key's (rate_per_s: 1/s, slo_s: s, mem_mib: MiB).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/core/random_stream.h"

namespace sharesim {

class ParameterDistribution {
 public:
  enum class Kind { Constant, Uniform, Exponential, Lognormal, Choice };

  // Reads a schema-checked object; throws InputError (scenario_file, pointer) for what the
  // schema cannot check: min > max, weights not matching values.
  static ParameterDistribution from_json(const nlohmann::json& spec, const std::string& scenario_file,
                                         const std::string& pointer);

  // One draw (a constant uses no random number; each parameter has a stream of its own, so
  // that changing one law never moves another parameter's draws).
  double draw(RandomStream& rng) const;
  Kind kind() const { return kind_; }

 private:
  Kind kind_ = Kind::Constant;
  double a_ = 0;  // value, min, or mean
  double b_ = 0;  // max, or cv
  std::vector<double> values_;
  std::vector<double> cumulative_weights_;
};

}  // namespace sharesim
