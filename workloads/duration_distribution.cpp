#include "workloads/duration_distribution.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "sim/input/input_error.h"

namespace sharesim {

std::vector<SimTime> read_duration_samples(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw InputError(path, "", std::string("cannot read duration samples: ") + std::strerror(errno));
  std::vector<SimTime> samples;
  std::string line;
  std::size_t line_number = 0;
  while (std::getline(file, line)) {
    ++line_number;
    const std::size_t begin = line.find_first_not_of(" \t\r");
    if (begin == std::string::npos || line[begin] == '#') continue;
    const std::size_t end = line.find_last_not_of(" \t\r") + 1;
    double seconds = 0;
    const auto [ptr, ec] = std::from_chars(line.data() + begin, line.data() + end, seconds);
    if (ec != std::errc() || ptr != line.data() + end || !std::isfinite(seconds) || seconds < 0 || seconds > 9e9) {
      throw InputError(
          path, std::to_string(line_number) + ":" + std::to_string(begin + 1),
          "expected a duration in seconds (a number >= 0), found \"" + line.substr(begin, end - begin) + "\"");
    }
    samples.push_back(seconds_to_time(seconds));
  }
  if (samples.empty()) throw InputError(path, "", "expected at least one duration sample, found none");
  return samples;
}

DurationDistribution DurationDistribution::from_json(const nlohmann::json& spec, const std::string& base_dir,
                                                     const std::string& scenario_file, const std::string& pointer) {
  DurationDistribution d;
  const std::string dist = spec.at("dist").get<std::string>();
  if (dist == "empirical") {
    d.kind_ = Kind::Empirical;
    std::filesystem::path file = spec.at("file").get<std::string>();
    if (file.is_relative()) file = std::filesystem::path(base_dir) / file;
    d.samples_ = read_duration_samples(file.string());
    double sum = 0;
    for (SimTime s : d.samples_) sum += time_to_seconds(s);
    d.mean_s_ = sum / static_cast<double>(d.samples_.size());
    return d;
  }
  d.mean_s_ = spec.at("mean_s").get<double>();
  if (dist == "exponential") {
    d.kind_ = Kind::Exponential;
  } else if (dist == "lognormal") {
    d.kind_ = Kind::Lognormal;
    d.cv_ = spec.at("cv").get<double>();
  } else if (dist == "pareto") {
    d.kind_ = Kind::Pareto;
    d.alpha_ = spec.at("alpha").get<double>();
  } else if (dist == "constant") {
    d.kind_ = Kind::Constant;
  } else {
    throw InputError(scenario_file, pointer + "/dist", "unknown duration distribution \"" + dist + "\"");
  }
  return d;
}

SimTime DurationDistribution::draw(RandomStream& rng) const {
  switch (kind_) {
    case Kind::Exponential:
      return seconds_to_time(rng.exponential(mean_s_));
    case Kind::Lognormal:
      return seconds_to_time(rng.lognormal(mean_s_, cv_));
    case Kind::Constant:
      return seconds_to_time(mean_s_);
    case Kind::Empirical:
      return samples_[rng.uniform_index(samples_.size())];
    case Kind::Pareto: {
      // Inverse CDF of the Pareto law with scale x_m = mean (alpha - 1) / alpha, so that its
      // mean alpha x_m / (alpha - 1) is mean_s: x = x_m (1 - U)^(-1/alpha), U uniform in [0, 1).
      const double scale = mean_s_ * (alpha_ - 1) / alpha_;
      return seconds_to_time(scale * std::pow(1 - rng.uniform01(), -1 / alpha_));
    }
  }
  return 0;
}

double DurationDistribution::mean_s() const { return mean_s_; }

}  // namespace sharesim
