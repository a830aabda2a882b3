#pragma once
// Fluid progress (DESIGN.md "Fluid progress, lazily updated"; the lazy update of SimGrid's
// resource models): a running job has remaining work (ns of standalone work) and a rate, 1.0 =
// standalone speed. Between two changes it progresses linearly, so nothing is done for it until
// its rate changes or its work runs out: a change brings its remaining work up to date and moves
// its one completion event. Which rate a job gets (its slowest GPU, its behaviour's idle phases)
// is the runtime's business; this is only the bookkeeping.
#include <cstdint>

#include "sim/core/simulator.h"
#include "sim/runtime/job_record.h"

namespace sharesim {

class FluidProgress {
 public:
  // Completion events go to `completion` with the job's index as argument.
  FluidProgress(Simulator& sim, EventHandler& completion) : sim_(sim), completion_(completion) {}

  // Brings remaining work up to `time` at the job's current rate.
  static void advance(JobRecord& rec, SimTime time);
  // From now on the job progresses at `rate`: brings it up to now and, when the rate changed or
  // it has no completion event, places that event where its remaining work runs out (none at
  // rate 0; at the end of representable time when later than that).
  void set_rate(std::uint32_t job, JobRecord& rec, double rate);
  // Cancels the job's completion event: it ended or was killed, or it was given new work (the
  // next set_rate then places one even at an unchanged rate).
  void drop_completion(JobRecord& rec) {
    if (rec.completion.valid()) sim_.cancel(rec.completion);
    rec.completion = EventId{};
  }

 private:
  Simulator& sim_;
  EventHandler& completion_;
};

}  // namespace sharesim
