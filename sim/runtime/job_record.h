#pragma once
// One job as the runtime runs it: its spec, its state, its progress (fluid_progress.h), where it
// runs and how it ended.
#include <cstdint>
#include <string_view>

#include "sim/cluster/gpu_sharing.h"
#include "sim/core/event_queue.h"
#include "sim/core/sim_time.h"
#include "sim/sched/job.h"

namespace sharesim {

enum class JobState : std::uint8_t { Pending, Running, Completed, Failed };
std::string_view job_state_name(JobState state);

struct JobRecord {
  JobSpec spec;
  JobState state = JobState::Pending;
  // The behaviour and restart fields sit in what was padding, so the record stays 128 bytes
  // (a million jobs are held at once).
  bool idle = false;            // its behaviour's current demand is idle (no progress)
  bool backing_off = false;     // pending in its restart backoff, not yet back in the queue
  std::int32_t behaviour = -1;  // index into the runtime's behaviour slots; -1 = steady work
  SimTime start = -1;
  SimTime end = -1;
  double remaining_work = 0;  // ns of standalone work left as of last_update
  double rate = 0;            // current progress rate, 1.0 = standalone speed
  SimTime last_update = 0;
  EventId completion;
  std::uint32_t first_pod = 0;  // range in ClusterRuntime::pods()
  std::uint32_t pod_count = 0;
  std::uint32_t gpu_devices = 0;  // device allocations it holds (0 for CPU-only jobs)
  std::int32_t failure = -1;      // index into failure_reasons() when Failed
  std::int32_t note = -1;         // index into notes(): a policy's remark on its placement
  // Where its first device is, copied from pods() and devices() when it starts: a completion
  // fetches the pod, the device, the GPU and the GPU's usage record at once from these instead
  // of one after another (each a cache miss in a large cluster; ClusterRuntime::prefetch_placement).
  std::uint32_t first_device = 0;  // index into ClusterRuntime::devices()
  std::uint32_t first_gpu = 0;     // that device's GPU; meaningless when gpu_devices is 0
  KillCause kill_cause = KillCause::None;
  bool killed_by_other = false;  // died of another pod's OOM or fault (blast radius)
  std::uint16_t restarts = 0;    // times it was requeued after a kill (restart: OnFailure; at most 65535)
};
static_assert(sizeof(JobRecord) == 128, "a job record is two cache lines: a field added must take padding's place");

}  // namespace sharesim
