#pragma once
// Bursty arrivals: a Markov-modulated Poisson process (Fischer & Meier-Hellstern, "The
// Markov-modulated Poisson process (MMPP) cookbook", Performance Evaluation 18(2), 1993).
// The process stays in state i for an exponential time of mean stay_i, emitting Poisson
// arrivals at rate_i, then moves to another state chosen uniformly (with two states: the
// other one). It starts in state 0. The embedded jump chain is then uniform, so state i holds
// the fraction stay_i / sum(stay) of the time and the mean rate is
// sum(rate_i * stay_i) / sum(stay_i).
#include <vector>

#include "workloads/arrival_process.h"

namespace sharesim {

struct MmppState {
  double rate_per_s = 0;  // may be 0 (an idle state)
  double mean_stay_s = 1;
};

class MmppArrivals final : public ArrivalProcess {
 public:
  explicit MmppArrivals(std::vector<MmppState> states);  // at least two states
  double next_s(RandomStream& rng) override;
  double mean_rate_per_s() const override;

 private:
  std::vector<MmppState> states_;
  std::size_t state_ = 0;
  double clock_s_ = 0;
  double state_ends_s_ = -1;  // drawn on the first call
};

}  // namespace sharesim
