#include "workloads/parameter_distribution.h"

#include <algorithm>

#include "sim/input/error_text.h"
#include "sim/input/input_error.h"

namespace sharesim {

ParameterDistribution ParameterDistribution::from_json(const nlohmann::json& spec, const std::string& scenario_file,
                                                       const std::string& pointer) {
  ParameterDistribution d;
  const std::string dist = spec.at("dist").get<std::string>();
  if (dist == "constant") {
    d.kind_ = Kind::Constant;
    d.a_ = spec.at("value").get<double>();
  } else if (dist == "uniform") {
    d.kind_ = Kind::Uniform;
    d.a_ = spec.at("min").get<double>();
    d.b_ = spec.at("max").get<double>();
    if (d.b_ < d.a_) {
      throw InputError(scenario_file, pointer + "/max",
                       "expected a max >= min (" + format_number(d.a_) + "), found " + format_number(d.b_));
    }
  } else if (dist == "exponential") {
    d.kind_ = Kind::Exponential;
    d.a_ = spec.at("mean").get<double>();
  } else if (dist == "lognormal") {
    d.kind_ = Kind::Lognormal;
    d.a_ = spec.at("mean").get<double>();
    d.b_ = spec.at("cv").get<double>();
  } else if (dist == "choice") {
    d.kind_ = Kind::Choice;
    d.values_ = spec.at("values").get<std::vector<double>>();
    std::vector<double> weights(d.values_.size(), 1.0);
    if (spec.contains("weights")) {
      weights = spec.at("weights").get<std::vector<double>>();
      if (weights.size() != d.values_.size()) {
        throw InputError(scenario_file, pointer + "/weights",
                         "expected one weight per value (" + std::to_string(d.values_.size()) + "), found " +
                             std::to_string(weights.size()));
      }
    }
    double total = 0;
    for (double w : weights) d.cumulative_weights_.push_back(total += w);
  } else {
    throw InputError(scenario_file, pointer + "/dist", "unknown distribution " + quote(dist));
  }
  return d;
}

double ParameterDistribution::draw(RandomStream& rng) const {
  switch (kind_) {
    case Kind::Constant:
      return a_;
    case Kind::Uniform:
      return a_ + (b_ - a_) * rng.uniform01();
    case Kind::Exponential:
      return rng.exponential(a_);
    case Kind::Lognormal:
      return rng.lognormal(a_, b_);
    case Kind::Choice: {
      // One uniform against the cumulative weights (as job_mix.h draws a class).
      const double u = rng.uniform01() * cumulative_weights_.back();
      const auto it = std::upper_bound(cumulative_weights_.begin(), cumulative_weights_.end(), u);
      return values_[std::min<std::size_t>(static_cast<std::size_t>(it - cumulative_weights_.begin()),
                                           values_.size() - 1)];
    }
  }
  return 0;
}

}  // namespace sharesim
