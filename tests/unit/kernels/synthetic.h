// Synthetic measurements with known parameters for the calibration analysis tests: time-slice
// probe logs of N round-robin contexts (with noise, hiccups, foreign tenants and timer
// quantisation), cache-refill walks, co-run throughputs and SM-scaling curves.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "kernels/host/timeslice_analysis.h"

namespace sharesim::calib::testing {

struct ProbeSpec {
  int processes = 2;
  double slice_ns = 1024000;
  double slice_jitter_ns = 5000;  // standard deviation
  double switch_ns = 30000;
  double switch_jitter_ns = 2000;  // standard deviation
  double duration_ns = 400e6;
  double hiccup_probability = 0.05;   // per slice: a 3 us pause that is not a switch
  double foreign_probability = 0.02;  // per switch: another tenant runs 3 slices in between
  std::int64_t tick_ns = 1;           // timer resolution (1000 before Hopper)
  unsigned seed = 1;
};

inline std::int64_t quantize(double t, std::int64_t tick) {
  return static_cast<std::int64_t>(std::floor(t / static_cast<double>(tick))) * tick;
}

// Round robin over the contexts; each context's log holds its gaps between its first and last
// observed slice (a process only starts observing while it runs).
inline ProbeRun make_probe_run(const ProbeSpec& spec) {
  std::mt19937_64 rng(spec.seed);
  std::normal_distribution<double> slice(spec.slice_ns, spec.slice_jitter_ns);
  std::normal_distribution<double> gap(spec.switch_ns, spec.switch_jitter_ns);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto n = static_cast<std::size_t>(spec.processes);
  std::vector<std::vector<std::pair<double, double>>> runs(n);
  const double t0 = 5e9;
  double t = t0;
  std::size_t current = 0;
  while (t < t0 + spec.duration_ns) {
    const double length = std::max(1000.0, slice(rng));
    runs[current].emplace_back(t, t + length);
    t += length + std::max(0.0, gap(rng));
    if (unit(rng) < spec.foreign_probability) t += 3 * spec.slice_ns;
    current = (current + 1) % n;
  }
  ProbeRun run;
  run.processes = spec.processes;
  for (std::size_t c = 0; c < n; ++c) {
    const auto& mine = runs[c];
    // Start observing inside one of the first three runs, stop inside one of the last three.
    const std::size_t first = static_cast<std::size_t>(unit(rng) * 3);
    const std::size_t last = mine.size() - 1 - static_cast<std::size_t>(unit(rng) * 3);
    ContextLog log;
    const double begin = mine[first].first + 0.3 * (mine[first].second - mine[first].first);
    const double end = mine[last].first + 0.6 * (mine[last].second - mine[last].first);
    log.window = {quantize(begin, spec.tick_ns), quantize(end, spec.tick_ns)};
    for (std::size_t r = first; r < last; ++r) {
      // A hiccup inside this run, at least 10 us from its ends.
      if (unit(rng) < spec.hiccup_probability && r > first) {
        const double at = mine[r].first + 10000 + unit(rng) * (mine[r].second - mine[r].first - 30000);
        log.gaps.push_back({quantize(at, spec.tick_ns), quantize(at + 3000, spec.tick_ns)});
      }
      log.gaps.push_back({quantize(mine[r].second, spec.tick_ns), quantize(mine[r + 1].first, spec.tick_ns)});
    }
    std::sort(log.gaps.begin(), log.gaps.end(), [](const Interval& a, const Interval& b) { return a.begin < b.begin; });
    run.contexts.push_back(std::move(log));
  }
  return run;
}

struct WalkSpec {
  double steady_ns = 50000;
  double penalty_ns = 15000;
  double jitter_ns = 1000;
  int walks = 2000;
  double after_switch_fraction = 0.2;
  double interrupted_fraction = 0.03;  // a switch-out inside the walk adds about a slice
  unsigned seed = 7;
};

inline std::vector<Walk> make_walks(const WalkSpec& spec) {
  std::mt19937_64 rng(spec.seed);
  std::normal_distribution<double> noise(0.0, spec.jitter_ns);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<Walk> walks;
  double t = 1e9;
  for (int i = 0; i < spec.walks; ++i) {
    Walk w;
    w.after_switch = unit(rng) < spec.after_switch_fraction;
    double length = spec.steady_ns + (w.after_switch ? spec.penalty_ns : 0.0) + noise(rng);
    if (unit(rng) < spec.interrupted_fraction) length += 1.1e6;
    w.span = {static_cast<std::int64_t>(t), static_cast<std::int64_t>(t + length)};
    t += length + 200000;
    walks.push_back(w);
  }
  return walks;
}

}  // namespace sharesim::calib::testing
