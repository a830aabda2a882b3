#include "sim/runtime/restart_backoff.h"

#include <algorithm>
#include <cmath>

#include "sim/core/assert.h"

namespace sharesim {

SimTime restart_backoff(const RestartSpec& restart, std::uint32_t restart_number) {
  SHARESIM_ASSERT(restart_number >= 1, "restart numbers count from 1");
  SimTime backoff = restart.backoff;
  // 0 doubles to 0: without this the loop below ran once per earlier restart, and a job that
  // always fails with max_restarts 65535 cost O(restarts^2) (1.8 s for 65,538 events, audit).
  // Any other delay reaches the cap within 63 doublings.
  if (backoff <= 0) return std::min(backoff, restart.max_backoff);
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
