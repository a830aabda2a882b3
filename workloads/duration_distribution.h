#pragma once
// Standalone job durations (work on whole GPUs of the job's type), drawn per job.
// `{"dist": "exponential", "mean_s": m}`, `{"dist": "lognormal", "mean_s": m, "cv": c}`,
// `{"dist": "constant", "mean_s": m}`, `{"dist": "empirical", "file": "samples.txt"}`,
// `{"dist": "pareto", "mean_s": m, "alpha": a}` (a > 1; heavy-tailed, infinite variance for a <= 2).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/core/random_stream.h"
#include "sim/core/sim_time.h"

namespace sharesim {

class DurationDistribution {
 public:
  enum class Kind { Exponential, Lognormal, Constant, Empirical, Pareto };

  // Reads a schema-checked `duration` object; empirical sample files resolve against
  // base_dir. Throws InputError naming the sample file and line for a bad sample.
  static DurationDistribution from_json(const nlohmann::json& spec, const std::string& base_dir,
                                        const std::string& scenario_file, const std::string& pointer);

  SimTime draw(RandomStream& rng) const;
  double mean_s() const;
  Kind kind() const { return kind_; }

 private:
  Kind kind_ = Kind::Constant;
  double mean_s_ = 0;
  double cv_ = 0;
  double alpha_ = 0;              // Pareto shape
  std::vector<SimTime> samples_;  // empirical: drawn uniformly (bootstrap)
};

// Reads one duration sample per line (seconds; blank lines and # comments skipped).
std::vector<SimTime> read_duration_samples(const std::string& path);

}  // namespace sharesim
