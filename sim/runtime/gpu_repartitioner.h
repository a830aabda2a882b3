#pragma once
// Dynamic repartitioning (GpuSharing::repartitioning; MIG): for each GPU resource that a
// waiting job asks for and the GPUs offer too little of to hold it (none, fewer instances than
// a pod asks for on one node, fewer pods than a gang has), drain one GPU whose policy can be
// laid out anew to offer more (the one whose new layout brings its node one more pod: on the
// node that offers the most already, then with the fewest residents), withdraw its resources
// from its node once it is empty, and after the policy's repartition_time advertise what the
// new layout offers. sim/ still knows no policy: the policy answers every question.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/cluster/cluster.h"
#include "sim/core/simulator.h"
#include "sim/sched/scheduler.h"

namespace sharesim {

class GpuRepartitioner {
 public:
  // The runtime's side: the event log, the usage figures, and the pass over the queue that
  // follows a new layout. Called only on repartitioning events.
  class Listener {
   public:
    virtual ~Listener() = default;
    // A GPU starts draining for waiting job `trigger`; `detail` says which and for what.
    virtual void draining(std::uint32_t trigger, const std::string& detail) = 0;
    // GPU `gpu` offers its new layout now; it drained over [drain_start, reconfigure_start)
    // and was reconfigured since.
    virtual void repartitioned(std::uint32_t gpu, std::uint32_t trigger, SimTime drain_start, SimTime reconfigure_start,
                               const std::string& detail) = 0;
  };

  GpuRepartitioner(Simulator& sim, Cluster& cluster, Scheduler& scheduler, const ShapeTable& shapes,
                   Listener& listener);
  GpuRepartitioner(const GpuRepartitioner&) = delete;
  GpuRepartitioner& operator=(const GpuRepartitioner&) = delete;

  // Looks at the waiting jobs (spec_of(job): each one's JobSpec) and drains GPUs for the
  // resources that too few GPUs offer to hold a job. Costs one test when no GPU can be
  // repartitioned.
  template <typename SpecOf>
  void plan(SpecOf&& spec_of) {
    if (!enabled_ || scheduler_.pending().empty()) return;
    begin_plan();
    scheduler_.pending().for_each([&](std::uint32_t job) {
      const JobSpec& spec = spec_of(job);
      consider(job, shapes_.shapes[spec.shape], spec.pods);
    });
  }
  // A GPU lost a resident: once a draining GPU is empty, its reconfiguration begins.
  void resident_left(std::uint32_t gpu) {
    if (cluster_.gpu(gpu).draining && cluster_.gpu(gpu).residents.empty()) begin_reconfiguration(gpu);
  }
  // Calls visit(gpu, drain_start, reconfigure_start) for each GPU being repartitioned now, in
  // GPU order; reconfigure_start is -1 while it still drains (for the usage meter at the end of
  // a run that stops before the new layout is offered).
  template <typename Visit>
  void for_each_under_way(Visit&& visit) const {
    for (const auto& [gpu, plan] : repartitions_) visit(gpu, plan.drain_start, plan.reconfigure_start);
  }

 private:
  // A GPU being drained and laid out anew for a pending pod's ask.
  struct Repartition {
    DeviceAsk ask;
    std::uint32_t trigger = 0;  // the pending job it is done for (for the event log)
    SimTime drain_start = 0;
    SimTime reconfigure_start = -1;  // -1 while still draining
  };
  struct DoneHandler : EventHandler {
    GpuRepartitioner* owner = nullptr;
    void on_event(std::uint32_t gpu) override { owner->on_repartitioned(gpu); }
  };

  void begin_plan();
  void consider(std::uint32_t job, const PodShape& shape, std::uint32_t pods);
  void begin_reconfiguration(std::uint32_t gpu);
  void on_repartitioned(std::uint32_t gpu);

  Simulator& sim_;
  Cluster& cluster_;
  Scheduler& scheduler_;
  const ShapeTable& shapes_;
  Listener& listener_;
  bool enabled_ = false;                               // some GPU's policy can be repartitioned
  std::map<std::uint32_t, Repartition> repartitions_;  // by GPU, ordered for determinism
  std::vector<ResourceId> considered_;                 // resources dealt with in this plan
  DoneHandler done_handler_;
};

}  // namespace sharesim
