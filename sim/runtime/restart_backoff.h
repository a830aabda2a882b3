#pragma once
// Restart OnFailure with backoff (Kubernetes Job restartPolicy and backoffLimit; docs/models.md
// "Checkpoints and restarts"): whether a killed job comes back, after how long, and how much of
// its work its last checkpoint saved. Plain functions of the origin's RestartSpec, so the
// runtime's kill path only asks and schedules.
#include <cstdint>

#include "sim/core/sim_time.h"
#include "sim/runtime/job_behaviour.h"

namespace sharesim {

// Whether a job killed after `restarts` earlier restarts goes back to pending.
inline bool restarts_after_kill(const RestartSpec& restart, std::uint16_t restarts) {
  return restart.on_failure && restarts < restart.max_restarts;
}

// The delay before restart number `restart_number` (1 for the first): `backoff`, doubled for
// each restart before it, never above `max_backoff` (and never overflowing on the way).
SimTime restart_backoff(const RestartSpec& restart, std::uint32_t restart_number);

// Standalone work its last checkpoint saved, `done` ns of it being done: whole checkpoint
// intervals only; 0 without checkpoints.
double checkpointed_work(const RestartSpec& restart, double done);

}  // namespace sharesim
