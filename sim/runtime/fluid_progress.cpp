#include "sim/runtime/fluid_progress.h"

#include <algorithm>
#include <cmath>

#include "sim/core/assert.h"

namespace sharesim {

void FluidProgress::advance(JobRecord& rec, SimTime time) {
  SHARESIM_ASSERT(time >= rec.last_update, "a job's progress was brought to a time before its last update");
  SHARESIM_ASSERT(rec.rate >= 0, "a job progresses at a negative rate");
  rec.remaining_work = std::max(0.0, rec.remaining_work - rec.rate * static_cast<double>(time - rec.last_update));
  rec.last_update = time;
}

void FluidProgress::set_rate(std::uint32_t job, JobRecord& rec, double rate) {
  const SimTime now = sim_.now();
  advance(rec, now);
  SHARESIM_ASSERT(rate >= 0, "a sharing policy gave a resident a negative or undefined rate");
  SHARESIM_ASSERT(rec.remaining_work >= 0, "a job's remaining work is negative");
  if (rate == rec.rate && rec.completion.valid()) return;
  drop_completion(rec);
  rec.rate = rate;
  if (rate > 0) {
    // A completion at or beyond the end of representable time never comes: the job is still
    // running when the run ends (docs/reliability.md), rather than completing at that end.
    const double delay = std::ceil(rec.remaining_work / rate);
    const SimTime room = kTimeNever - now;
    if (delay >= static_cast<double>(room)) return;
    // Urgent: the job has completed before anything else at that instant can preempt or kill it.
    rec.completion = sim_.schedule_at(now + static_cast<SimTime>(delay), completion_, job, EventPriority::Urgent);
  }
}

}  // namespace sharesim
