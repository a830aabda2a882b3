#pragma once
// Draws "[#####.....] 45%  sim 13.5d  1234 jobs done" on stderr for `run` and `compare`, at
// most 10 times a second, starting after one second of wall time (short runs stay quiet).
// Callers draw it only when stderr is a terminal.
#include <chrono>
#include <string>

#include "sim/core/sim_time.h"
#include "sim/runtime/cluster_runtime.h"

namespace sharesim {

class ProgressBar {
 public:
  // `prefix` starts the line ("[2/6] mps  " for compare's second variant).
  ProgressBar(SimTime until, const ClusterRuntime& runtime, std::string prefix = "");
  void update(SimTime now);
  void finish();  // ends the line, if one was drawn

 private:
  using Clock = std::chrono::steady_clock;
  SimTime until_;
  const ClusterRuntime& runtime_;
  std::string prefix_;
  Clock::time_point start_, last_;
  bool shown_ = false;
};

}  // namespace sharesim
