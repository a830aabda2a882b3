#pragma once
// Generators of kind inference and notebook (docs/scenario.md "Service and notebook
// generators"): services (or notebooks) arriving by the generator's arrival process until its
// count or until, each with parameters drawn from distributions: request rate, SLO, lifetime
// or session, device memory. Each service is an origin of its own, "<generator>-<k>" (k from 0
// in arrival order), with `replicas` jobs "<generator>-<k>-<r>": the SLO, the request
// statistics and compare's verdict are per origin, so a service that draws its own SLO needs
// its own origin.
//
// Random streams, all named after the generator: "generator/<name>/arrivals" (when services
// arrive) and one per drawn parameter, "generator/<name>/rate", ".../slo", ".../lifetime",
// ".../session", ".../mem" (one draw per service, in service order), so changing one law never
// moves another's draws. The requests and cells of each job draw from the behaviour classes'
// streams, named after the job (behaviour_classes.h).
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "sim/runtime/job_source.h"
#include "workloads/arrival_process.h"
#include "workloads/duration_distribution.h"
#include "workloads/parameter_distribution.h"
#include "workloads/workload_context.h"

namespace sharesim {

struct ServiceGeneratorConfig {
  std::string name;     // the generator's; its services are "<name>-<k>"
  std::string kind;     // "inference" or "notebook"
  std::string pointer;  // the generator's JSON pointer, for errors found while streaming
  std::optional<std::uint64_t> count;
  SimTime start = 0;
  SimTime until = kTimeNever;
  double time_scale = 1;                     // load scaling of the service arrivals (arrival_scaling.h)
  std::unique_ptr<ArrivalProcess> arrivals;  // when services arrive, seconds since start
  std::uint32_t replicas = 1;
  std::uint32_t pods = 1;
  std::int32_t priority = 0;
  bool preempts = true;  // its priority class's preemptionPolicy (false: Never)
  std::uint32_t shape = 0;  // of the request; a drawn mem_mib replaces its demand's memory
  RestartSpec restart;
  std::optional<ParameterDistribution> mem_mib;

  // inference: the request stream of each pod, either the same process for every service or
  // Poisson at a rate drawn per service.
  std::function<std::unique_ptr<ArrivalProcess>(SimTime start)> request_arrivals;
  std::optional<ParameterDistribution> request_rate_per_s;
  DurationDistribution request_work;
  SimTime slo = 0;  // 0 = none
  std::optional<ParameterDistribution> slo_s;
  SimTime lifetime = kTimeNever;
  std::optional<ParameterDistribution> lifetime_s;

  // notebook
  DurationDistribution active;
  DurationDistribution idle;
  SimTime session = 0;
  std::optional<ParameterDistribution> session_s;
};

class ServiceGenerator final : public JobSource {
 public:
  // `context` must outlive the generator: services join its origin and shape tables as they
  // arrive.
  ServiceGenerator(ServiceGeneratorConfig config, WorkloadContext& context);
  bool next(JobSpec& out) override;
  std::size_t expected_jobs() const override {
    return config_.count ? static_cast<std::size_t>(*config_.count * config_.replicas) : 0;
  }

 private:
  // Draws the next service's parameters and adds its origin; its jobs arrive at `arrival`.
  void begin_service(SimTime arrival);

  ServiceGeneratorConfig config_;
  WorkloadContext& context_;
  RandomStream arrivals_, rate_, slo_, lifetime_, session_, mem_;
  std::uint64_t services_ = 0;
  JobSpec service_job_;  // the current service's job, sequence aside
  std::uint32_t replicas_left_ = 0;
};

}  // namespace sharesim
