#include "workloads/service_generator.h"

#include <algorithm>
#include <cmath>

#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "workloads/arrival_scaling.h"
#include "workloads/behaviour_classes.h"

namespace sharesim {
namespace {

RandomStream stream(const WorkloadContext& context, const std::string& name, const char* what) {
  return RandomStream(context.seed, "generator/" + name + "/" + what);
}

// A drawn time in seconds; at least 1 ns, as an SLO or a session of 0 would mean "none" or
// "over before it starts" (an exponential draw can be 0).
SimTime drawn_time(const ParameterDistribution& law, RandomStream& rng) {
  return std::max<SimTime>(1, seconds_to_time(law.draw(rng)));
}

}  // namespace

ServiceGenerator::ServiceGenerator(ServiceGeneratorConfig config, WorkloadContext& context)
    : config_(std::move(config)),
      context_(context),
      arrivals_(stream(context, config_.name, "arrivals")),
      rate_(stream(context, config_.name, "rate")),
      slo_(stream(context, config_.name, "slo")),
      lifetime_(stream(context, config_.name, "lifetime")),
      session_(stream(context, config_.name, "session")),
      mem_(stream(context, config_.name, "mem")) {}

bool ServiceGenerator::next(JobSpec& out) {
  if (replicas_left_ == 0) {
    if (config_.count && services_ >= *config_.count) return false;
    SimTime offset = seconds_to_time(config_.arrivals->next_s(arrivals_));
    if (offset < kTimeNever) offset = scale_offset(offset, config_.time_scale);
    // Past the end of representable time (kTimeNever included): never comes (poisson_generator.cpp).
    if (offset >= kTimeNever - config_.start) return false;
    const SimTime arrival = config_.start + offset;
    if (arrival > config_.until) return false;
    begin_service(arrival);
  }
  out = service_job_;
  out.sequence = config_.replicas - replicas_left_;
  --replicas_left_;
  return true;
}

void ServiceGenerator::begin_service(SimTime arrival) {
  const std::string name = config_.name + "-" + std::to_string(services_);
  const std::size_t known = context_.origins.size();
  const std::uint32_t origin = context_.intern_origin(name, config_.kind);
  if (context_.origins.size() == known) {
    throw InputError(context_.scenario_file, config_.pointer + "/name",
                     "the generator's service " + quote(name) + " would share its name with another " + config_.kind +
                         " origin (a job list entry or a trace origin); rename one of them");
  }
  std::uint32_t shape = config_.shape;
  if (config_.mem_mib) {
    // Device memory (a model's weights): whole MiB, capped where no GPU comes near.
    PodShape drawn = context_.shapes.shapes[shape];
    drawn.demand.mem_mib = std::llround(std::clamp(config_.mem_mib->draw(mem_), 0.0, 1e12));
    shape = context_.shapes.intern(drawn);
    if (!context_.capacity_problem(shape, config_.pods).empty()) {
      context_.fail_capacity(shape, config_.pods, context_.scenario_file, config_.pointer + "/mem_mib");
    }
  }
  JobOrigin& entry = context_.origins[origin];
  entry.restart = config_.restart;
  const PhaseDemand& demand = context_.shapes.shapes[shape].demand;
  if (config_.kind == "inference") {
    ServiceConfig service;
    service.origin = name;
    service.seed = context_.seed;
    service.work = config_.request_work;
    service.active = demand;
    if (config_.request_rate_per_s) {
      // A rate of 0 would stall the stream (an exponential draw can be 0): at least one
      // request in about 32 years.
      const double rate = std::max(config_.request_rate_per_s->draw(rate_), 1e-9);
      service.arrivals = [rate](SimTime) { return std::make_unique<PoissonArrivals>(rate); };
    } else {
      service.arrivals = config_.request_arrivals;
    }
    entry.slo = config_.slo_s ? drawn_time(*config_.slo_s, slo_) : config_.slo;
    service.lifetime = config_.lifetime_s ? drawn_time(*config_.lifetime_s, lifetime_) : config_.lifetime;
    entry.behaviour = make_service_factory(std::move(service));
  } else {
    NotebookConfig notebook;
    notebook.origin = name;
    notebook.seed = context_.seed;
    notebook.active = config_.active;
    notebook.idle = config_.idle;
    notebook.session = config_.session_s ? drawn_time(*config_.session_s, session_) : config_.session;
    notebook.demand = demand;
    entry.behaviour = make_notebook_factory(std::move(notebook));
  }
  service_job_ = JobSpec{};
  service_job_.arrival = arrival;
  service_job_.shape = shape;
  service_job_.pods = config_.pods;
  service_job_.priority = config_.priority;
  service_job_.preempts = config_.preempts;
  service_job_.origin = origin;
  replicas_left_ = config_.replicas;
  ++services_;
}

}  // namespace sharesim
