#include "experiments/fragmentation/sweep.h"

#include <atomic>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "experiments/fragmentation/experiment_input.h"
#include "experiments/fragmentation/gnuplot.h"
#include "experiments/fragmentation/placement_run.h"
#include "experiments/fragmentation/pod_sequence.h"
#include "experiments/fragmentation/quartiles.h"
#include "experiments/fragmentation/target_workload.h"
#include "sim/metrics/output_set.h"
#include "sim/input/input_error.h"
#include "workloads/openb/openb_csv.h"

namespace sharesim {
namespace {

struct TraceData {
  ExperimentInput input;
  TargetWorkload workload;
  std::vector<std::vector<std::uint32_t>> sequences;  // per seed
};

struct RunKey {
  std::size_t trace, policy, seed;
};

// Appends "p25,median,p75" of `values` to `out`, each with a leading comma.
void append_quartiles(std::string& out, std::vector<double> values) {
  const Quartiles q = quartiles(values);
  out += "," + fixed_decimal(q.p25, 6) + "," + fixed_decimal(q.median, 6) + "," + fixed_decimal(q.p75, 6);
}

std::string quote_gnuplot(const std::string& text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

}  // namespace

const std::vector<std::string>& fragmentation_sweep_traces() {
  static const std::vector<std::string> traces{"default",    "cpu050",     "cpu100",     "cpu200",      "cpu250",
                                               "gpushare40", "gpushare60", "gpushare80", "gpushare100", "gpuspec10",
                                               "gpuspec20",  "gpuspec25",  "gpuspec33",  "multigpu20",  "multigpu30",
                                               "multigpu40", "multigpu50"};
  return traces;
}

std::string openb_pod_list_path(const std::string& pods_dir, const std::string& trace) {
  return (std::filesystem::path(pods_dir) / ("openb_pod_list_" + trace + ".csv")).string();
}

SweepReport run_sweep(const SweepSpec& spec, const std::function<void(std::size_t, std::size_t)>& progress) {
  // Inputs first (every file is checked before any run starts), one per trace; gnuplot too,
  // when plots are asked for, rather than after the runs.
  if (spec.plot) require_gnuplot(" or pass --no-plot");
  const std::vector<OpenbNodeRow> node_rows = read_openb_nodes(spec.nodes_path);
  std::vector<TraceData> traces(spec.traces.size());
  for (std::size_t t = 0; t < spec.traces.size(); ++t) {
    const std::string pods_path = openb_pod_list_path(spec.pods_dir, spec.traces[t]);
    traces[t].input = make_experiment_input(node_rows, read_openb_pods(pods_path), spec.nodes_path, pods_path);
    traces[t].workload = build_target_workload(traces[t].input.pods);
    for (const std::uint64_t seed : spec.seeds) {
      traces[t].sequences.push_back(build_pod_sequence(traces[t].input, spec.inflation, seed));
    }
  }
  std::vector<RunKey> keys;
  for (std::size_t t = 0; t < spec.traces.size(); ++t) {
    for (std::size_t p = 0; p < spec.policies.size(); ++p) {
      for (std::size_t s = 0; s < spec.seeds.size(); ++s) keys.push_back({t, p, s});
    }
  }
  std::vector<PlacementRunResult> results(keys.size());
  std::atomic<std::size_t> next{0}, done{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  const auto worker = [&]() {
    while (true) {
      const std::size_t i = next.fetch_add(1);
      if (i >= keys.size()) return;
      try {
        const RunKey& key = keys[i];
        const TraceData& trace = traces[key.trace];
        results[i] = run_placement(trace.input, trace.workload, trace.sequences[key.seed], spec.policies[key.policy],
                                   spec.seeds[key.seed]);
        results[i].chosen_node = {};  // not needed by the summary
      } catch (...) {
        const std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        next = keys.size();
        return;
      }
      const std::size_t finished = done.fetch_add(1) + 1;
      if (progress) progress(finished, keys.size());
    }
  };
  const unsigned threads = std::max(1u, std::min<unsigned>(spec.threads, static_cast<unsigned>(keys.size())));
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < threads; ++i) pool.emplace_back(worker);
  worker();
  for (std::thread& thread : pool) thread.join();
  if (failure) std::rethrow_exception(failure);

  // Summaries, all in memory first; then every file is written under a temporary name.
  std::string sweep = "trace,policy,arrival_pct,seeds";
  for (const char* metric : {"allocation_pct", "unallocated_pct", "frag_ratio_pct", "frag_amount_pct", "failed_pods"}) {
    for (const char* q : {"p25", "median", "p75"}) sweep += std::string(",") + metric + "_" + q;
  }
  sweep += "\n";
  std::string runs =
      "trace,policy,seed,pods,placed_pods,failed_pods,final_arrival_pct,final_allocation_pct,"
      "final_frag_ratio_pct,final_frag_amount_pct\n";
  std::map<std::string, std::string> plot_data;  // trace -> gnuplot data blocks, one per policy
  std::size_t index = 0;
  for (std::size_t t = 0; t < spec.traces.size(); ++t) {
    const double cluster = static_cast<double>(traces[t].input.cluster_gpu_milli);
    for (std::size_t p = 0; p < spec.policies.size(); ++p) {
      const std::string policy(policy_name(spec.policies[p]));
      std::map<std::int64_t, std::vector<const CurveRow*>> buckets;
      for (std::size_t s = 0; s < spec.seeds.size(); ++s, ++index) {
        const PlacementRunResult& r = results[index];
        for (const CurveRow& row : r.curve) buckets[row.arrival_pct].push_back(&row);
        runs += spec.traces[t] + "," + policy + "," + std::to_string(spec.seeds[s]) + "," + std::to_string(r.pods) +
                "," + std::to_string(r.placed_pods) + "," + std::to_string(r.failed_pods) + "," +
                fixed_decimal(static_cast<double>(r.arrived_gpu_milli) / cluster * 100.0, 6) + "," +
                fixed_decimal(static_cast<double>(r.allocated_gpu_milli) / cluster * 100.0, 6) + "," +
                fixed_decimal(r.final_frag_ratio_pct, 6) + "," + fixed_decimal(r.final_frag_amount_pct, 6) + "\n";
      }
      std::string& data = plot_data[spec.traces[t]];
      data += "# " + policy + ": arrival_pct unallocated_median unallocated_p25 unallocated_p75\n";
      for (const auto& [bucket, rows] : buckets) {
        std::vector<double> alloc, unalloc, ratio, amount, failed;
        for (const CurveRow* row : rows) {
          alloc.push_back(row->allocation_pct);
          unalloc.push_back(100.0 - row->allocation_pct);
          ratio.push_back(row->frag_ratio_pct);
          amount.push_back(row->frag_amount_pct);
          failed.push_back(static_cast<double>(row->failed_pods));
        }
        sweep += spec.traces[t] + "," + policy + "," + std::to_string(bucket) + "," + std::to_string(rows.size());
        append_quartiles(sweep, alloc);
        std::vector<double> unalloc_copy = unalloc;
        const Quartiles u = quartiles(unalloc_copy);
        append_quartiles(sweep, unalloc);
        append_quartiles(sweep, ratio);
        append_quartiles(sweep, amount);
        append_quartiles(sweep, failed);
        sweep += "\n";
        data += std::to_string(bucket) + " " + fixed_decimal(u.median, 6) + " " + fixed_decimal(u.p25, 6) + " " +
                fixed_decimal(u.p75, 6) + "\n";
      }
      data += "\n\n";  // gnuplot: the next policy is the next data set ("index")
    }
  }
  nlohmann::ordered_json summary;
  summary["experiment"] = "fragmentation-sweep";
  summary["nodes_file"] = spec.nodes_path;
  summary["pods_dir"] = spec.pods_dir;
  summary["traces"] = spec.traces;
  std::vector<std::string> policies;
  for (const PlacementExperimentPolicy p : spec.policies) policies.emplace_back(policy_name(p));
  summary["policies"] = policies;
  summary["seeds"] = spec.seeds;
  summary["inflation"] = spec.inflation;
  summary["runs"] = keys.size();
  summary["quartiles"] = "linear interpolation between closest ranks (numpy default, Hyndman-Fan type 7)";

  SweepReport report;
  report.runs = keys.size();
  // The whole set is staged and swapped in at the end (kill-safe, docs/reliability.md).
  OutputSet set(spec.output_dir);
  if (spec.plot) {
    const std::string plots = (std::filesystem::path(set.staging_dir()) / "plots").string();
    for (const std::string& trace : spec.traces) {
      set.write("plots/" + trace + ".dat", plot_data[trace]);
      std::string script;
      script += "# Drawn by sharesim place-sweep: unallocated GPU % (100 - allocation) against arrived workload %,\n";
      script += "# median over seeds (line) and the quartile band (shaded), one colour per policy.\n";
      script += "set terminal svg size 900,560 font 'sans,13' background rgb 'white'\n";
      script += "set output " + quote_gnuplot("." + trace + ".svg.tmp") + "\n";
      script += "set title " +
                quote_gnuplot("openb " + trace + ": unallocated GPU vs arrived workload (" +
                              std::to_string(spec.seeds.size()) + " seeds)") +
                "\n";
      script += "set xlabel 'Arrived GPU workload (% of cluster GPU capacity)'\n";
      script += "set ylabel 'Unallocated GPU (% of cluster GPU capacity)'\n";
      script += "set key top left\nset grid\nset style fill transparent solid 0.2 noborder\n";
      script += "plot ";
      for (std::size_t p = 0; p < spec.policies.size(); ++p) {
        const std::string file = quote_gnuplot(trace + ".dat");
        const std::string index_text = std::to_string(p);
        const std::string colour = std::to_string(p + 1);
        if (p > 0) script += ", \\\n     ";
        script += file + " index " + index_text + " using 1:3:4 with filledcurves lc " + colour +
                  " notitle, \\\n     " + file + " index " + index_text + " using 1:2 with lines lw 2 lc " + colour +
                  " title " + quote_gnuplot(std::string(policy_name(spec.policies[p])));
      }
      script += "\n";
      const std::string script_name = trace + ".gp";
      set.write("plots/" + script_name, script);
      // A failure drops the staged set.
      run_gnuplot((std::filesystem::path(plots) / script_name).string(), " or pass --no-plot");
      std::error_code ec;
      std::filesystem::rename(std::filesystem::path(plots) / ("." + trace + ".svg.tmp"),
                              std::filesystem::path(plots) / (trace + ".svg"), ec);
      if (ec) throw InputError(plots, "", "cannot rename the plot into place: " + ec.message());
      for (const char* ext : {".dat", ".gp", ".svg"}) report.files.push_back("plots/" + trace + ext);
    }
  }
  set.write("runs.csv", runs);
  set.write("sweep.csv", sweep);
  set.write("summary.json", summary.dump(2) + "\n");
  set.commit();
  report.files.insert(report.files.begin(), {"sweep.csv", "runs.csv", "summary.json"});
  return report;
}

}  // namespace sharesim
