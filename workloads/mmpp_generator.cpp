#include "workloads/mmpp_generator.h"

#include <limits>

namespace sharesim {

MmppArrivals::MmppArrivals(std::vector<MmppState> states) : states_(std::move(states)) {}

double MmppArrivals::mean_rate_per_s() const {
  double weighted = 0, total = 0;
  for (const MmppState& s : states_) {
    weighted += s.rate_per_s * s.mean_stay_s;
    total += s.mean_stay_s;
  }
  return weighted / total;
}

double MmppArrivals::next_s(RandomStream& rng) {
  if (state_ends_s_ < 0) state_ends_s_ = rng.exponential(states_[state_].mean_stay_s);
  while (true) {
    const double rate = states_[state_].rate_per_s;
    // Exponential gaps are memoryless: a candidate past the state's end is discarded and the
    // next state draws afresh from its end.
    const double candidate =
        rate > 0 ? clock_s_ + rng.exponential(1.0 / rate) : std::numeric_limits<double>::infinity();
    if (candidate <= state_ends_s_) return clock_s_ = candidate;
    clock_s_ = state_ends_s_;
    std::size_t next = static_cast<std::size_t>(rng.uniform_index(states_.size() - 1));
    if (next >= state_) ++next;  // uniformly among the other states
    state_ = next;
    state_ends_s_ = clock_s_ + rng.exponential(states_[state_].mean_stay_s);
  }
}

}  // namespace sharesim
