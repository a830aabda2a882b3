#include "sim/runtime/restart_backoff.h"

#include <algorithm>
#include <cmath>

#include "sim/core/assert.h"

namespace sharesim {

SimTime restart_backoff(const RestartSpec& restart, std::uint32_t restart_number) {
  SHARESIM_ASSERT(restart_number >= 1, "restart numbers count from 1");
  SimTime backoff = restart.backoff;
  for (std::uint32_t i = 1; i < restart_number && backoff < restart.max_backoff; ++i) {
    backoff = backoff <= restart.max_backoff / 2 ? backoff * 2 : restart.max_backoff;
  }
  return std::min(backoff, restart.max_backoff);
}

double checkpointed_work(const RestartSpec& restart, double done) {
  if (restart.checkpoint_interval <= 0) return 0;
  const auto interval = static_cast<double>(restart.checkpoint_interval);
  return std::floor(done / interval) * interval;
}

}  // namespace sharesim
