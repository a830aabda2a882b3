#include "sim/metrics/run_metrics.h"

#include <algorithm>
#include <span>
#include <vector>

#include "sim/core/huge_pages.h"

namespace sharesim {
namespace {

// An empty sample has no mean or percentiles: null, not 0, so that a sweep, `size` or `check`
// reading summary.json does not take "no job started" for "no job waited".
nlohmann::json summary_json(const SampleSummary& s) {
  const auto stat = [&s](double value) { return s.count > 0 ? nlohmann::json(value) : nlohmann::json(nullptr); };
  return {{"count", s.count},    {"mean", stat(s.mean)}, {"p50", stat(s.p50)},
          {"p95", stat(s.p95)}, {"p99", stat(s.p99)},   {"max", stat(s.max)}};
}

// Room for a sample of `count` values, its pages advised as huge pages before anything is
// written: reserved once, not regrown (and its pages faulted in one by one) while filling.
void reserve_sample(std::vector<double>& sample, std::size_t count) {
  sample.reserve(count);
  advise_huge_pages(sample.data(), sample.capacity() * sizeof(double));
}

// The sample of several origins together (all services' latencies, all notebooks' cells): their
// samples one after another, in their original order. Copied only when two or more origins make
// it up; with one, it is that origin's sample (the same values in the same order), so its
// summary is that origin's.
class PooledSample {
 public:
  // First, for every origin with values: how many it has.
  void count_origin(std::size_t values) {
    ++origins_;
    values_ += values;
  }
  void reserve() {
    if (origins_ > 1) reserve_sample(pool_, values_);
  }
  // Then, for each of those origins: its sample, before its own summary reorders it...
  void add(std::span<const double> values) {
    if (origins_ > 1) pool_.insert(pool_.end(), values.begin(), values.end());
  }
  // ...and its summary.
  void add_summary(const SampleSummary& summary) {
    if (origins_ == 1) sole_summary_ = summary;
  }
  // All zeros when no origin had values.
  SampleSummary summary() { return origins_ > 1 ? summarize(pool_) : sole_summary_; }

 private:
  std::size_t origins_ = 0;
  std::size_t values_ = 0;
  std::vector<double> pool_;
  SampleSummary sole_summary_;
};

}  // namespace

RunMetrics compute_run_metrics(const ClusterRuntime& runtime, std::vector<RequestStats> requests,
                               const std::vector<GpuUsage>& gpu_usage, SimTime horizon,
                               const MetricsWindow& window, std::uint64_t events, double wall_s, const CostSpec& cost,
                               const SloSpec& slo) {
  RunMetrics m;
  m.window = window;
  // The censored waits are the waits until the first job that never started: that sample is
  // made only then (a copy of the waits so far), and a run in which every job started has one
  // sample fewer to write and summarise (8 MB less for a million jobs).
  std::vector<double> waits, censored_waits, jcts, slowdowns;
  std::uint64_t met_slo = 0;
  // One sample per job at most.
  for (std::vector<double>* sample : {&waits, &jcts, &slowdowns}) reserve_sample(*sample, runtime.jobs().size());
  const std::size_t origin_count = runtime.origins().size();
  // Per-origin samples are kept only when there is more than one origin; with one, its
  // figures are the overall ones (and a million-job run does not sort everything twice).
  const bool split_by_origin = origin_count > 1;
  std::vector<std::vector<double>> origin_waits(split_by_origin ? origin_count : 0);
  std::vector<std::vector<double>> origin_jcts(split_by_origin ? origin_count : 0);
  m.origins.resize(origin_count);
  for (std::size_t o = 0; o < origin_count; ++o) {
    m.origins[o].name = runtime.origins()[o].name;
    m.origins[o].kind = runtime.origins()[o].kind;
  }
  // Completions inside the window, of any job: the throughput is a rate over the window.
  std::uint64_t completed_in_window = 0;
  for (std::size_t index = 0; index < runtime.jobs().size(); ++index) {
    const JobRecord& job = runtime.jobs()[index];
    if (job.state == JobState::Completed && window.start <= job.end && job.end <= window.end) ++completed_in_window;
    if (!window.holds_job(index, job.spec.arrival)) continue;
    ++m.submitted;
    OriginMetrics& origin = m.origins[job.spec.origin];
    ++origin.submitted;
    switch (job.state) {
      case JobState::Pending:
        ++m.pending_at_end;
        break;
      case JobState::Running:
        ++m.running_at_end;
        break;
      case JobState::Completed:
        ++m.completed;
        ++origin.completed;
        break;
      case JobState::Failed:
        ++m.failed;
        break;
    }
    if (job.start >= 0) {
      const double wait = time_to_seconds(job.start - job.spec.arrival);
      waits.push_back(wait);
      if (m.never_started > 0) censored_waits.push_back(wait);
      if (split_by_origin) origin_waits[job.spec.origin].push_back(wait);
    } else {
      if (m.never_started == 0) {
        reserve_sample(censored_waits, runtime.jobs().size());
        censored_waits.assign(waits.begin(), waits.end());
      }
      ++m.never_started;
      ++origin.never_started;
      censored_waits.push_back(time_to_seconds(std::max<SimTime>(0, horizon - job.spec.arrival)));
    }
    if (job.state == JobState::Completed) {
      const double jct = time_to_seconds(job.end - job.spec.arrival);
      jcts.push_back(jct);
      if (split_by_origin) origin_jcts[job.spec.origin].push_back(jct);
      if (job.spec.work > 0) {
        slowdowns.push_back(static_cast<double>(job.end - job.start) / static_cast<double>(job.spec.work));
        met_slo +=
            static_cast<double>(job.end - job.spec.arrival) <= slo.max_slowdown * static_cast<double>(job.spec.work)
                ? 1
                : 0;
      }
    }
  }
  m.slowdown = summarize(slowdowns);
  if (slo.max_slowdown > 0 && !slowdowns.empty()) {
    m.slo_attainment = static_cast<double>(met_slo) / static_cast<double>(slowdowns.size());
  }
  const RuntimeCounters& counters = runtime.counters();
  m.killed_oom = counters.killed_oom;
  m.killed_fault = counters.killed_fault;
  m.killed_admission = counters.killed_admission;
  m.killed_by_other = counters.killed_by_other;
  m.restarts = counters.restarts;
  m.preemption = runtime.scheduler().preemption_enabled();
  m.killed_preempted = counters.killed_preempted;
  m.preemptions = counters.preemptions;
  m.gpus_used_peak = counters.peak_allocated_gpus;
  m.wait_s = summarize(waits);
  m.wait_censored_s = m.never_started > 0 ? summarize(censored_waits) : m.wait_s;
  m.jct_s = summarize(jcts);
  for (std::size_t o = 0; o < origin_count; ++o) {
    m.origins[o].wait_s = split_by_origin ? summarize(origin_waits[o]) : m.wait_s;
    m.origins[o].jct_s = split_by_origin ? summarize(origin_jcts[o]) : m.jct_s;
  }
  m.horizon_s = time_to_seconds(horizon);
  // Time figures: the runtime's integrals clipped to the window, over the window's span.
  const double span_s = window.span_s();
  if (span_s > 0) m.throughput_jobs_per_hour = static_cast<double>(completed_in_window) / (span_s / 3600.0);
  m.gpu_count = gpu_usage.size();
  SimTime busy = 0, allocated = 0;
  double sm_busy = 0, memory = 0;
  for (const GpuUsage& usage : gpu_usage) {
    busy += usage.in_window.busy_ns;
    allocated += usage.in_window.allocated_ns;
    sm_busy += usage.in_window.sm_busy_ns;
    memory += usage.in_window.memory_mib_ns;
    m.context_switches += usage.in_window.context_switches;
    m.reconfigurations += usage.reconfigurations;
    m.repartitioning_gpu_hours +=
        time_to_seconds(usage.in_window.draining_ns + usage.in_window.reconfiguring_ns) / 3600.0;
  }
  const double capacity = static_cast<double>(m.gpu_count) * static_cast<double>(window.span());
  if (capacity > 0) {
    m.utilization_mean = static_cast<double>(busy) / capacity;
    m.allocated_fraction_mean = static_cast<double>(allocated) / capacity;
    m.sm_utilization_mean = sm_busy / capacity;
    m.memory_used_mean_mib = memory / capacity;
  }
  m.gpu_hours_allocated = time_to_seconds(allocated) / 3600.0;
  m.gpu_hours_provisioned = static_cast<double>(m.gpu_count) * span_s / 3600.0;
  constexpr double kHoursPerYear = 365.0 * 24.0;
  double gpu_cost_provisioned = 0;
  for (const Gpu& gpu : runtime.cluster().gpus()) {
    m.license_cost += gpu.sharing->traits().license_cost_per_gpu_year * span_s / 3600.0 / kHoursPerYear;
    const double price = cost.price_of(gpu.model->id, gpu.model->gpu_hour_usd);
    gpu_cost_provisioned += price * span_s / 3600.0;
    m.cost_used += price * time_to_seconds(gpu_usage[gpu.index].in_window.allocated_ns) / 3600.0;
  }
  m.cost = gpu_cost_provisioned + m.license_cost;
  const Cluster& cluster = runtime.cluster();
  for (const NodePool& pool : cluster.pools()) {
    PoolMetrics p;
    p.name = pool.name;
    p.gpu = pool.gpu->id;
    p.policy = pool.policy;
    SimTime pool_busy = 0, pool_allocated = 0;
    for (std::uint32_t n = pool.first_node; n < pool.first_node + pool.node_count; ++n) {
      const Node& node = cluster.node(n);
      for (std::uint32_t g = node.first_gpu; g < node.first_gpu + node.gpu_count; ++g) {
        pool_busy += gpu_usage[g].in_window.busy_ns;
        pool_allocated += gpu_usage[g].in_window.allocated_ns;
        ++p.gpu_count;
      }
    }
    const double pool_capacity = static_cast<double>(p.gpu_count) * static_cast<double>(window.span());
    if (pool_capacity > 0) {
      p.utilization_mean = static_cast<double>(pool_busy) / pool_capacity;
      p.allocated_fraction_mean = static_cast<double>(pool_allocated) / pool_capacity;
    }
    m.pools.push_back(p);
  }
  // Request figures, by origin of behaviour jobs. Percentiles are exact: every latency is
  // kept (8 bytes per request, docs/outputs.md "services.csv") and each origin's sample is
  // summarised where it lies, in the runtime's samples; the overall latency sample (services)
  // and the notebooks' cell sample are pools of them.
  const auto is_service = [&runtime](std::size_t o) { return runtime.origins()[o].kind != "notebook"; };
  PooledSample all_latencies, cell_slowdowns;
  // The pool an origin's sample goes to: a service's latencies to the overall latency sample, a
  // notebook's request slowdowns to the cells' sample; origins that served nothing to neither.
  const auto pool_of = [&](std::size_t o) -> PooledSample* {
    if (!runtime.origins()[o].behaviour || o >= requests.size() || requests[o].latency_s.size() == 0) return nullptr;
    return is_service(o) ? &all_latencies : &cell_slowdowns;
  };
  for (std::size_t o = 0; o < origin_count; ++o) {
    if (PooledSample* pool = pool_of(o)) pool->count_origin(requests[o].latency_s.size());
  }
  all_latencies.reserve();
  cell_slowdowns.reserve();
  std::uint64_t all_met = 0, all_with_slo = 0;
  for (std::size_t o = 0; o < origin_count; ++o) {
    const JobOrigin& origin = runtime.origins()[o];
    if (!origin.behaviour) continue;
    ServiceMetrics s;
    s.name = origin.name;
    s.kind = origin.kind;
    s.jobs = m.origins[o].submitted;
    s.slo_s = time_to_seconds(origin.slo);
    if (o < requests.size()) {
      RequestStats& stats = requests[o];
      s.arrived = stats.arrived;
      s.dropped = stats.dropped;
      const std::span<double> latencies = stats.latency_s.values();
      const std::span<double> request_slowdowns = stats.slowdown.values();
      if (origin.slo > 0 && !latencies.empty()) {
        s.slo_attainment = static_cast<double>(stats.met_slo) / static_cast<double>(latencies.size());
        all_met += stats.met_slo;
        all_with_slo += latencies.size();
      }
      const bool service = is_service(o);
      PooledSample* const pool = pool_of(o);
      if (pool != nullptr) pool->add(service ? latencies : request_slowdowns);
      SampleDistribution latency = summarize_with_quantiles(latencies, kLatencyQuantilePoints);
      s.latency_s = latency.summary;
      s.latency_quantiles_s = std::move(latency.quantiles);
      s.slowdown = summarize(request_slowdowns);
      if (pool != nullptr) pool->add_summary(service ? s.latency_s : s.slowdown);
    }
    m.services.push_back(std::move(s));
  }
  m.request_latency_s = all_latencies.summary();
  m.notebook_cell_slowdown = cell_slowdowns.summary();
  if (all_with_slo > 0) m.request_slo_attainment = static_cast<double>(all_met) / static_cast<double>(all_with_slo);
  m.events = events;
  m.wall_s = wall_s;
  return m;
}

nlohmann::json run_metrics_json(const RunMetrics& m) {
  nlohmann::json jobs = {{"submitted", m.submitted},
                         {"completed", m.completed},
                         {"running_at_end", m.running_at_end},
                         {"pending_at_end", m.pending_at_end},
                         {"failed", m.failed},
                         {"never_started", m.never_started},
                         {"wait_s", summary_json(m.wait_s)},
                         {"wait_censored_s", summary_json(m.wait_censored_s)},
                         {"jct_s", summary_json(m.jct_s)},
                         {"slowdown", summary_json(m.slowdown)},
                         {"slo_attainment", m.slo_attainment < 0 ? nlohmann::json() : nlohmann::json(m.slo_attainment)},
                         {"killed",
                          {{"oom", m.killed_oom},
                           {"fault", m.killed_fault},
                           {"admission_error", m.killed_admission},
                           {"by_another_pod", m.killed_by_other}}},
                         {"restarts", m.restarts},
                         {"throughput_per_hour", m.throughput_jobs_per_hour}};
  if (m.preemption) {
    jobs["killed"]["preempted"] = m.killed_preempted;
    jobs["preemptions"] = m.preemptions;
  }
  nlohmann::json gpus = {{"count", m.gpu_count},
                         {"utilization_mean", m.utilization_mean},
                         {"allocated_fraction_mean", m.allocated_fraction_mean},
                         {"sm_utilization_mean", m.sm_utilization_mean},
                         {"memory_used_mean_mib", m.memory_used_mean_mib},
                         {"context_switches", m.context_switches},
                         {"reconfigurations", m.reconfigurations},
                         {"repartitioning_gpu_hours", m.repartitioning_gpu_hours},
                         {"used_peak", m.gpus_used_peak},
                         {"gpu_hours_allocated", m.gpu_hours_allocated},
                         {"gpu_hours_provisioned", m.gpu_hours_provisioned}};
  nlohmann::json cost = {{"total", m.cost}, {"used", m.cost_used}, {"vgpu_licenses", m.license_cost}};
  nlohmann::json by_origin = nlohmann::json::array();
  for (const OriginMetrics& o : m.origins) {
    by_origin.push_back({{"origin", o.name},
                         {"kind", o.kind},
                         {"submitted", o.submitted},
                         {"completed", o.completed},
                         {"never_started", o.never_started},
                         {"wait_s", summary_json(o.wait_s)},
                         {"jct_s", summary_json(o.jct_s)}});
  }
  jobs["by_origin"] = by_origin;
  nlohmann::json by_pool = nlohmann::json::array();
  for (const PoolMetrics& p : m.pools) {
    by_pool.push_back({{"pool", p.name},
                       {"gpu", p.gpu},
                       {"policy", p.policy},
                       {"count", p.gpu_count},
                       {"utilization_mean", p.utilization_mean},
                       {"allocated_fraction_mean", p.allocated_fraction_mean}});
  }
  gpus["by_pool"] = by_pool;
  nlohmann::json services = nlohmann::json::array();
  for (const ServiceMetrics& s : m.services) {
    services.push_back(
        {{"origin", s.name},
         {"kind", s.kind},
         {"jobs", s.jobs},
         {"requests", s.arrived},
         {"completed", s.latency_s.count},
         {"dropped", s.dropped},
         {"latency_s", summary_json(s.latency_s)},
         {"slowdown", summary_json(s.slowdown)},
         {"slo_s", s.slo_s > 0 ? nlohmann::json(s.slo_s) : nlohmann::json()},
         {"slo_attainment", s.slo_attainment < 0 ? nlohmann::json() : nlohmann::json(s.slo_attainment)}});
  }
  // wall_s is host-dependent: it goes to timing.json (apps/scenario_run.cpp), not here.
  nlohmann::json sim = {{"events", m.events}, {"horizon_s", m.horizon_s}};
  return {{"jobs", jobs}, {"gpus", gpus}, {"services", services}, {"cost", cost}, {"sim", sim}};
}

}  // namespace sharesim
