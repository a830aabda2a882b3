#pragma once
// What the runtime tells listeners about each job as it happens: "submit", "start", "requeue",
// "complete", "restart", "fail", "preempt", "repartition", "repartitioned", with a detail
// (the node, the reason). The runtime writes no output itself: the collectors of sim/metrics
// (the event log, sim/metrics/event_log.h) listen here, as SimGrid's plugins listen to the
// kernel's signals. A listener is called only while it is registered
// (ClusterRuntime::add_job_event_listener), and the runtime builds no detail text without one.
#include <cstdint>
#include <string_view>

#include "sim/core/sim_time.h"

namespace sharesim {

class JobEventListener {
 public:
  virtual void job_event(SimTime time, std::string_view event, std::uint32_t job, std::string_view detail) = 0;

 protected:
  ~JobEventListener() = default;  // not owned through this interface
};

}  // namespace sharesim
