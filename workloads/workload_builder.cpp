#include "workloads/workload_builder.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/input/json_reader.h"
#include "sim/cluster/gpu_catalog.h"
#include "workloads/arrival_scaling.h"
#include "workloads/behaviour_classes.h"
#include "workloads/diurnal_generator.h"
#include "workloads/explicit_jobs.h"
#include "workloads/gavel_trace.h"
#include "workloads/helios_trace.h"
#include "workloads/mmpp_generator.h"
#include "workloads/native_trace.h"
#include "workloads/openb_trace.h"
#include "workloads/pai_trace.h"
#include "workloads/philly_trace.h"
#include "workloads/poisson_generator.h"
#include "workloads/profiles/workload_profile.h"
#include "workloads/scaled_trace_source.h"
#include "workloads/service_generator.h"
#include "workloads/stream_generator.h"
#include "workloads/trace_import.h"

namespace sharesim {
namespace {

// Why a service with no end cannot run: no until, and no lifetime (`without_lifetime`), or one of
// 2^63 - 1 ns, the end of time, which never comes (it used to be told that it gave no lifetime).
std::string service_without_end(const nlohmann::json& spec, const std::string& without_lifetime) {
  if (!spec.contains("lifetime")) return without_lifetime;
  return "an inference service with \"lifetime\" " + spec["lifetime"].dump() +
         ", the end of simulated time, never ends, and the scenario's \"until\" is not set: give a shorter lifetime "
         "or an until";
}

SimTime duration_field(const nlohmann::json& object, const char* key, SimTime fallback) {
  const auto it = object.find(key);
  if (it == object.end()) return fallback;
  return parse_duration(it->get<std::string>()).value_or(fallback);  // the loader checked it parses
}

// A job no node could ever hold would wait forever (WorkloadContext::capacity_problem, on the
// run's cluster): an input error at its request, or at its "pods" when one pod fits and only
// the gang does not. `owner` is the pointer of the object holding "request" and "pods".
void check_capacity(WorkloadContext& context, std::uint32_t shape, std::uint32_t pods, const std::string& owner) {
  const std::string problem = context.capacity_problem(shape, pods);
  if (problem.empty()) return;
  const bool gang_only = pods > 1 && context.capacity_problem(shape, 1).empty();
  context.fail_capacity(shape, pods, context.scenario_file, owner + (gang_only ? "/pods" : "/request"));
}

std::unique_ptr<JobSource> make_trace(const nlohmann::json& spec, WorkloadContext& context,
                                      const std::string& pointer = "/workload/trace");

// A training or batch job that would never finish (WorkloadContext::progress_problem): an
// input error at the demand, as the active demand of a service or notebook is.
void check_progresses(const WorkloadContext& context, std::uint32_t shape, const std::string& kind,
                      const std::string& request_pointer) {
  const std::string problem = context.progress_problem(shape, kind);
  if (!problem.empty()) throw InputError(context.scenario_file, request_pointer + "/demand", problem);
}

// An arrival process with its rates multiplied by load_factor (arrival_scaling.h): the mean
// rate of a Poisson or diurnal process, every state's rate of an MMPP; periods, peaks and
// stays are kept.
std::unique_ptr<ArrivalProcess> make_arrivals(const nlohmann::json& arrival, SimTime start, double load_factor = 1) {
  const std::string process = arrival.at("process").get<std::string>();
  if (process == "diurnal") {
    return std::make_unique<DiurnalArrivals>(
        arrival.at("rate_per_s").get<double>() * load_factor, arrival.at("amplitude").get<double>(),
        time_to_seconds(duration_field(arrival, "period", kDay)), time_to_seconds(duration_field(arrival, "peak", 0)),
        time_to_seconds(start));
  }
  if (process == "mmpp") {
    std::vector<MmppState> states;
    for (const nlohmann::json& state : arrival.at("states")) {
      states.push_back(
          {state.at("rate_per_s").get<double>() * load_factor, time_to_seconds(duration_field(state, "mean_stay", 0))});
    }
    return std::make_unique<MmppArrivals>(std::move(states));
  }
  return std::make_unique<PoissonArrivals>(arrival.at("rate_per_s").get<double>() * load_factor);
}

// `restart` and `checkpoint_interval` of a job list entry or a generator: its origins'
// RestartSpec (docs/scenario.md "Checkpoints and restarts").
RestartSpec read_restart(const nlohmann::json& spec, const std::string& pointer, const std::string& kind,
                         const WorkloadContext& context) {
  RestartSpec restart;
  if (const auto it = spec.find("checkpoint_interval"); it != spec.end()) {
    if (kind != "training") {
      throw InputError(context.scenario_file, pointer + "/checkpoint_interval",
                       "\"checkpoint_interval\" applies to kind \"training\", not to \"" + kind +
                           "\" (batch jobs keep no checkpoints: a restart loses all their work)");
    }
    restart.checkpoint_interval = duration_field(spec, "checkpoint_interval", 0);
    if (restart.checkpoint_interval <= 0) {
      throw InputError(context.scenario_file, pointer + "/checkpoint_interval",
                       "expected a checkpoint interval > 0, found \"" + it->get<std::string>() + "\"");
    }
  }
  if (const auto it = spec.find("restart"); it != spec.end()) {
    restart.on_failure = it->at("policy").get<std::string>() == "OnFailure";
    restart.backoff = duration_field(*it, "backoff", restart.backoff);
    restart.max_backoff = duration_field(*it, "max_backoff", restart.max_backoff);
    restart.max_restarts = it->value("max_restarts", restart.max_restarts);
    if (!restart.on_failure) {
      for (const char* key : {"backoff", "max_backoff", "max_restarts"}) {
        if (it->contains(key)) {
          throw InputError(context.scenario_file, pointer + "/restart/" + key,
                           std::string("\"") + key + "\" applies to policy \"OnFailure\", not to \"Never\"");
        }
      }
    }
    if (restart.max_backoff < restart.backoff) {
      const bool written = it->contains("max_backoff");
      throw InputError(context.scenario_file, pointer + "/restart/" + (written ? "max_backoff" : "backoff"),
                       "expected backoff <= max_backoff (" + format_duration(restart.max_backoff) +
                           (written ? "" : ", its default") + "), found backoff " + format_duration(restart.backoff));
    }
  }
  return restart;
}

// The behaviour of a job list entry of kind inference or notebook, on its origin.
void read_behaviour(const nlohmann::json& entry, const std::string& pointer, const std::string& kind,
                    std::uint32_t origin, std::uint32_t shape, WorkloadContext& context) {
  const PhaseDemand active = context.shapes.shapes[shape].demand;
  if (kind == "inference") {
    const nlohmann::json& requests = entry.at("requests");
    ServiceConfig config;
    config.origin = context.origins[origin].name;
    config.seed = context.seed;
    if (requests.contains("work")) {
      config.work = DurationDistribution::from_json(requests.at("work"), context.base_dir, context.scenario_file,
                                                    pointer + "/requests/work");
    } else {
      // Without "work", the request's published profile gives it: the measured time of one
      // request at batch 1, every request the same (docs/profiles.md "Inference profiles").
      const WorkloadProfile* profile = builtin_profile(active.profile);
      if (profile == nullptr || !profile->published()) {
        throw InputError(context.scenario_file, pointer + "/requests",
                         std::string("expected \"work\" (the standalone GPU work of one request), found none; it may "
                                     "be left out only when request.profile names a profile with published serving "
                                     "measurements (sharesim profiles list), ") +
                             (profile == nullptr ? "and this request names no profile"
                                                 : "and " + quote(profile->name) + " has none"));
      }
      config.work = DurationDistribution::from_json({{"dist", "constant"}, {"mean_s", profile->serving->request_s}},
                                                    context.base_dir, context.scenario_file, pointer + "/requests");
    }
    config.lifetime = duration_field(entry, "lifetime", kTimeNever);
    if (config.lifetime == kTimeNever && context.until == kTimeNever) {
      throw InputError(context.scenario_file, pointer,
                       service_without_end(entry,
                                           "an inference service without \"lifetime\" runs until the scenario's "
                                           "\"until\", which is not set: give one of them"));
    }
    config.active = active;
    const nlohmann::json arrival = requests.at("arrival");
    config.arrivals = [arrival](SimTime start) { return make_arrivals(arrival, start); };
    context.origins[origin].slo = duration_field(requests, "slo", 0);
    context.origins[origin].behaviour = make_service_factory(std::move(config));
  } else if (kind == "notebook") {
    NotebookConfig config;
    config.origin = context.origins[origin].name;
    config.seed = context.seed;
    config.active = DurationDistribution::from_json(entry.at("active"), context.base_dir, context.scenario_file,
                                                    pointer + "/active");
    config.idle =
        DurationDistribution::from_json(entry.at("idle"), context.base_dir, context.scenario_file, pointer + "/idle");
    config.session = duration_field(entry, "session", 0);
    if (config.session <= 0) {
      throw InputError(context.scenario_file, pointer + "/session",
                       "expected a session > 0, found \"" + entry.at("session").get<std::string>() + "\"");
    }
    config.demand = active;
    context.origins[origin].behaviour = make_notebook_factory(std::move(config));
  } else {
    return;
  }
  if (active.sm <= 0 && active.bw <= 0) {
    throw InputError(context.scenario_file, pointer + "/request/demand",
                     "a " + kind + "'s demand is its active phase's: expected sm > 0 or bw > 0, found both 0");
  }
}

// Exactly one of two keys: a fixed value (`fixed`) or its law drawn per service (`drawn`).
// Returns whether the drawn one is given; throws when both are, or neither while required.
bool drawn_or_fixed(const nlohmann::json& object, const std::string& pointer, const char* fixed, const char* drawn,
                    bool required, const std::string& kind, const WorkloadContext& context) {
  const bool has_fixed = object.contains(fixed);
  const bool has_drawn = object.contains(drawn);
  const std::string each = kind == "notebook" ? "notebook" : "service";
  if (has_fixed && has_drawn) {
    throw InputError(context.scenario_file, pointer + "/" + drawn,
                     std::string("give \"") + fixed + "\" (the same for every " + each + ") or \"" + drawn +
                         "\" (drawn per " + each + "), not both");
  }
  if (required && !has_fixed && !has_drawn) {
    throw InputError(
        context.scenario_file, pointer,
        std::string("missing required key \"") + fixed + "\" (or \"" + drawn + "\", drawn per " + each + ")");
  }
  return has_drawn;
}

std::optional<ParameterDistribution> parameter_law(const nlohmann::json& object, const std::string& pointer,
                                                   const char* key, const WorkloadContext& context) {
  if (!object.contains(key)) return std::nullopt;
  return ParameterDistribution::from_json(object.at(key), context.scenario_file, pointer + "/" + key);
}

// A generator of kind inference or notebook (service_generator.h): the keys of the job list's
// entries of that kind, some of them drawn per service.
std::unique_ptr<JobSource> make_service_generator(const nlohmann::json& spec, const std::string& pointer,
                                                  const std::string& name, const std::string& kind,
                                                  const ArrivalScaling& scaling, WorkloadContext& context) {
  ServiceGeneratorConfig config;
  config.name = name;
  config.kind = kind;
  config.pointer = pointer;
  if (spec.contains("count")) config.count = spec.at("count").get<std::uint64_t>();
  config.start = duration_field(spec, "start", 0);
  config.until = duration_field(spec, "until", kTimeNever);
  config.time_scale = scaling.time_scale;
  config.arrivals = make_arrivals(spec.at("arrival"), config.start, scaling.load_factor);
  config.replicas = spec.value("replicas", 1u);
  config.pods = spec.value("pods", 1u);
  const PriorityClassSpec priority = context.priority_of(spec);
  config.priority = priority.value;
  config.preempts = priority.preempts;
  config.shape = context.shape_from_request(spec.value("request", nlohmann::json::object()), pointer + "/request");
  check_capacity(context, config.shape, config.pods, pointer);
  config.restart = read_restart(spec, pointer, kind, context);
  config.mem_mib = parameter_law(spec, pointer, "mem_mib", context);
  const PhaseDemand& active = context.shapes.shapes[config.shape].demand;
  if (active.sm <= 0 && active.bw <= 0) {
    throw InputError(context.scenario_file, pointer + "/request/demand",
                     "a " + kind + "'s demand is its active phase's: expected sm > 0 or bw > 0, found both 0");
  }
  if (kind == "inference") {
    const nlohmann::json& requests = spec.at("requests");
    const std::string requests_pointer = pointer + "/requests";
    if (drawn_or_fixed(requests, requests_pointer, "arrival", "rate_per_s", true, kind, context)) {
      config.request_rate_per_s = parameter_law(requests, requests_pointer, "rate_per_s", context);
    } else {
      const nlohmann::json arrival = requests.at("arrival");
      config.request_arrivals = [arrival](SimTime start) { return make_arrivals(arrival, start); };
    }
    config.request_work = DurationDistribution::from_json(requests.at("work"), context.base_dir, context.scenario_file,
                                                          requests_pointer + "/work");
    if (drawn_or_fixed(requests, requests_pointer, "slo", "slo_s", false, kind, context)) {
      config.slo_s = parameter_law(requests, requests_pointer, "slo_s", context);
    } else {
      config.slo = duration_field(requests, "slo", 0);
    }
    if (drawn_or_fixed(spec, pointer, "lifetime", "lifetime_s", false, kind, context)) {
      config.lifetime_s = parameter_law(spec, pointer, "lifetime_s", context);
    } else {
      config.lifetime = duration_field(spec, "lifetime", kTimeNever);
      if (config.lifetime == kTimeNever && context.until == kTimeNever) {
        throw InputError(
            context.scenario_file, pointer,
            service_without_end(spec,
                                "inference services without \"lifetime\" (or \"lifetime_s\") run until the "
                                "scenario's \"until\", which is not set: give one of them"));
      }
    }
  } else {
    config.active = DurationDistribution::from_json(spec.at("active"), context.base_dir, context.scenario_file,
                                                    pointer + "/active");
    config.idle =
        DurationDistribution::from_json(spec.at("idle"), context.base_dir, context.scenario_file, pointer + "/idle");
    if (drawn_or_fixed(spec, pointer, "session", "session_s", true, kind, context)) {
      config.session_s = parameter_law(spec, pointer, "session_s", context);
    } else {
      config.session = duration_field(spec, "session", 0);
      if (config.session <= 0) {
        throw InputError(context.scenario_file, pointer + "/session",
                         "expected a session > 0, found \"" + spec.at("session").get<std::string>() + "\"");
      }
    }
  }
  return std::make_unique<ServiceGenerator>(std::move(config), context);
}

std::unique_ptr<JobSource> make_generator(const nlohmann::json& spec, std::size_t index, WorkloadContext& context,
                                          std::set<std::string>& names, const ArrivalScaling& workload_scaling) {
  const std::string pointer = "/workload/generators/" + std::to_string(index);
  const std::string kind = spec.at("kind").get<std::string>();
  const std::string name = generator_name(spec, index);
  if (!names.insert(name).second) {
    throw InputError(context.scenario_file, pointer + "/name",
                     "duplicate generator name \"" + name + "\" (names key the random streams; make them unique)");
  }
  const ArrivalScaling scaling = read_arrival_scaling(spec, pointer, workload_scaling, context.scenario_file);
  if (kind == "inference" || kind == "notebook") {
    return make_service_generator(spec, pointer, name, kind, scaling, context);
  }
  // What a job looks like comes from exactly one place: the generator's own request, a mix of
  // classes, or a trace to resample (which also gives the run times).
  const bool resample = spec.contains("resample");
  for (const char* key : {"duration", "request", "pods", "priority", "priority_class", "mix"}) {
    if (resample && spec.contains(key)) {
      throw InputError(context.scenario_file, pointer + "/" + key,
                       std::string("\"") + key + "\" cannot be combined with \"resample\", whose trace gives each job");
    }
  }
  if (!resample && !spec.contains("duration")) {
    throw InputError(context.scenario_file, pointer, "missing required key \"duration\" (needed unless \"resample\")");
  }
  if (spec.contains("mix")) {
    for (const char* key : {"request", "pods", "priority", "priority_class"}) {
      if (spec.contains(key)) {
        throw InputError(context.scenario_file, pointer + "/" + key,
                         std::string("\"") + key + "\" cannot be combined with \"mix\"; give it in each mix entry");
      }
    }
  }
  const std::optional<std::uint64_t> count =
      spec.contains("count") ? std::optional(spec.at("count").get<std::uint64_t>()) : std::nullopt;
  const SimTime start = duration_field(spec, "start", 0);
  const SimTime until = duration_field(spec, "until", kTimeNever);
  const std::uint32_t origin = context.intern_origin(name, kind);
  context.origins[origin].restart = read_restart(spec, pointer, kind, context);
  RandomStream arrivals(context.seed, "generator/" + name + "/arrivals");
  RandomStream durations(context.seed, "generator/" + name + "/durations");
  const std::string process = spec.at("arrival").at("process").get<std::string>();
  if (process == "poisson" && !resample && !spec.contains("mix")) {
    PoissonGeneratorConfig config;
    config.rate_per_s = spec.at("arrival").at("rate_per_s").get<double>() * scaling.load_factor;
    config.count = count;
    config.start = start;
    config.until = until;
    config.time_scale = scaling.time_scale;
    config.duration = DurationDistribution::from_json(spec.at("duration"), context.base_dir, context.scenario_file,
                                                      pointer + "/duration");
    const nlohmann::json request = spec.value("request", nlohmann::json::object());
    config.job_template.shape = context.shape_from_request(request, pointer + "/request");
    check_progresses(context, config.job_template.shape, kind, pointer + "/request");
    config.job_template.pods = spec.value("pods", 1u);
    check_capacity(context, config.job_template.shape, config.job_template.pods, pointer);
    const PriorityClassSpec priority = context.priority_of(spec);
    config.job_template.priority = priority.value;
    config.job_template.preempts = priority.preempts;
    config.job_template.origin = origin;
    // Named streams: arrivals and durations of this generator depend on its name only.
    return std::make_unique<PoissonGenerator>(std::move(config), arrivals, durations);
  }
  StreamGeneratorConfig config;
  config.count = count;
  config.start = start;
  config.until = until;
  config.time_scale = scaling.time_scale;
  config.arrivals = make_arrivals(spec.at("arrival"), start, scaling.load_factor);
  config.job_template.origin = origin;
  if (resample) {
    // Read with a context of its own, so the trace's origin does not join the run's table;
    // the shapes are then interned into the run's.
    ShapeTable trace_shapes;
    std::vector<JobOrigin> trace_origins;
    WorkloadContext trace_context(trace_shapes, trace_origins, context.resource_names, context.catalog,
                                  context.per_device_rules, context.scenario_file, context.base_dir, context.seed);
    trace_context.capacity_check = context.capacity_check;
    std::vector<std::string> notes;  // given when the generator is first read, not now
    trace_context.report = [&notes](const std::string& text) { notes.push_back(text); };
    for (const char* key : {"time_scale", "load_factor"}) {
      if (spec.at("resample").contains(key)) {
        throw InputError(context.scenario_file, pointer + "/resample/" + key,
                         std::string("\"") + key +
                             "\" scales a trace's arrivals, which resampling does not use (the jobs arrive on the "
                             "generator's arrival process): give it on the generator instead");
      }
    }
    const std::unique_ptr<JobSource> trace = make_trace(spec.at("resample"), trace_context, pointer + "/resample");
    config.samples = read_job_samples(*trace);
    if (!notes.empty()) {
      config.on_first_read = [&context, notes] {
        for (const std::string& note : notes) context.note(note);
      };
    }
    if (config.samples.empty()) {
      throw InputError(context.scenario_file, pointer + "/resample/path", "expected a trace with jobs, found none");
    }
    for (JobSample& sample : config.samples) {
      const PodShape& shape = trace_shapes.shapes[sample.shape];
      PodShape copy = shape;
      sample.shape = context.shapes.intern(copy);
    }
  } else {
    config.duration = DurationDistribution::from_json(spec.at("duration"), context.base_dir, context.scenario_file,
                                                      pointer + "/duration");
    if (spec.contains("mix")) {
      const nlohmann::json& mix = spec.at("mix");
      for (std::size_t i = 0; i < mix.size(); ++i) {
        const std::string entry_pointer = pointer + "/mix/" + std::to_string(i);
        MixEntry entry;
        entry.weight = mix[i].at("weight").get<double>();
        entry.shape =
            context.shape_from_request(mix[i].value("request", nlohmann::json::object()), entry_pointer + "/request");
        check_progresses(context, entry.shape, kind, entry_pointer + "/request");
        entry.pods = mix[i].value("pods", 1u);
        const PriorityClassSpec priority = context.priority_of(mix[i]);
        entry.priority = priority.value;
        entry.preempts = priority.preempts;
        if (mix[i].contains("duration")) {
          entry.duration = DurationDistribution::from_json(mix[i].at("duration"), context.base_dir,
                                                           context.scenario_file, entry_pointer + "/duration");
        }
        check_capacity(context, entry.shape, entry.pods, entry_pointer);
        config.mix.push_back(std::move(entry));
      }
    } else {
      config.job_template.shape =
          context.shape_from_request(spec.value("request", nlohmann::json::object()), pointer + "/request");
      check_progresses(context, config.job_template.shape, kind, pointer + "/request");
      config.job_template.pods = spec.value("pods", 1u);
      check_capacity(context, config.job_template.shape, config.job_template.pods, pointer);
      const PriorityClassSpec priority = context.priority_of(spec);
      config.job_template.priority = priority.value;
      config.job_template.preempts = priority.preempts;
    }
  }
  return std::make_unique<StreamGenerator>(std::move(config), arrivals, durations,
                                           RandomStream(context.seed, "generator/" + name + "/classes"));
}

std::unique_ptr<JobSource> make_explicit_jobs(const nlohmann::json& jobs, WorkloadContext& context) {
  std::vector<JobSpec> specs;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const nlohmann::json& entry = jobs[i];
    const std::string pointer = "/workload/jobs/" + std::to_string(i);
    JobSpec job;
    const std::string kind = entry.value("kind", "training");
    job.arrival = duration_field(entry, "arrival", 0);
    job.work = duration_field(entry, "duration", 0);  // services and notebooks: none (0)
    job.pods = entry.value("pods", 1u);
    const PriorityClassSpec priority = context.priority_of(entry);
    job.priority = priority.value;
    job.preempts = priority.preempts;
    job.origin = context.intern_origin(entry.at("name").get<std::string>(), kind);
    job.shape = context.shape_from_request(entry.value("request", nlohmann::json::object()), pointer + "/request");
    if (kind == "training" || kind == "batch") check_progresses(context, job.shape, kind, pointer + "/request");
    check_capacity(context, job.shape, job.pods, pointer);
    context.origins[job.origin].restart = read_restart(entry, pointer, kind, context);
    read_behaviour(entry, pointer, kind, job.origin, job.shape, context);
    const std::uint32_t replicas = entry.value("replicas", 1u);
    for (std::uint32_t r = 0; r < replicas; ++r) {
      job.sequence = r;
      specs.push_back(job);
    }
  }
  return std::make_unique<ExplicitJobs>(std::move(specs));
}

std::string resolve(const std::string& file, const WorkloadContext& context) {
  std::filesystem::path path = file;
  if (path.is_relative()) path = std::filesystem::path(context.base_dir) / path;
  return path.string();
}

// The workload's trace, its arrivals moved by load scaling when asked (scaled_trace_source.h).
std::unique_ptr<JobSource> make_scaled_trace(const nlohmann::json& spec, WorkloadContext& context,
                                             const ArrivalScaling& workload_scaling) {
  const std::string pointer = "/workload/trace";
  const ArrivalScaling scaling = read_arrival_scaling(spec, pointer, workload_scaling, context.scenario_file);
  std::unique_ptr<JobSource> trace = make_trace(spec, context, pointer);
  if (scaling.trace_factor() == 1.0L) return trace;
  return std::make_unique<ScaledTraceSource>(std::move(trace), scaling.trace_factor());
}

std::unique_ptr<JobSource> make_trace(const nlohmann::json& spec, WorkloadContext& context,
                                      const std::string& pointer) {
  const std::string format = spec.value("format", "native");
  const std::string path = resolve(spec.at("path").get<std::string>(), context);
  // Keys that belong to other formats are mistakes, not options to ignore.
  static const std::map<std::string, std::set<std::string>> kOnly{
      {"name", {"openb", "pai", "philly", "helios", "gavel"}},
      {"kind", {"openb", "pai", "philly", "helios", "gavel"}},
      {"skip_bad_rows", {"openb", "pai", "philly", "helios", "gavel"}},
      {"sort", {"openb", "pai", "philly", "helios", "gavel"}},
      {"gpu_product", {"openb", "pai", "philly", "helios", "gavel"}},
      {"gpu_models", {"openb"}},
      {"end", {"openb"}},
      {"throughputs", {"gavel"}},
      {"worker_type", {"gavel"}}};
  for (const auto& [key, formats] : kOnly) {
    if (spec.contains(key) && !formats.contains(format)) {
      std::string list;
      for (const std::string& f : formats) list += (list.empty() ? "\"" : ", \"") + f + "\"";
      throw InputError(context.scenario_file, pointer + "/" + key,
                       "\"" + key + "\" applies to the trace formats " + list + ", not to \"" + format + "\"");
    }
  }
  if (format == "native") return std::make_unique<NativeTraceReader>(path, context);
  TraceImportOptions options;
  options.origin = spec.value("name", format);
  if (context.entry_names.count(options.origin) > 0) {
    throw InputError(context.scenario_file, spec.contains("name") ? pointer + "/name" : pointer,
                     "expected a trace name other than the generators' and jobs' (the trace's jobs are named " +
                         options.origin + "-0, " + options.origin + "-1, ... as theirs are), found " +
                         quote(options.origin) + (spec.contains("name") ? "" : ", the format's name: give \"name\""));
  }
  options.kind = spec.value("kind", "training");
  options.skip_bad_rows = spec.value("skip_bad_rows", false);
  options.sort = spec.value("sort", false);
  if (spec.contains("gpu_product")) {
    const std::string id = spec.at("gpu_product").get<std::string>();
    if (context.catalog.find(id) == nullptr) {
      throw InputError(context.scenario_file, pointer + "/gpu_product", unknown_gpu_model_problem(id, context.catalog));
    }
    options.gpu_product = id;
  }
  std::unique_ptr<TraceRowReader> reader;
  if (format == "openb") {
    const OpenbModelTable models =
        openb_model_table(spec.value("gpu_models", nlohmann::json::object()), context.scenario_file, pointer + "/gpu_models");
    for (const auto& [code, id] : models) {
      if (context.catalog.find(id) == nullptr) {
        throw InputError(context.scenario_file, pointer + "/gpu_models/" + code,
                         unknown_gpu_model_problem(id, context.catalog));
      }
    }
    std::optional<SimTime> end;
    if (spec.contains("end")) end = duration_field(spec, "end", 0);
    reader = std::make_unique<OpenbTraceReader>(path, models, end);
  } else if (format == "pai") {
    reader = std::make_unique<PaiTraceReader>(path);
  } else if (format == "philly") {
    reader = std::make_unique<PhillyTraceReader>(path);
  } else if (format == "helios") {
    reader = std::make_unique<HeliosTraceReader>(path);
  } else if (format == "gavel") {
    const std::string worker = spec.value("worker_type", "v100");
    const std::string throughputs = resolve(spec.at("throughputs").get<std::string>(), context);
    // A missing table is named with the key that points to it, not only by its path.
    if (const std::string problem = regular_file_problem(throughputs); !problem.empty()) {
      throw InputError(context.scenario_file, pointer + "/throughputs",
                       "cannot read the throughputs file \"" + throughputs + "\": " + problem);
    }
    reader = std::make_unique<GavelTraceReader>(path, read_gavel_throughputs(throughputs, worker), worker);
  } else {
    throw InputError(context.scenario_file, pointer + "/format", "unknown trace format \"" + format + "\"");
  }
  return std::make_unique<ImportedTraceSource>(std::move(reader), std::move(options), context);
}

// A service generator names its origins "<name>-<k>" as services arrive; an origin known now
// (a generator, a job list entry) with such a name would later merge with one of them.
void check_service_names(const nlohmann::json& workload, const WorkloadContext& context) {
  const auto generators = workload.find("generators");
  if (generators == workload.end()) return;
  for (std::size_t i = 0; i < generators->size(); ++i) {
    const nlohmann::json& spec = (*generators)[i];
    const std::string kind = spec.at("kind").get<std::string>();
    if (kind != "inference" && kind != "notebook") continue;
    const std::string prefix = generator_name(spec, i) + "-";
    for (const JobOrigin& origin : context.origins) {
      const std::string_view name = origin.name;
      if (origin.kind != kind || !name.starts_with(prefix) || name.size() == prefix.size()) continue;
      const std::string_view rest = name.substr(prefix.size());
      if (std::all_of(rest.begin(), rest.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        throw InputError(context.scenario_file, "/workload/generators/" + std::to_string(i) + "/name",
                         "this generator names its services " + prefix + "0, " + prefix + "1, ..., and " +
                             quote(origin.name) + " is already an origin of kind " + quote(kind) +
                             "; rename one of them");
      }
    }
  }
}

}  // namespace

std::vector<std::unique_ptr<JobSource>> build_job_sources(const nlohmann::json& workload, WorkloadContext& context) {
  std::vector<std::unique_ptr<JobSource>> sources;
  std::set<std::string> names;
  const ArrivalScaling scaling = read_arrival_scaling(workload, "/workload", ArrivalScaling{}, context.scenario_file);
  if (const auto it = workload.find("generators"); it != workload.end()) {
    for (std::size_t i = 0; i < it->size(); ++i) {
      sources.push_back(make_generator((*it)[i], i, context, names, scaling));
    }
  }
  if (const auto it = workload.find("jobs"); it != workload.end() && !it->empty()) {
    sources.push_back(make_explicit_jobs(*it, context));
  }
  if (const auto it = workload.find("trace"); it != workload.end()) {
    // Generators and job list entries name their jobs "<name>-<n>" from 0, as a trace's origin
    // does: a trace origin of one of their names would repeat job names.
    context.entry_names = names;
    if (const auto jobs = workload.find("jobs"); jobs != workload.end()) {
      for (const nlohmann::json& job : *jobs) context.entry_names.insert(job.at("name").get<std::string>());
    }
    sources.push_back(make_scaled_trace(*it, context, scaling));
  }
  check_service_names(workload, context);
  return sources;
}

}  // namespace sharesim
