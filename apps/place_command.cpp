#include "apps/place_command.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <limits>
#include <optional>
#include <thread>

#include "apps/sweep_spec.h"
#include "experiments/fragmentation/experiment_input.h"
#include "experiments/fragmentation/placement_run.h"
#include "experiments/fragmentation/pod_sequence.h"
#include "experiments/fragmentation/sweep.h"
#include "experiments/fragmentation/target_workload.h"
#include "sim/metrics/output_set.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"

namespace sharesim {

struct PlaceCommands {
  CLI::App* place = nullptr;
  CLI::App* sweep = nullptr;
  std::string nodes, pods, pods_dir, policy, output;
  std::string seed = "42";
  std::string inflation = "1.3";
  std::optional<std::string> traces, policies;  // set when given, even empty (an error)
  std::string seeds = "42-51", jobs;
  bool bench = false, quiet = false, no_plot = false;
};

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::uint64_t parse_unsigned(const std::string& option, const std::string& text, std::uint64_t max_value) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || value > max_value) {
    throw InputError(option, "",
                     "expected an integer from 0 to " + std::to_string(max_value) + ", found " + quote(text));
  }
  return value;
}

double parse_inflation(const std::string& text) {
  double value = -1;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || !(value >= 0.0) || value > 1000.0) {
    throw InputError("--inflation", "", "expected a number from 0 (no inflation) to 1000, found " + quote(text));
  }
  return value;
}

PlacementExperimentPolicy parse_policy(const std::string& option, const std::string& text) {
  const std::optional<PlacementExperimentPolicy> policy = parse_placement_experiment_policy(text);
  if (!policy) {
    throw InputError(option, "",
                     "expected one of " + quoted_list(placement_experiment_policy_names()) + ", found " + quote(text));
  }
  return *policy;
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    items.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return items;
}

// "42-51" or "1,5,9" (or a mix: "1,3-4").
std::vector<std::uint64_t> parse_seeds(const std::string& text) { return parse_seed_list(text, "--seeds", ""); }

int run_place(const PlaceCommands& c) {
  const PlacementExperimentPolicy policy = parse_policy("--policy", c.policy);
  const std::uint64_t seed =
      parse_unsigned("--seed", c.seed, static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()));
  const double inflation = parse_inflation(c.inflation);
  const auto start = Clock::now();
  const ExperimentInput input = load_experiment_input(c.nodes, c.pods);
  const TargetWorkload workload = build_target_workload(input.pods);
  const std::vector<std::uint32_t> sequence = build_pod_sequence(input, inflation, seed);
  const double load_s = seconds_since(start);
  const auto run_start = Clock::now();
  const PlacementRunResult result = run_placement(input, workload, sequence, policy, seed);
  const double run_s = seconds_since(run_start);
  OutputSet set(c.output);
  set.write("curve.csv", curve_csv(result.curve));
  set.write("summary.json", placement_summary_json(input, workload, result, policy, seed, inflation));
  set.commit();
  const double cluster = static_cast<double>(input.cluster_gpu_milli);
  if (c.bench) {
    std::printf(
        "bench: place %s seed %llu: %zu nodes, %lld pods; read+prepare %.3f s, placement %.3f s (%.0f pods/s)\n",
        std::string(policy_name(policy)).c_str(), static_cast<unsigned long long>(seed), input.nodes.size(),
        static_cast<long long>(result.pods), load_s, run_s, run_s > 0 ? static_cast<double>(result.pods) / run_s : 0.0);
  }
  if (!c.quiet) {
    std::printf(
        "%s seed %llu: %lld pods arrived (%.1f%% of cluster GPU), %lld placed, %lld failed; allocation "
        "%.2f%%, fragmentation %.2f%% of idle GPU\noutputs     %s/\n",
        std::string(policy_name(policy)).c_str(), static_cast<unsigned long long>(seed),
        static_cast<long long>(result.pods), static_cast<double>(result.arrived_gpu_milli) / cluster * 100.0,
        static_cast<long long>(result.placed_pods), static_cast<long long>(result.failed_pods),
        static_cast<double>(result.allocated_gpu_milli) / cluster * 100.0, result.final_frag_ratio_pct,
        c.output.c_str());
  }
  return 0;
}

// Whether list[i] is also one of the items before it.
bool listed_before(const std::vector<std::string>& list, std::size_t i) {
  return std::find(list.begin(), list.begin() + static_cast<std::ptrdiff_t>(i), list[i]) !=
         list.begin() + static_cast<std::ptrdiff_t>(i);
}

int run_sweep_command(const PlaceCommands& c) {
  SweepSpec spec;
  spec.nodes_path = c.nodes;
  spec.pods_dir = c.pods_dir;
  // Given empty, a list ran everything, as if it had been left out.
  if (c.traces && c.traces->empty()) throw InputError("--traces", "", "expected trace names, found an empty list");
  if (c.policies && c.policies->empty()) {
    throw InputError("--policies", "", "expected policy names, found an empty list");
  }
  spec.traces = c.traces ? split_list(*c.traces) : fragmentation_sweep_traces();
  for (std::size_t i = 0; i < spec.traces.size(); ++i) {
    const std::string& trace = spec.traces[i];
    if (trace.empty() || trace.find_first_of("/\\ ") != std::string::npos) {
      throw InputError("--traces", "", "expected trace names such as \"default\" or \"cpu050\", found " + quote(trace));
    }
    // Listed twice, a trace ran twice and sweep.csv held its rows twice.
    if (listed_before(spec.traces, i)) throw InputError("--traces", "", "trace " + quote(trace) + " is listed twice");
  }
  if (!c.policies) {
    for (const std::string& name : placement_experiment_policy_names()) {
      if (name == "gpuclustering-milli") continue;  // a variant, not one of the paper's six
      spec.policies.push_back(*parse_placement_experiment_policy(name));
    }
  } else {
    // Compared by the policy each name means: "best-fit" and "bestfit" are one policy, which
    // ran twice and doubled sweep.csv's rows.
    std::vector<std::string> canonical;
    for (const std::string& name : split_list(*c.policies)) {
      spec.policies.push_back(parse_policy("--policies", name));
      canonical.emplace_back(policy_name(spec.policies.back()));
      if (listed_before(canonical, canonical.size() - 1)) {
        throw InputError("--policies", "", "policy " + quote(canonical.back()) + " is listed twice (as " + quote(name) + ")");
      }
    }
  }
  spec.seeds = parse_seeds(c.seeds);
  spec.inflation = parse_inflation(c.inflation);
  spec.threads = c.jobs.empty()
                     ? std::max(1u, std::thread::hardware_concurrency())
                     : static_cast<unsigned>(std::max<std::uint64_t>(1, parse_unsigned("--jobs", c.jobs, 1024)));
  spec.output_dir = c.output;
  spec.plot = !c.no_plot;
  const auto start = Clock::now();
  const bool show_progress = !c.quiet && isatty(STDERR_FILENO);  // a progress line only on a terminal
  const SweepReport report = run_sweep(spec, [&](std::size_t done, std::size_t total) {
    if (show_progress && (done % 20 == 0 || done == total)) {
      std::fprintf(stderr, "\r%zu/%zu runs  %.0f s   ", done, total, seconds_since(start));
      if (done == total) std::fputs("\n", stderr);
    }
  });
  const double wall = seconds_since(start);
  if (!c.quiet || c.bench) {
    std::printf(
        "place-sweep: %zu runs (%zu traces x %zu policies x %zu seeds) on %u threads in %.1f s\noutputs     %s/\n",
        report.runs, spec.traces.size(), spec.policies.size(), spec.seeds.size(), spec.threads, wall, c.output.c_str());
  }
  return 0;
}

}  // namespace

std::shared_ptr<PlaceCommands> add_place_commands(CLI::App& app) {
  auto c = std::make_shared<PlaceCommands>();
  const std::string policies = "random|dotprod|gpuclustering|gpupacking|bestfit|fgd|gpuclustering-milli";
  c->place = app.add_subcommand(
      "place", "Fragmentation experiment (Weng et al., ATC'23): place an openb pod list on an openb node list");
  c->place->add_option("--nodes", c->nodes, "Node list (openb_node_list_*.csv)")->required();
  c->place->add_option("--pods", c->pods, "Pod list (openb_pod_list_*.csv)")->required();
  c->place->add_option("--policy", c->policy, "Score policy: " + policies)->required();
  c->place->add_option("--seed", c->seed, "Seed (default 42)");
  c->place->add_option("--inflation", c->inflation,
                       "Inflate the workload to this multiple of the cluster GPU (default 1.3; 0: none)");
  c->place->add_option("-o,--output", c->output, "Output directory (curve.csv, summary.json)")->required();
  c->place->add_flag("--bench", c->bench, "Print timing figures");
  c->place->add_flag("-q,--quiet", c->quiet, "Print nothing on success");

  c->sweep =
      app.add_subcommand("place-sweep", "The whole fragmentation experiment: traces x policies x seeds, in parallel");
  c->sweep->add_option("--nodes", c->nodes, "Node list (openb_node_list_gpu_node.csv)")->required();
  c->sweep->add_option("--pods-dir", c->pods_dir, "Folder with openb_pod_list_<trace>.csv")->required();
  c->sweep->add_option("--traces", c->traces, "Comma-separated traces (default: the 17 of the paper)");
  c->sweep->add_option("--policies", c->policies, "Comma-separated policies (default: all six)");
  c->sweep->add_option("--seeds", c->seeds, "Seeds: FIRST-LAST or a comma list (default 42-51)");
  c->sweep->add_option("--inflation", c->inflation, "As for place (default 1.3)");
  c->sweep->add_option("-j,--jobs", c->jobs, "Parallel runs (default: all cores)");
  c->sweep->add_flag("--no-plot", c->no_plot, "Do not draw the plots (gnuplot)");
  c->sweep->add_option("-o,--output", c->output, "Output directory (sweep.csv, runs.csv, summary.json, plots/)")
      ->required();
  c->sweep->add_flag("--bench", c->bench, "Print the wall time even with -q");
  c->sweep->add_flag("-q,--quiet", c->quiet, "Print nothing on success");
  return c;
}

bool place_command_chosen(const PlaceCommands& commands) {
  return commands.place->parsed() || commands.sweep->parsed();
}

int run_place_command(const PlaceCommands& commands) {
  if (commands.place->parsed()) return run_place(commands);
  return run_sweep_command(commands);
}

}  // namespace sharesim
