#pragma once
// Seeded random streams, one per component, derived from the scenario seed and the
// component's name, so adding a generator never perturbs another's numbers. The generator
// and every distribution are written here (not <random>'s distributions, whose algorithms
// differ between standard libraries), so a seed gives the same numbers with any compiler;
// the few draws that call log/exp/sin/cos also depend on the C math library (glibc's are
// correctly rounded in practice, so runs agree across Linux machines).
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace sharesim {

// xoshiro256** (Blackman & Vigna, "Scrambled linear pseudorandom number generators",
// ACM TOMS 2021), seeded through splitmix64 as its authors recommend.
class RandomStream {
 public:
  RandomStream(std::uint64_t scenario_seed, std::string_view stream_name);
  explicit RandomStream(std::uint64_t seed);

  std::uint64_t next_u64();
  // Uniform in [0, 1) with 53 random bits.
  double uniform01();
  // Uniform integer in [0, n), n > 0, without modulo bias (rejection).
  std::uint64_t uniform_index(std::uint64_t n);
  // Exponential with the given mean, by the ziggurat method (Marsaglia & Tsang 2000).
  double exponential(double mean);
  // Standard normal by the Box-Muller transform (one value used per call pair kept).
  double standard_normal();
  // Lognormal with the given mean and coefficient of variation cv = sd / mean:
  // sigma^2 = ln(1 + cv^2), mu = ln(mean) - sigma^2 / 2 (moments of the lognormal).
  double lognormal(double mean, double cv);

 private:
  // The rest of an exponential draw whose first try fell outside its strip's rectangle (1.1% of
  // draws): out of line, so that the common path needs no stack frame.
  double exponential_outside_rectangle(double mean, std::size_t strip, double x);

  std::uint64_t state_[4];
  double spare_normal_ = 0;
  bool has_spare_normal_ = false;
};

}  // namespace sharesim
