// sharesim: the command-line front end. It parses arguments, calls the libraries and
// prints; everything it does is reachable from the libraries (apps/scenario_run.h).
//
// Exit codes: 0 success, 2 bad input (scenario, trace, catalog, command line), 1 internal
// error, 3 a warning under --strict (apps/report_command.h).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <thread>

#include "apps/build_info.h"
#include "apps/check_command.h"
#include "apps/compare_command.h"
#include "apps/corun_command.h"
#include "apps/import_command.h"
#include "apps/place_command.h"
#include "apps/profiles_command.h"
#include "apps/progress_bar.h"
#include "apps/report/html_report.h"
#include "apps/report_command.h"
#include "apps/run_verdict.h"
#include "apps/scenario_run.h"
#include "apps/seed_option.h"
#include "apps/size_command.h"
#include "apps/summary_table.h"
#include "apps/sweep_command.h"
#include "apps/trace_command.h"
#include "policies/policy_registry.h"
#include "sim/cluster/gpu_table.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/input/json_pointer.h"
#include "sim/metrics/output_set.h"
#include "workloads/native_trace.h"
#include "workloads/standalone_workload.h"

namespace {

using namespace sharesim;

struct ScenarioArgs {
  std::string path;
  std::vector<std::string> sets;
  std::string catalog_path;
  std::optional<std::string> seed;  // --seed N, when given
};

void add_scenario_args(CLI::App* command, ScenarioArgs& args) {
  command->add_option("scenario", args.path, "Scenario file (JSON)")->required();
  // One value per --set, so "--set a=1 scenario.json" does not swallow the scenario path.
  command->add_option("--set", args.sets, "Override a field: path=value (e.g. workload.generators.0.count=500)")
      ->allow_extra_args(false);
  command->add_option("--catalog", args.catalog_path, "GPU catalog file instead of the built-in one");
}

const GpuCatalog& catalog_for(const ScenarioArgs& args, GpuCatalog& storage) {
  if (args.catalog_path.empty()) return GpuCatalog::builtin();
  storage = GpuCatalog::load_file(args.catalog_path);
  return storage;
}

Scenario load(const ScenarioArgs& args, const GpuCatalog& catalog) {
  std::vector<Override> overrides;
  for (const std::string& set : args.sets) overrides.push_back(parse_override(set));
  if (args.seed) overrides.push_back({"seed", std::to_string(parse_seed_option(*args.seed))});
  Scenario scenario = load_scenario_file(args.path, catalog, overrides);
  return scenario;
}

struct RunFlags {
  bool quiet = false;
  bool report = false;  // also write report.html
  bool strict = false;  // exit kExitStrictWarning on a warning
};

int command_run(const ScenarioArgs& args, std::string output_dir, const RunFlags& flags) {
  const bool quiet = flags.quiet;
  GpuCatalog storage;
  const GpuCatalog& catalog = catalog_for(args, storage);
  const Scenario scenario = load(args, catalog);
  if (output_dir.empty()) output_dir = scenario.output.dir;
  if (output_dir.empty()) output_dir = "results/runs/" + scenario.name;
  ScenarioRun run(scenario, catalog);
  ProgressBar bar(scenario.until, run.runtime());
  // One run has the machine to itself: its metrics are computed beside jobs.csv, whose rows are
  // formatted on every core (sweeps, which run several scenarios at once, keep to one thread
  // per run).
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  if (!quiet && isatty(STDERR_FILENO)) {
    run.run([&bar](SimTime now) { bar.update(now); }, threads);
  } else {
    run.run({}, threads);
  }
  bar.finish();
  run.write_outputs(output_dir, threads);
  if (!quiet) std::cout << format_summary_table(run, output_dir);
  // The table and the warnings first: a report that cannot be made (no gnuplot) must not hide them.
  const int status = report_warnings(run_warnings(run, "the run"), flags.strict);
  if (flags.report) {
    const std::string report = write_html_report(output_dir);
    if (!quiet) std::cout << "report      " << report << "\n";
  }
  return status;
}

int command_validate(const ScenarioArgs& args) {
  GpuCatalog storage;
  const GpuCatalog& catalog = catalog_for(args, storage);
  const Scenario scenario = load(args, catalog);
  const ScenarioCounts found = check_scenario_builds(scenario, catalog);
  const auto count = [](std::size_t n, const char* one, const char* many) {
    return count_of(static_cast<long long>(n), one, many);
  };
  std::cout << args.path << ": valid (" << count(found.nodes, "node", "nodes") << ", "
            << count(found.gpus, "GPU", "GPUs") << ", " << count(found.jobs, "job", "jobs") << ")\n";
  return 0;
}

int command_describe_nodes(const ScenarioArgs& args, bool json) {
  GpuCatalog storage;
  const GpuCatalog& catalog = catalog_for(args, storage);
  const Scenario scenario = load(args, catalog);
  const ScenarioCluster built = build_scenario_cluster(scenario, catalog);  // no workload needed
  if (json) {
    std::cout << describe_nodes_json(*built.cluster).dump(2) << "\n";
  } else {
    std::cout << describe_nodes_text(*built.cluster);
  }
  return 0;
}

// The workload entry whose jobs are named "<name>-...": a generator, a job list entry, else the
// trace.
std::string workload_entry_pointer(const nlohmann::json& workload, const std::string& name) {
  if (const auto generators = workload.find("generators"); generators != workload.end()) {
    for (std::size_t i = 0; i < generators->size(); ++i) {
      if (generator_name((*generators)[i], i) == name) return pointer_append("/workload/generators", i);
    }
  }
  if (const auto jobs = workload.find("jobs"); jobs != workload.end()) {
    for (std::size_t i = 0; i < jobs->size(); ++i) {
      if ((*jobs)[i].at("name").get<std::string>() == name) return pointer_append("/workload/jobs", i);
    }
  }
  return "/workload/trace";
}

int command_generate(const ScenarioArgs& args, const std::string& output) {
  GpuCatalog storage;
  const GpuCatalog& catalog = catalog_for(args, storage);
  const Scenario scenario = load(args, catalog);
  const ScenarioRun run(scenario, catalog);  // its cluster checks that every job could run
  StandaloneWorkload workload(scenario, catalog, registered_per_device_resources(), &run.cluster());
  // Service and notebook generators add their origins only as their services arrive.
  if (const auto generators = scenario.workload.find("generators"); generators != scenario.workload.end()) {
    for (std::size_t i = 0; i < generators->size(); ++i) {
      const std::string kind = (*generators)[i].at("kind").get<std::string>();
      if (kind == "inference" || kind == "notebook") {
        throw InputError(scenario.file, "/workload/generators/" + std::to_string(i) + "/kind",
                         "a generator of kind \"" + kind +
                             "\" makes services, which a native trace cannot hold (its rows are steady work); "
                             "generate writes training and batch jobs only");
      }
    }
  }
  for (const JobOrigin& origin : workload.origins()) {
    if (origin.behaviour) {
      throw InputError(scenario.file, "/workload/jobs",
                       "job \"" + origin.name + "\" is of kind \"" + origin.kind +
                           "\", which a native trace cannot hold (its rows are steady work); generate writes "
                           "training and batch jobs only");
    }
  }
  // A replay of the trace must run what the scenario runs (docs/traces.md): a job a native row
  // cannot describe is refused, at the entry that made it.
  const int default_gpu = workload.resource_names().find(kNvidiaGpu);
  const auto refuse_what_a_row_loses = [&](const JobSpec& job, const PodShape& shape, const JobOrigin& origin) {
    const std::string lost = native_row_problem(job, shape, origin, static_cast<ResourceId>(default_gpu));
    if (lost.empty()) return;
    throw InputError(scenario.file, workload_entry_pointer(scenario.workload, origin.name),
                     "expected jobs a native trace row can describe, found " + quote(origin.name) + " with " + lost +
                         "; a replay would run it differently, so generate writes no trace of it");
  };
  std::size_t written = 0;
  // A trace source with a bad row fails half-way through: no partial file is left behind. A
  // missing directory is made, as run makes its output directory.
  write_file_making_dirs("-o", output, [&](std::ostream& out) {
    written = write_native_trace(out, workload.sources(), workload.shapes(), workload.origins(),
                                 refuse_what_a_row_loses);
  });
  std::cerr << "wrote " << written << " jobs to " << output << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"sharesim: a discrete-event simulator of GPU sharing in Kubernetes-style clusters"};
  app.set_version_flag("--version", sharesim_version_line());
  app.require_subcommand(1);

  ScenarioArgs args;
  std::string output_dir;
  RunFlags run_flags;
  bool json = false;

  CLI::App* run = app.add_subcommand("run", "Run a scenario and write its outputs");
  add_scenario_args(run, args);
  run->add_option("-o,--output", output_dir, "Output directory (default: the scenario's output.dir)")
      ->check(empty_output_problem);
  run->add_option("--seed", args.seed, "Seed (overrides the scenario's)");
  run->add_flag("-q,--quiet", run_flags.quiet, "Print nothing on success");
  run->add_flag("--report", run_flags.report, "Also write OUTPUT/report.html: plots and tables (needs gnuplot)");
  run->add_flag("--strict", run_flags.strict,
                "Exit 3 when the run placed no job or left most jobs pending (outputs are written anyway)");

  CLI::App* validate = app.add_subcommand("validate", "Check a scenario without running it");
  add_scenario_args(validate, args);

  CLI::App* describe = app.add_subcommand("describe-nodes", "Show each node's capacity and allocatable resources");
  add_scenario_args(describe, args);
  describe->add_flag("--json", json, "JSON instead of kubectl-style text");

  CLI::App* gpus = app.add_subcommand("gpus", "List the GPU catalog");
  std::string gpus_catalog;
  gpus->add_option("--catalog", gpus_catalog, "GPU catalog file instead of the built-in one");

  CLI::App* generate = app.add_subcommand("generate", "Write the jobs a scenario's workload submits as a native trace");
  add_scenario_args(generate, args);
  std::string trace_output;
  generate->add_option("-o,--output", trace_output, "Trace file to write (CSV); a missing directory is made")
      ->required();
  generate->add_option("--seed", args.seed, "Seed (overrides the scenario's)");

  const auto place = add_place_commands(app);       // place, place-sweep (apps/place_command.h)
  const auto compare = add_compare_command(app);    // compare (apps/compare_command.h)
  const auto profiles = add_profiles_command(app);  // profiles fit / list (apps/profiles_command.h)
  const auto trace = add_trace_command(app);        // trace stats, convert, node-pools (apps/trace_command.h)
  const auto corun = add_corun_command(app);        // corun (apps/corun_command.h)
  const auto check = add_check_command(app);        // check RUN --baseline BASE (apps/check_command.h)
  const auto sweep = add_sweep_command(app);        // sweep, sweep merge (apps/sweep_command.h)
  const auto size = add_size_command(app);          // size (apps/size_command.h)
  const auto report = add_report_command(app);      // report DIR (apps/report_command.h)
  const auto import = add_import_command(app);      // import k8s (apps/import_command.h)

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version arrive as "errors" with exit code 0; they print to stdout.
    if (e.get_exit_code() == 0) return app.exit(e);
    // Every other command-line error is one line, worded as the other input errors are.
    std::string message = e.what();
    std::replace(message.begin(), message.end(), '\n', ' ');
    std::cerr << "sharesim: error: " << message << " (see --help)\n";
    return kExitBadInput;
  }

  try {
    if (place_command_chosen(*place)) return run_place_command(*place);
    if (compare_command_chosen(*compare)) return run_compare_command(*compare);
    if (profiles_command_chosen(*profiles)) return run_profiles_command(*profiles);
    if (trace_command_selected(*trace)) return run_trace_command(*trace);
    if (corun_command_chosen(*corun)) return run_corun_command(*corun);
    if (check_command_chosen(*check)) return run_check_command(*check);
    if (sweep_command_chosen(*sweep)) return run_sweep_command(*sweep);
    if (size_command_chosen(*size)) return run_size_command(*size);
    if (report_command_chosen(*report)) return run_report_command(*report);
    if (*run) return command_run(args, output_dir, run_flags);
    if (import_command_selected(*import)) return run_import_command(*import);
    if (*validate) return command_validate(args);
    if (*describe) return command_describe_nodes(args, json);
    if (*generate) return command_generate(args, trace_output);
    if (*gpus) {
      GpuCatalog storage;
      if (!gpus_catalog.empty()) storage = GpuCatalog::load_file(gpus_catalog);
      std::cout << format_gpu_table(gpus_catalog.empty() ? GpuCatalog::builtin() : storage);
      return 0;
    }
  } catch (const InputError& e) {
    std::cerr << "sharesim: error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::bad_alloc&) {
    // Beyond what the memory budget estimates (e.g. a huge trace): still the input's size.
    std::cerr << "sharesim: error: out of memory: the input needs more memory than this machine gives "
                 "(docs/reliability.md \"Memory budget\")\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "sharesim: internal error: " << e.what() << "\n";
    return kExitInternalError;
  }
  return 0;
}
