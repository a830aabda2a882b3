#include "workloads/workload_builder.h"

#include <filesystem>
#include <set>

#include "sim/scenario/input_error.h"
#include "workloads/explicit_jobs.h"
#include "workloads/native_trace.h"
#include "workloads/poisson_generator.h"

namespace sharesim {
namespace {

SimTime duration_field(const nlohmann::json& object, const char* key, SimTime fallback) {
  const auto it = object.find(key);
  if (it == object.end()) return fallback;
  return parse_duration(it->get<std::string>()).value_or(fallback);  // the loader checked it parses
}

std::unique_ptr<JobSource> make_generator(const nlohmann::json& spec, std::size_t index, WorkloadContext& context,
                                          std::set<std::string>& names) {
  const std::string pointer = "/workload/generators/" + std::to_string(index);
  const std::string kind = spec.at("kind").get<std::string>();
  const std::string name = spec.value("name", "g" + std::to_string(index));
  if (!names.insert(name).second) {
    throw InputError(context.scenario_file, pointer + "/name",
                     "duplicate generator name \"" + name + "\" (names key the random streams; make them unique)");
  }
  PoissonGeneratorConfig config;
  config.rate_per_s = spec.at("arrival").at("rate_per_s").get<double>();
  if (spec.contains("count")) config.count = spec.at("count").get<std::uint64_t>();
  config.start = duration_field(spec, "start", 0);
  config.until = duration_field(spec, "until", kTimeNever);
  config.duration = DurationDistribution::from_json(spec.at("duration"), context.base_dir, context.scenario_file,
                                                    pointer + "/duration");
  const nlohmann::json request = spec.value("request", nlohmann::json::object());
  config.job_template.shape = context.shape_from_request(request, pointer + "/request");
  config.job_template.pods = spec.value("pods", 1u);
  config.job_template.priority = spec.value("priority", 0);
  config.job_template.origin = context.intern_origin(name, kind);
  // Named streams: arrivals and durations of this generator depend on its name only.
  return std::make_unique<PoissonGenerator>(std::move(config),
                                            RandomStream(context.seed, "generator/" + name + "/arrivals"),
                                            RandomStream(context.seed, "generator/" + name + "/durations"));
}

std::unique_ptr<JobSource> make_explicit_jobs(const nlohmann::json& jobs, WorkloadContext& context) {
  std::vector<JobSpec> specs;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const nlohmann::json& entry = jobs[i];
    const std::string pointer = "/workload/jobs/" + std::to_string(i);
    JobSpec job;
    job.arrival = duration_field(entry, "arrival", 0);
    job.work = duration_field(entry, "duration", 0);
    job.pods = entry.value("pods", 1u);
    job.priority = entry.value("priority", 0);
    job.origin = context.intern_origin(entry.at("name").get<std::string>(), entry.value("kind", "training"));
    job.shape = context.shape_from_request(entry.value("request", nlohmann::json::object()), pointer + "/request");
    const std::uint32_t replicas = entry.value("replicas", 1u);
    for (std::uint32_t r = 0; r < replicas; ++r) {
      job.sequence = r;
      specs.push_back(job);
    }
  }
  return std::make_unique<ExplicitJobs>(std::move(specs));
}

}  // namespace

std::vector<std::unique_ptr<JobSource>> build_job_sources(const nlohmann::json& workload, WorkloadContext& context) {
  std::vector<std::unique_ptr<JobSource>> sources;
  std::set<std::string> names;
  if (const auto it = workload.find("generators"); it != workload.end()) {
    for (std::size_t i = 0; i < it->size(); ++i) sources.push_back(make_generator((*it)[i], i, context, names));
  }
  if (const auto it = workload.find("jobs"); it != workload.end() && !it->empty()) {
    sources.push_back(make_explicit_jobs(*it, context));
  }
  if (const auto it = workload.find("trace"); it != workload.end()) {
    std::filesystem::path path = it->at("path").get<std::string>();
    if (path.is_relative()) path = std::filesystem::path(context.base_dir) / path;
    sources.push_back(std::make_unique<NativeTraceReader>(path.string(), context));
  }
  return sources;
}

}  // namespace sharesim
