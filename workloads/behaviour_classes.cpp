#include "workloads/behaviour_classes.h"

#include <algorithm>
#include <deque>

#include "sim/core/random_stream.h"

namespace sharesim {
namespace {

// now + span without running past the end of representable time.
SimTime saturating_add(SimTime now, SimTime span) { return span >= kTimeNever - now ? kTimeNever : now + span; }

std::string job_stream(const std::string& kind, const std::string& origin, const JobSpec& job, const char* what) {
  return kind + "/" + origin + "-" + std::to_string(job.sequence) + "/" + what;
}

class ServiceBehaviour final : public JobBehaviour {
 public:
  ServiceBehaviour(const ServiceConfig& config, const JobSpec& job)
      : config_(config),
        arrival_rng_(config.seed, job_stream("service", config.origin, job, "arrivals")),
        work_rng_(config.seed, job_stream("service", config.origin, job, "work")) {}

  BehaviourStep start(SimTime now) override {
    BehaviourStep step;
    if (!started_) {
      started_ = true;
      origin_ = now;
      end_ = saturating_add(now, config_.lifetime);
      arrivals_ = config_.arrivals(now);
      draw_next_arrival();
    }
    // After a restart, the requests that came while no pod served were refused as they came
    // (timer() without a pod): none is left before now.
    serving_ = true;
    if (now >= end_) {
      step.done = true;
      return step;
    }
    step.demand = idle_demand(config_.active);
    step.work = 0;
    step.timer = std::min(next_arrival_, end_);
    return step;
  }

  BehaviourStep timer(SimTime now) override {
    BehaviourStep step;
    if (now >= end_) {
      step.done = true;  // the end of its lifetime: the runtime's stop() drops what is still queued
      return step;
    }
    step.arrivals = 1;  // several may share a nanosecond: each its own timer
    if (!serving_) {
      // No pod (killed, waiting for its restart): the request is refused as it arrives. Its
      // work is not drawn, so the work stream is the same whether outages refuse requests or not.
      step.dropped = 1;
      draw_next_arrival();
      step.timer = std::min(next_arrival_, end_);
      return step;
    }
    queue_.push_back(Request{now, static_cast<double>(config_.work.draw(work_rng_))});
    draw_next_arrival();
    step.timer = std::min(next_arrival_, end_);
    if (queue_.size() == 1) {
      step.demand = config_.active;
      step.work = queue_.front().work;
    }
    return step;
  }

  BehaviourStep work_done(SimTime now) override {
    BehaviourStep step;
    const Request head = queue_.front();
    queue_.pop_front();
    step.latency = now - head.arrival;
    step.request_work = head.work;
    if (queue_.empty()) {
      step.demand = idle_demand(config_.active);
      step.work = 0;
    } else {
      step.work = queue_.front().work;
      // The request after it is read at the next completion. It arrived long before (in an
      // overloaded service, thousands of requests earlier) and its line is cold: reading the
      // head's work here waited on memory in 70% of work_done's samples (perf annotate of the
      // inference benchmark's scenario, docs/ci.md 2026-11-28). Asked for now, one request ahead.
      if (queue_.size() > 1) __builtin_prefetch(&queue_[1]);
    }
    return step;
  }

  SimTime stop(SimTime /*now*/, LostRequests& lost) override {
    // Queued or being served, every request is lost with the pod (or with the end of its
    // lifetime: a service's pod is deleted, not drained).
    for (const Request& request : queue_) lost.lost(request.arrival);
    queue_.clear();
    serving_ = false;
    return started_ ? std::min(next_arrival_, end_) : kTimeNever;
  }

 private:
  struct Request {
    SimTime arrival;
    double work;
  };
  void draw_next_arrival() {
    next_arrival_ = saturating_add(origin_, seconds_to_time(arrivals_->next_s(arrival_rng_)));
  }

  const ServiceConfig& config_;
  RandomStream arrival_rng_, work_rng_;
  std::unique_ptr<ArrivalProcess> arrivals_;
  // A std::deque on purpose: in an overloaded service thousands of requests wait, and the
  // node a push writes into is one a pop just freed (malloc hands it back), still in the
  // cache. A ring buffer and a contiguous queue were slower (1.4 -> 1.7 s on the inference
  // benchmark's scenario): their pushes wrote to memory untouched for a long time (docs/ci.md
  // 2026-11-27, "Request samples where they lie").
  std::deque<Request> queue_;
  bool started_ = false;
  bool serving_ = false;  // a pod runs it: between start() and stop()
  SimTime origin_ = 0;
  SimTime end_ = kTimeNever;
  SimTime next_arrival_ = kTimeNever;
};

class NotebookBehaviour final : public JobBehaviour {
 public:
  NotebookBehaviour(const NotebookConfig& config, const JobSpec& job)
      : config_(config), rng_(config.seed, job_stream("notebook", config.origin, job, "phases")) {}

  BehaviourStep start(SimTime now) override {
    // The session runs from the first start; a restarted kernel begins with a new cell.
    if (!started_) {
      started_ = true;
      session_end_ = saturating_add(now, config_.session);
    }
    serving_ = true;
    return begin_cell(now);
  }

  BehaviourStep timer(SimTime now) override {
    BehaviourStep step;
    if (now >= session_end_) {
      // The session is wall time: a cell still running when it ends is cut off, and lost as a
      // killed pod's requests are (stop(); docs/outputs.md, metrics.services `dropped`).
      step.done = true;
      return step;
    }
    if (!serving_) {
      step.timer = session_end_;  // no kernel, no cells: only the session's end is due
      return step;
    }
    return begin_cell(now);
  }

  BehaviourStep work_done(SimTime now) override {
    BehaviourStep step;
    active_ = false;
    step.latency = now - cell_start_;
    step.request_work = cell_work_;
    step.demand = idle_demand(config_.demand);
    step.work = 0;
    step.timer = std::min(saturating_add(now, config_.idle.draw(rng_)), session_end_);
    return step;
  }

  SimTime stop(SimTime /*now*/, LostRequests& lost) override {
    if (active_) lost.lost(cell_start_);
    active_ = false;
    serving_ = false;
    return started_ ? session_end_ : kTimeNever;
  }

 private:
  BehaviourStep begin_cell(SimTime now) {
    BehaviourStep step;
    if (now >= session_end_) {
      step.done = true;
      return step;
    }
    active_ = true;
    cell_start_ = now;
    cell_work_ = static_cast<double>(config_.active.draw(rng_));
    step.arrivals = 1;
    step.demand = config_.demand;
    step.work = cell_work_;
    step.timer = session_end_;
    return step;
  }

  const NotebookConfig& config_;
  RandomStream rng_;
  bool started_ = false;
  bool serving_ = false;  // a pod runs it: between start() and stop()
  bool active_ = false;
  SimTime session_end_ = kTimeNever;
  SimTime cell_start_ = 0;
  double cell_work_ = 0;
};

template <typename Config, typename Behaviour>
class Factory final : public JobBehaviourFactory {
 public:
  explicit Factory(Config config) : config_(std::move(config)) {}
  std::unique_ptr<JobBehaviour> make(const JobSpec& job) override { return std::make_unique<Behaviour>(config_, job); }

 private:
  Config config_;  // the behaviours refer to it; the origin table keeps the factory alive
};

}  // namespace

std::shared_ptr<JobBehaviourFactory> make_service_factory(ServiceConfig config) {
  return std::make_shared<Factory<ServiceConfig, ServiceBehaviour>>(std::move(config));
}

std::shared_ptr<JobBehaviourFactory> make_notebook_factory(NotebookConfig config) {
  return std::make_shared<Factory<NotebookConfig, NotebookBehaviour>>(std::move(config));
}

}  // namespace sharesim
