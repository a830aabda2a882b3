#include "sim/scenario/scenario_semantics.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>

#include "sim/core/checked_conversion.h"
#include "sim/core/sim_time.h"
#include "sim/input/did_you_mean.h"
#include "sim/input/error_text.h"
#include "sim/input/json_pointer.h"
#include "sim/input/json_reader.h"
#include "sim/scenario/default_sharing.h"
#include "sim/scenario/scenario.h"

namespace sharesim {
namespace {

using Json = nlohmann::ordered_json;

// What a node of one pool offers; enough to decide whether a pod could ever be placed.
struct PoolCapacity {
  std::string gpu;
  std::int64_t nodes = 0;
  std::int64_t gpus = 0;
  std::int64_t cpu_milli = 0;
  std::int64_t memory_mib = 0;
};

std::int64_t integer_or(const Json& object, const char* key, std::int64_t fallback) {
  return object.contains(key) ? object[key].get<std::int64_t>() : fallback;
}

class SemanticChecker {
 public:
  SemanticChecker(const Json& document, const GpuCatalog& catalog, const std::string& base_dir)
      : document_(document), catalog_(catalog), base_dir_(base_dir) {}

  std::vector<ScenarioIssue> run(const std::vector<DefinitionUse>& uses) {
    check_durations(uses);
    check_arrivals(uses);
    check_node_pools();
    check_scheduler();
    check_workload();
    check_metrics_window();
    return std::move(issues_);
  }

 private:
  void report(std::string pointer, std::string problem) { issues_.push_back({std::move(pointer), std::move(problem)}); }
  void report_capacity(std::string pointer, std::string problem) {
    issues_.push_back({std::move(pointer), std::move(problem), true});
  }

  // The schema's pattern admits any digits; only parsing finds values past int64 ns.
  void check_durations(const std::vector<DefinitionUse>& uses) {
    for (const DefinitionUse& use : uses) {
      if (use.definition != "duration") continue;
      const std::string& text =
          document_.at(nlohmann::ordered_json::json_pointer(use.pointer)).get_ref<const std::string&>();
      const std::optional<SimTime> value = parse_duration(text);
      if (!value) {
        report(use.pointer,
               "duration " + quote(text) + " is too long: simulated time ends after about 292 years (2^63 ns)");
      } else if (*value == 0 && use.pointer.ends_with("/requests/slo")) {
        // A latency objective of 0 read as "no objective" (the runtime's switch): the SLO asked
        // for vanished from services.csv and the verdict without a word.
        report(use.pointer, "expected a latency objective > 0 (leave slo out for none), found " + quote(text));
      }
    }
    // The run's horizon is kept as a time, kTimeNever (2^63 - 1 ns) standing for "no until"
    // (Scenario::until, the simulator, the workload's service lifetimes): an until of exactly that
    // much would be read as none, running on until all work is done.
    if (document_.contains("until")) {
      const std::optional<SimTime> until = parse_duration(document_["until"].get<std::string>());
      if (until && *until == kTimeNever) {
        report("/until", "expected a time of at most " + std::to_string(kTimeNever - 1) +
                             "ns (2^63 - 1 ns stands for \"no until\"; leave \"until\" out to run until all work "
                             "is done), found " +
                             describe_value(document_["until"]));
      }
    }
    // Durations that must be > 0: a sampling interval of 0 never advances; a fault mean of 0
    // read as "no faults" (the runtime's switch), silently turning off what the user asked for.
    for (const char* pointer : {"/output/timeseries_interval", "/faults/mtbf"}) {
      const Json::json_pointer where(pointer);
      if (!document_.contains(where)) continue;
      const std::optional<SimTime> value = parse_duration(document_.at(where).get<std::string>());
      if (value && *value == 0)
        report(where.to_string(), "expected a duration > 0, found " + describe_value(document_.at(where)));
    }
  }

  // A generator draws arrivals until its count or its `until`: an arrival process that can
  // stall would never return. MMPP stalls when no state has arrivals, or when a state is left
  // the instant it is entered (the switching never advances the clock); a diurnal process of
  // period 0 has a rate of cos(x / 0), undefined everywhere, and thinning never keeps a candidate.
  void check_arrivals(const std::vector<DefinitionUse>& uses) {
    for (const DefinitionUse& use : uses) {
      if (use.definition != "arrival") continue;
      const Json& arrival = document_.at(Json::json_pointer(use.pointer));
      if (arrival.value("process", "") == "diurnal" && arrival.contains("period") &&
          parse_duration(arrival["period"].get<std::string>()) == SimTime{0}) {
        report(use.pointer + "/period",
               "expected a duration > 0 (the rate of a diurnal process of period 0 is undefined: no arrival would "
               "ever be drawn), found " +
                   describe_value(arrival["period"]));
      }
      if (arrival.value("process", "") != "mmpp" || !arrival.contains("states")) continue;
      const Json& states = arrival["states"];
      bool any_arrivals = false;
      for (std::size_t s = 0; s < states.size(); ++s) {
        const Json& state = states[s];
        if (state.contains("rate_per_s") && state["rate_per_s"].get<double>() > 0) any_arrivals = true;
        const std::optional<SimTime> stay =
            state.contains("mean_stay") ? parse_duration(state["mean_stay"].get<std::string>()) : std::nullopt;
        if (stay && *stay == 0) {
          report(pointer_append(use.pointer + "/states", s) + "/mean_stay",
                 "expected a duration > 0 (a state left the instant it is entered switches forever), found " +
                     describe_value(state["mean_stay"]));
        }
      }
      if (!any_arrivals) {
        report(use.pointer + "/states",
               "expected at least one state with rate_per_s > 0, found every rate 0 (no job would ever arrive)");
      }
    }
  }

  // The window must be a span of the run: start before end, both within `until`; its start
  // is a time or a job count, not both.
  void check_metrics_window() {
    if (!document_.contains("metrics_window")) return;
    const Json& window = document_["metrics_window"];
    const auto time_of = [&](const Json& object, const char* key) -> std::optional<SimTime> {
      return object.contains(key) ? parse_duration(object[key].get<std::string>()) : std::nullopt;
    };
    const std::optional<SimTime> start = time_of(window, "start");
    const std::optional<SimTime> end = time_of(window, "end");
    const std::optional<SimTime> until = time_of(document_, "until");
    if (window.contains("start") && window.contains("warmup_jobs")) {
      report("/metrics_window/warmup_jobs",
             "give the window's start either as a time (\"start\") or as a number of jobs (\"warmup_jobs\"), not "
             "both");
    }
    if (start && end && *end <= *start) {
      report("/metrics_window/end", "expected an end later than the window's start (" +
                                        window["start"].get<std::string>() + "), found " +
                                        describe_value(window["end"]));
    }
    if (until && start && *start >= *until) {
      report("/metrics_window/start", "expected a start before \"until\" (" + document_["until"].get<std::string>() +
                                          ", where the run stops), found " + describe_value(window["start"]));
    }
    if (until && end && *end > *until) {
      report("/metrics_window/end", "expected an end no later than \"until\" (" +
                                        document_["until"].get<std::string>() + ", where the run stops), found " +
                                        describe_value(window["end"]));
    }
  }

  void check_node_pools() {
    const Json& pools = document_["cluster"]["node_pools"];
    std::map<std::string, std::string> pool_by_name;  // name -> pointer of its first pool
    for (std::size_t i = 0; i < pools.size(); ++i) {
      const Json& pool = pools[i];
      const std::string pointer = pointer_append("/cluster/node_pools", i);
      const std::string name = pool["name"].get<std::string>();
      const auto [first, inserted] = pool_by_name.emplace(name, pointer);
      if (!inserted)
        report(pointer + "/name", "duplicate node pool name " + quote(name) + " (also " + first->second + ")");
      const GpuModel* model = catalog_.find(pool["gpu"].get<std::string>());
      if (model == nullptr)
        report(pointer + "/gpu", unknown_gpu_model_problem(pool["gpu"].get<std::string>(), catalog_));
      const std::string gpu = model != nullptr ? model->id : pool["gpu"].get<std::string>();
      // Kubernetes validates a taint's key as a label name, whose name part must be non-empty
      // (validateNodeTaints -> ValidateLabelName, pkg/apis/core/validation/validation.go).
      if (pool.contains("taints")) {
        for (std::size_t t = 0; t < pool["taints"].size(); ++t) {
          if (!pool["taints"][t]["key"].get<std::string>().empty()) continue;
          report(pointer_append(pointer + "/taints", t) + "/key",
                 "expected a taint key (Kubernetes requires one: a taint's key is a label name, whose name part must "
                 "be non-empty), found \"\"");
        }
      }
      const std::int64_t gpus = pool["gpus_per_node"].get<std::int64_t>();
      if (pool.value("topology", "") == "nvlink-pairs" && gpus % 2 != 0) {
        report(pointer + "/topology",
               "\"nvlink-pairs\" pairs GPUs two by two, so gpus_per_node must be even, found " + std::to_string(gpus));
      }
      // Whole GPUs are what a pool with the default sharing offers; a shared pool advertises more
      // units (replicas, vGPUs), which only its policy knows: the run's capacity check on the built
      // cluster covers it.
      const bool whole_gpus = !pool.contains("sharing") || pool["sharing"].value("policy", "") ==
                                                               default_pool_sharing().at("policy").get<std::string>();
      const std::int64_t gpu_units = whole_gpus ? gpus : std::numeric_limits<std::int64_t>::max();
      capacities_.push_back({gpu, pool["nodes"].get<std::int64_t>(), gpu_units, pool["cpu_milli"].get<std::int64_t>(),
                             pool["memory_mib"].get<std::int64_t>()});
    }
  }

  // Weighted score plugins (docs/kubernetes.md "Weighted score plugins"): keys that belong to
  // another plugin or strategy are mistakes, as kube-scheduler's args validation treats them.
  void check_scheduler() {
    if (!document_.contains("scheduler")) return;
    const Json& scheduler = document_["scheduler"];
    if (!scheduler.contains("score_plugins")) return;
    if (scheduler.contains("placement")) {
      report("/scheduler/score_plugins",
             "expected either \"placement\" or \"score_plugins\", found both (score_plugins replace the placement)");
    }
    const Json& plugins = scheduler["score_plugins"];
    std::map<std::string, std::string> plugin_by_name;
    for (std::size_t i = 0; i < plugins.size(); ++i) {
      const Json& plugin = plugins[i];
      const std::string pointer = pointer_append("/scheduler/score_plugins", i);
      const std::string name = plugin["name"].get<std::string>();
      const auto [first, inserted] = plugin_by_name.emplace(name, pointer);
      if (!inserted)
        report(pointer + "/name", "duplicate score plugin " + quote(name) + " (also " + first->second + ")");
      const bool fit = name == "NodeResourcesFit";
      if (plugin.contains("strategy") && !fit)
        report(pointer + "/strategy", "only NodeResourcesFit has a scoring strategy, found one on " + quote(name));
      if (plugin.contains("resources") && !fit && name != "NodeResourcesBalancedAllocation") {
        report(pointer + "/resources",
               "only NodeResourcesFit and NodeResourcesBalancedAllocation score resources, found a list on " +
                   quote(name));
      }
      const bool ratio = fit && plugin.value("strategy", "") == "RequestedToCapacityRatio";
      if (plugin.contains("shape") && !ratio) {
        report(pointer + "/shape", "a shape goes with NodeResourcesFit's strategy \"RequestedToCapacityRatio\" only");
      } else if (ratio && !plugin.contains("shape")) {
        report(pointer, "strategy \"RequestedToCapacityRatio\" needs a \"shape\" (utilization -> score points)");
      } else if (ratio) {
        const Json& shape = plugin["shape"];
        for (std::size_t p = 1; p < shape.size(); ++p) {
          if (shape[p]["utilization"].get<std::int64_t>() <= shape[p - 1]["utilization"].get<std::int64_t>()) {
            report(pointer_append(pointer + "/shape", p) + "/utilization",
                   "expected utilizations in increasing order, found " +
                       std::to_string(shape[p]["utilization"].get<std::int64_t>()) + " after " +
                       std::to_string(shape[p - 1]["utilization"].get<std::int64_t>()));
          }
        }
      }
      if (plugin.contains("resources")) {
        std::map<std::string, std::size_t> seen;
        const Json& resources = plugin["resources"];
        for (std::size_t r = 0; r < resources.size(); ++r) {
          const std::string resource = resources[r]["name"].get<std::string>();
          if (!seen.emplace(resource, r).second)
            report(pointer_append(pointer + "/resources", r) + "/name", "duplicate resource " + quote(resource));
        }
      }
    }
  }

  // A job's priority_class must name a class of scheduler.priority_classes, and replaces priority.
  void check_priority_class(const std::string& owner, const Json& owner_json) {
    if (!owner_json.contains("priority_class")) return;
    if (owner_json.contains("priority")) {
      report(owner + "/priority_class",
             "expected either \"priority\" or \"priority_class\", found both (the class gives the priority)");
      return;
    }
    const std::string name = owner_json["priority_class"].get<std::string>();
    const Json::json_pointer classes("/scheduler/priority_classes");
    if (document_.contains(classes) && document_.at(classes).contains(name)) return;
    std::vector<std::string> known;
    if (document_.contains(classes)) {
      for (const auto& [key, value] : document_.at(classes).items()) known.push_back(key);
    }
    std::string problem = "no priority class " + quote(name) + " in scheduler.priority_classes";
    if (const auto suggestion = closest_match(name, known)) problem += "; did you mean " + quote(*suggestion) + "?";
    report(owner + "/priority_class",
           problem + (known.empty() ? " (it has none)" : " (it has " + quoted_list(known) + ")"));
  }

  void check_workload() {
    if (!document_.contains("workload")) return;  // a cluster-only scenario (describe-nodes)
    const Json& workload = document_["workload"];
    const bool has_generators = workload.contains("generators") && !workload["generators"].empty();
    const bool has_jobs = workload.contains("jobs") && !workload["jobs"].empty();
    if (!has_generators && !has_jobs && !workload.contains("trace")) {
      report("/workload", "the workload is empty: give at least one of \"generators\", \"jobs\" or \"trace\"");
    }
    // Generators and job list entries name their jobs "<name>-<number>", each from 0: two of
    // them with one name, whichever kinds they are, would give jobs the same name.
    std::map<std::string, std::string> owner_by_name;
    if (workload.contains("generators")) check_generators(workload["generators"], owner_by_name);
    if (workload.contains("jobs")) check_jobs(workload["jobs"], owner_by_name);
    if (workload.contains("trace"))
      check_readable("/workload/trace/path", workload["trace"]["path"].get<std::string>(), "trace");
  }

  // A name a generator or job list entry gives its jobs, seen once only (check_workload).
  void claim_name(std::map<std::string, std::string>& owner_by_name, const std::string& name,
                  const std::string& pointer, const std::string& where) {
    const auto [first, inserted] = owner_by_name.emplace(name, pointer);
    if (inserted) return;
    const bool same_list = first->second.substr(0, first->second.rfind('/')) == pointer.substr(0, pointer.rfind('/'));
    const std::string what = pointer.starts_with("/workload/jobs") ? "job" : "generator";
    report(where, (same_list ? "duplicate " + what + " name " : "duplicate name ") + quote(name) + " (also " +
                      first->second + (same_list ? ")" : "; generators and jobs name their jobs <name>-0, <name>-1, ...)"));
  }

  void check_generators(const Json& generators, std::map<std::string, std::string>& owner_by_name) {
    for (std::size_t i = 0; i < generators.size(); ++i) {
      const Json& generator = generators[i];
      const std::string pointer = pointer_append("/workload/generators", i);
      const std::string name = generator_name(generator, i);
      claim_name(owner_by_name, name, pointer, generator.contains("name") ? pointer + "/name" : pointer);
      if (!generator.contains("count") && !generator.contains("until")) {
        report(pointer, "a generator needs \"count\", \"until\" or both, to know when to stop");
      }
      if (generator.contains("until")) {
        const auto until = parse_duration(generator["until"].get<std::string>());
        const auto start = parse_duration(generator.value("start", "0s"));
        if (until && start && *until <= *start) {
          report(pointer + "/until", "the generator stops (until " + generator["until"].get<std::string>() +
                                         ") no later than it starts (start " + generator.value("start", "0s") +
                                         "), so it would make no jobs");
        }
      }
      // A resampling generator has no duration (workloads/ checks which keys go together).
      if (generator.contains("duration") && generator["duration"].contains("file"))
        check_readable(pointer + "/duration/file", generator["duration"]["file"].get<std::string>(), "samples");
      check_pods(pointer, generator);
      check_priority_class(pointer, generator);
      if (generator.contains("mix")) {
        for (std::size_t m = 0; m < generator["mix"].size(); ++m)
          check_priority_class(pointer_append(pointer + "/mix", m), generator["mix"][m]);
      }
    }
  }

  void check_jobs(const Json& jobs, std::map<std::string, std::string>& owner_by_name) {
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      const Json& job = jobs[i];
      const std::string pointer = pointer_append("/workload/jobs", i);
      claim_name(owner_by_name, job["name"].get<std::string>(), pointer, pointer + "/name");
      check_end_within_time(pointer, job);
      check_pods(pointer, job);
      check_priority_class(pointer, job);
    }
  }

  // A job's end, arrival + duration, must be a time: past 2^63 - 1 ns it saturated to kTimeNever
  // and the job ran for ever, and `sharesim generate` wrote a row the trace reader refuses. The
  // rule and words are the trace reader's (end_beyond_time_problem, workloads/trace_import.cpp):
  // a duration of exactly 2^63 - 1 ns is a job that never ends, as a saturated draw writes it.
  // Explicit jobs are never load-scaled, so the times written are the times run.
  void check_end_within_time(const std::string& pointer, const Json& job) {
    if (!job.contains("arrival") || !job.contains("duration")) return;
    const std::optional<SimTime> arrival = parse_duration(job["arrival"].get<std::string>());
    const std::optional<SimTime> duration = parse_duration(job["duration"].get<std::string>());
    if (!arrival || !duration || *duration == kTimeNever || *duration < kTimeNever - *arrival) return;
    report(pointer + "/duration", "expected a job that ends within " + std::to_string(kMaxTimeSeconds) +
                                      " s (about 292 years, what int64 nanoseconds hold) from the start of the run, "
                                      "found one arriving at " +
                                      describe_value(job["arrival"]) + " and running " +
                                      describe_value(job["duration"]));
  }

  // Could a pod of this job ever be placed, and could all its gang-scheduled pods run at
  // once? Otherwise the job would wait forever, which is an input error, not a result.
  void check_pods(const std::string& owner, const Json& owner_json) {
    static const Json kNoRequest = Json::object();
    const Json& request = owner_json.contains("request") ? owner_json["request"] : kNoRequest;
    const std::string request_pointer = owner + "/request";
    // Where to point for a value the user did not write (a default): its nearest written parent.
    const auto place_of = [&](const char* key) {
      if (request.contains(key)) return request_pointer + "/" + key;
      return owner_json.contains("request") ? request_pointer : owner;
    };
    const std::int64_t gpus = integer_or(request, "gpus", 1);
    const std::int64_t cpu_milli = integer_or(request, "cpu_milli", 0);
    const std::int64_t memory_mib = integer_or(request, "memory_mib", 0);

    std::string product;
    std::string node_phrase = "the largest node";
    if (request.contains("gpu_product")) {
      const GpuModel* model = catalog_.find(request["gpu_product"].get<std::string>());
      if (model == nullptr) {
        report(request_pointer + "/gpu_product",
               unknown_gpu_model_problem(request["gpu_product"].get<std::string>(), catalog_));
        return;
      }
      product = model->id;
      if (std::none_of(capacities_.begin(), capacities_.end(),
                       [&](const PoolCapacity& pool) { return pool.gpu == product; })) {
        std::vector<std::string> present;
        for (const PoolCapacity& pool : capacities_) {
          if (std::find(present.begin(), present.end(), pool.gpu) == present.end()) present.push_back(pool.gpu);
        }
        report(request_pointer + "/gpu_product",
               "no node pool has GPU model " + quote(product) + " (the pools have " + quoted_list(present) + ")");
        return;
      }
      node_phrase = "the largest node with " + product;
    }
    std::vector<const PoolCapacity*> eligible;
    for (const PoolCapacity& pool : capacities_) {
      if (product.empty() || pool.gpu == product) eligible.push_back(&pool);
    }
    if (eligible.empty()) return;  // no pools: the schema already demands one

    struct Dimension {
      const char* key;
      std::int64_t asked;
      std::int64_t PoolCapacity::*offered;
      const char* singular;
      const char* plural;
    };
    const Dimension dimensions[] = {{"gpus", gpus, &PoolCapacity::gpus, "GPU", "GPUs"},
                                    {"cpu_milli", cpu_milli, &PoolCapacity::cpu_milli, "cpu_milli", "cpu_milli"},
                                    {"memory_mib", memory_mib, &PoolCapacity::memory_mib, "memory_mib", "memory_mib"}};
    for (const Dimension& dimension : dimensions) {
      std::int64_t largest = 0;
      for (const PoolCapacity* pool : eligible) largest = std::max(largest, pool->*dimension.offered);
      if (dimension.asked > largest) {
        const std::string asked = count_of(dimension.asked, dimension.singular, dimension.plural);
        const std::string default_note = request.contains(dimension.key) ? "" : " (the default)";
        report_capacity(place_of(dimension.key), "a pod asks for " + asked + default_note + " but " + node_phrase +
                                                     " has " + std::to_string(largest));
        return;
      }
    }
    const auto pods_per_node = [&](const PoolCapacity& pool) -> long double {
      long double fit = 1e30L;  // a pod asking for nothing fits without limit
      if (gpus > 0) fit = std::min(fit, static_cast<long double>(pool.gpus / gpus));
      if (cpu_milli > 0) fit = std::min(fit, static_cast<long double>(pool.cpu_milli / cpu_milli));
      if (memory_mib > 0) fit = std::min(fit, static_cast<long double>(pool.memory_mib / memory_mib));
      return fit;
    };
    if (std::none_of(eligible.begin(), eligible.end(),
                     [&](const PoolCapacity* pool) { return pods_per_node(*pool) >= 1; })) {
      report_capacity(owner_json.contains("request") ? request_pointer : owner,
                      "no single node offers " + count_of(gpus, "GPU", "GPUs") + ", " + std::to_string(cpu_milli) +
                          " cpu_milli and " + std::to_string(memory_mib) +
                          " memory_mib together, so a pod could never be placed");
      return;
    }
    const std::int64_t pods = integer_or(owner_json, "pods", 1);
    long double cluster_fit = 0;
    for (const PoolCapacity* pool : eligible)
      cluster_fit += static_cast<long double>(pool->nodes) * pods_per_node(*pool);
    if (static_cast<long double>(pods) > cluster_fit) {
      report_capacity(owner + "/pods", "a job's " + std::to_string(pods) +
                                           " pods must run together, but the whole cluster can hold at most " +
                                           std::to_string(static_cast<long long>(cluster_fit)) + " of them at once");
    }
  }

  void check_readable(const std::string& pointer, const std::string& path, const char* what) {
    const std::filesystem::path resolved = std::filesystem::path(base_dir_) / path;
    if (const std::string problem = regular_file_problem(resolved.string()); !problem.empty()) {
      report(pointer, std::string("cannot read ") + what + " file " + quote(resolved.string()) + ": " + problem);
      return;
    }
    std::FILE* file = std::fopen(resolved.c_str(), "rb");
    if (file == nullptr) {
      report(pointer,
             std::string("cannot read ") + what + " file " + quote(resolved.string()) + ": " + std::strerror(errno));
      return;
    }
    std::fclose(file);
  }

  const Json& document_;
  const GpuCatalog& catalog_;
  const std::string& base_dir_;
  std::vector<PoolCapacity> capacities_;
  std::vector<ScenarioIssue> issues_;
};

}  // namespace

std::vector<ScenarioIssue> find_semantic_issues(const Json& document, const std::vector<DefinitionUse>& uses,
                                                const GpuCatalog& catalog, const std::string& base_dir) {
  return SemanticChecker(document, catalog, base_dir).run(uses);
}

}  // namespace sharesim
