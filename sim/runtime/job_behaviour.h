#pragma once
// What a job does over time when it is more than steady work (docs/models.md "Behaviour
// classes"). workloads/ implements the classes (inference service, notebook); the runtime
// drives them generically and knows none of them.
//
// A job with a behaviour runs in steps. Each step sets the demand of all its pods' GPUs (an
// idle demand, sm = 0 and bw = 0, holds memory but takes no GPU time and makes no progress),
// an amount of standalone work to do before the behaviour is asked again (work_done), and a
// wall-clock timer (timer). Both are run by the runtime's fluid progress: the work's
// completion event moves whenever the policy changes the job's rate.
#include <cstdint>
#include <memory>
#include <optional>

#include "sim/cluster/gpu_sharing.h"
#include "sim/core/sim_time.h"

namespace sharesim {

struct JobSpec;

struct BehaviourStep {
  static constexpr SimTime kKeepTimer = -1;
  std::optional<PhaseDemand> demand;  // the job's demand from now on; nullopt = unchanged
  double work = -1;                   // ns of standalone work until work_done(); < 0 = unchanged
  SimTime timer = kKeepTimer;         // absolute time of the next timer(); kTimeNever = none
  bool done = false;                  // the job completes now
  // A request (or notebook cell) finished in this step: its latency (arrival to completion)
  // and its standalone work, both ns; latency < 0 = none.
  SimTime latency = -1;
  double request_work = 0;
  std::uint32_t arrivals = 0;  // requests that arrived in this step
  // Of those, requests refused as they arrived: no pod was serving (the job waits for its
  // restart). Requests lost later, after they arrived, go to stop()'s LostRequests instead.
  std::uint32_t dropped = 0;
};

// Where a behaviour reports the requests it loses. The measurement window counts a request's
// figures where it arrived (docs/outputs.md "Measurement window"), so each comes with its
// arrival time, not the time it was lost.
class LostRequests {
 public:
  virtual void lost(SimTime arrival) = 0;

 protected:
  ~LostRequests() = default;
};

class JobBehaviour {
 public:
  virtual ~JobBehaviour() = default;
  // The job's pods were placed (its first start, or a restart after a kill).
  virtual BehaviourStep start(SimTime now) = 0;
  // The step's work is done.
  virtual BehaviourStep work_done(SimTime now) = 0;
  // The step's timer fired. Also while the job has no pod (from stop() to the next start()):
  // a service's requests still arrive, refused, and its lifetime still ends, being wall time
  // (docs/models.md "Checkpoints and restarts"). Such a step only counts arrivals (each in
  // `dropped`), sets the next timer or ends the job (done); its demand and work are ignored.
  virtual BehaviourStep timer(SimTime now) = 0;
  // The job lost its pods: it was killed, or a step of its own ended it (done). Reports each
  // request it still held to `lost`, and returns when its next timer is due while it has no
  // pod (kTimeNever: none): the next request arrival, or the end of its lifetime or session.
  virtual SimTime stop(SimTime now, LostRequests& lost) = 0;
};

// One per origin: makes each job's behaviour as the job arrives (in arrival order).
class JobBehaviourFactory {
 public:
  virtual ~JobBehaviourFactory() = default;
  virtual std::unique_ptr<JobBehaviour> make(const JobSpec& job) = 0;
};

// What a kill does to a job of an origin (Kubernetes Job restartPolicy and backoffLimit;
// docs/models.md "Checkpoints and restarts").
struct RestartSpec {
  bool on_failure = false;              // OnFailure; false = Never
  SimTime backoff = 10 * kSecond;       // delay before the first restart, doubled each time
  SimTime max_backoff = 360 * kSecond;  // the doubling stops here
  std::uint16_t max_restarts = 6;       // restarts before the job is failed
  SimTime checkpoint_interval = 0;      // standalone work between checkpoints; 0 = none
};

}  // namespace sharesim
