#include "sim/scenario/memory_budget.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/core/sim_time.h"
#include "sim/input/input_error.h"
#include "sim/input/json_pointer.h"

namespace sharesim {
namespace {

using Json = nlohmann::ordered_json;

// The schema has checked every value read here (types, ranges, duration syntax).
double seconds_at(const Json& object, const char* key, double fallback) {
  if (!object.contains(key)) return fallback;
  const std::optional<SimTime> value = parse_duration(object[key].get<std::string>());
  return value ? time_to_seconds(*value) : fallback;
}

// A duration in nanoseconds (a double: an estimate's arithmetic), or `fallback` when absent.
double nanoseconds_at(const Json& object, const char* key, double fallback) {
  if (!object.contains(key)) return fallback;
  const std::optional<SimTime> value = parse_duration(object[key].get<std::string>());
  return value ? static_cast<double>(*value) : fallback;
}

// The mean arrival rate per second an arrival object gives: Poisson's and diurnal's rate_per_s
// (diurnal's over whole periods), an MMPP's state rates weighted by their mean stays; 0 when
// there is none to read.
double mean_rate_per_s(const Json& arrival) {
  if (arrival.contains("rate_per_s")) return arrival["rate_per_s"].get<double>();
  if (!arrival.contains("states")) return 0;
  double stay_ns = 0, arrivals = 0;
  for (const Json& state : arrival["states"]) {
    const double stay = nanoseconds_at(state, "mean_stay", 0);
    stay_ns += stay;
    arrivals += state.value("rate_per_s", 0.0) * stay;
  }
  return stay_ns > 0 ? arrivals / stay_ns : 0;
}

std::string gib_text(double bytes) {
  char text[64];
  std::snprintf(text, sizeof text, "%.3g GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  return text;
}

// Pods per job of a generator or job list entry: its `pods`, or the mean over its mix's
// entries weighted as they are drawn (a resampled trace's are not known before reading it).
double pods_per_job(const Json& owner) {
  if (!owner.contains("mix")) return owner.value("pods", 1.0);
  double weight = 0, pods = 0;
  for (const Json& entry : owner["mix"]) {
    weight += entry["weight"].get<double>();
    pods += entry["weight"].get<double>() * entry.value("pods", 1.0);
  }
  return weight > 0 ? pods / weight : 1;
}

}  // namespace

MemoryEstimate estimate_memory(const Json& document) {
  MemoryEstimate estimate;
  double largest = 0;
  const auto consider = [&](double bytes, const std::string& pointer) {
    estimate.bytes += bytes;
    if (bytes > largest) {
      largest = bytes;
      estimate.largest_pointer = pointer;
    }
  };
  const Json& pools = document["cluster"]["node_pools"];
  for (std::size_t i = 0; i < pools.size(); ++i) {
    const double nodes = pools[i]["nodes"].get<double>();
    const double gpus_per_node = pools[i]["gpus_per_node"].get<double>();
    estimate.nodes += nodes;
    estimate.gpus += nodes * gpus_per_node;
    // Nodes cost memory of their own, GPUs or not: a CPU-only pool of 2^32 + 1 nodes ran out of
    // memory with no file or key named.
    const double per_node = kBytesPerNode + (gpus_per_node > 0 ? kBytesPerGpuNode : 0) + gpus_per_node * kBytesPerGpu;
    consider(nodes * per_node, pointer_append("/cluster/node_pools", i) + "/nodes");
  }
  // A job's first pod is in kBytesPerJob; a gang's others cost kBytesPerExtraPod each.
  const auto add_pods = [&](double jobs, double pods_per_job, const std::string& pointer) {
    estimate.pods += jobs * pods_per_job;
    consider(jobs * (pods_per_job - 1) * kBytesPerExtraPod, pointer);
  };
  const double until_s = seconds_at(document, "until", -1);
  const bool event_log = document.contains("output") && document["output"].value("event_log", false);
  const double per_job = kBytesPerJob + (event_log ? kBytesPerLoggedJob : 0);
  // A cluster-only scenario (describe-nodes, sharesim import k8s) has no workload.
  static const Json kNoWorkload = Json::object();
  const Json& workload = document.contains("workload") ? document["workload"] : kNoWorkload;
  // Load scaling multiplies arrival rates by load_factor / time_scale (docs/scenario.md "Load
  // scaling"); factors of the workload and of a generator multiply.
  const auto rate_factor = [](const Json& object) {
    return object.value("load_factor", 1.0) / object.value("time_scale", 1.0);
  };
  // Without `until`, the time-series samples run to the end of the run, which the document
  // bounds only from below: the latest arrival a generator is expected to make and the latest
  // end of an explicit job run alone (docs/reliability.md "Memory budget" says what is not
  // counted: waiting, sharing slowdowns, generated jobs' run times, traces).
  double horizon_ns = 0;
  if (workload.contains("generators")) {
    const Json& generators = workload["generators"];
    for (std::size_t i = 0; i < generators.size(); ++i) {
      const Json& generator = generators[i];
      const std::string pointer = pointer_append("/workload/generators", i);
      // Its last arrival: at its `until`, or sooner, when `count` arrivals at the mean rate
      // (load scaling applied) are expected to come first.
      const double start_ns = nanoseconds_at(generator, "start", 0);
      double last_arrival_ns = nanoseconds_at(generator, "until", -1);
      const double rate_per_s = mean_rate_per_s(generator["arrival"]) * rate_factor(workload) * rate_factor(generator);
      if (generator.contains("count") && rate_per_s > 0) {
        const double counted_ns = start_ns + generator["count"].get<double>() / rate_per_s * 1e9;
        last_arrival_ns = last_arrival_ns < 0 ? counted_ns : std::min(last_arrival_ns, counted_ns);
      }
      horizon_ns = std::max(horizon_ns, last_arrival_ns);
      // Service and notebook generators make `replicas` jobs per service.
      const double replicas = generator.value("replicas", 1.0);
      double jobs = 0;
      if (generator.contains("count")) {
        jobs = generator["count"].get<double>() * replicas;
      } else {
        // Bounded by `until` only: the mean rate over the generator's span (MMPP: not known
        // without its stays, so not counted).
        const double end_s = seconds_at(generator, "until", until_s);
        const double span_s = end_s - seconds_at(generator, "start", 0);
        const Json& arrival = generator["arrival"];
        if (arrival.contains("rate_per_s") && span_s > 0) {
          jobs =
              arrival["rate_per_s"].get<double>() * rate_factor(workload) * rate_factor(generator) * span_s * replicas;
        }
      }
      estimate.jobs += jobs;
      consider(jobs * per_job, pointer + (generator.contains("count") ? "/count" : "/until"));
      add_pods(jobs, pods_per_job(generator), pointer + (generator.contains("mix") ? "/mix" : "/pods"));
    }
  }
  if (workload.contains("jobs")) {
    const Json& jobs = workload["jobs"];
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      // Its end run alone: arrival + its duration (training, batch), lifetime (a service) or
      // session (a notebook).
      double length_ns = 0;
      for (const char* key : {"duration", "lifetime", "session"})
        length_ns = std::max(length_ns, nanoseconds_at(jobs[i], key, 0));
      horizon_ns = std::max(horizon_ns, nanoseconds_at(jobs[i], "arrival", 0) + length_ns);
      const double replicas = jobs[i].contains("replicas") ? jobs[i]["replicas"].get<double>() : 1;
      estimate.jobs += replicas;
      consider(replicas * per_job,
               pointer_append("/workload/jobs", i) + (jobs[i].contains("replicas") ? "/replicas" : ""));
      add_pods(replicas, pods_per_job(jobs[i]), pointer_append("/workload/jobs", i) + "/pods");
    }
  }
  // Samples at 0, P, 2P, ... up to `until`, or without it up to the horizon above.
  if (document.contains("until")) horizon_ns = nanoseconds_at(document, "until", 0);
  if (document.contains("output") && horizon_ns > 0) {
    const double interval_ns = nanoseconds_at(document["output"], "timeseries_interval", -1);
    if (interval_ns > 0) {
      estimate.samples = std::floor(horizon_ns / interval_ns) + 1;
      consider(estimate.samples * kBytesPerSample, "/output/timeseries_interval");
    }
  }
  return estimate;
}

void check_memory_budget(const Json& document, const std::string& origin) {
  const double limit_gib = document.value("memory_limit_gib", kDefaultMemoryLimitGib);
  const MemoryEstimate estimate = estimate_memory(document);
  const double limit_bytes = limit_gib * 1024.0 * 1024.0 * 1024.0;
  if (estimate.bytes <= limit_bytes) return;
  char counts[160];
  std::snprintf(counts, sizeof counts, "%.3g nodes, %.3g GPUs, %.3g jobs, %.3g pods, %.3g time-series samples",
                estimate.nodes, estimate.gpus, estimate.jobs, estimate.pods, estimate.samples);
  throw InputError(origin, estimate.largest_pointer,
                   "this scenario needs about " + gib_text(estimate.bytes) + " of memory (" + counts +
                       "), more than the memory limit of " + gib_text(limit_bytes) +
                       "; set \"memory_limit_gib\" (or --set memory_limit_gib=N) to allow more");
}

}  // namespace sharesim
