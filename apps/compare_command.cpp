#include "apps/compare_command.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "apps/compare_run.h"
#include "apps/scenario_run.h"
#include "apps/report/html_report.h"
#include "apps/report_command.h"
#include "apps/seed_option.h"

namespace sharesim {

struct CompareCommand {
  CLI::App* command = nullptr;
  std::string path;
  std::string policies = default_compare_policies();
  std::optional<std::string> seed;
  std::string output;
  std::vector<std::string> sets;
  std::string catalog_path;
  bool quiet = false;
  bool report = false;
  bool strict = false;
};

std::shared_ptr<CompareCommand> add_compare_command(CLI::App& app) {
  auto options = std::make_shared<CompareCommand>();
  CLI::App* compare =
      app.add_subcommand("compare", "Run a scenario's workload and seed under each sharing policy, side by side");
  options->command = compare;
  compare->add_option("scenario", options->path, "Scenario file (JSON)")->required();
  compare->add_option(
      "--policies", options->policies,
      "Comma-separated policies or the scenario's compare.variants (default: " + default_compare_policies() + ")");
  compare->add_option("--seed", options->seed, "Seed (overrides the scenario's), the same for every policy");
  compare->add_option("-o,--output", options->output, "Output directory (default: results/runs/<name>-compare)")
      ->check(empty_output_problem);
  compare->add_option("--set", options->sets, "Override a field: path=value (e.g. workload.generators.0.count=500)")
      ->allow_extra_args(false);
  compare->add_option("--catalog", options->catalog_path, "GPU catalog file instead of the built-in one");
  compare->add_flag("-q,--quiet", options->quiet, "Print nothing on success");
  compare->add_flag("--report", options->report, "Also write DIR/report.html: plots and tables (needs gnuplot)");
  compare->add_flag("--strict", options->strict,
                    "Exit 3 when a variant placed no job or left most jobs pending (outputs are written anyway)");
  return options;
}

bool compare_command_chosen(const CompareCommand& command) { return command.command->parsed(); }

int run_compare_command(const CompareCommand& command) {
  GpuCatalog storage;
  if (!command.catalog_path.empty()) storage = GpuCatalog::load_file(command.catalog_path);
  const GpuCatalog& catalog = command.catalog_path.empty() ? GpuCatalog::builtin() : storage;
  const std::vector<std::string> names = parse_policy_list(command.policies);
  std::vector<Override> overrides;
  for (const std::string& set : command.sets) overrides.push_back(parse_override(set));
  if (command.seed) overrides.push_back({"seed", std::to_string(parse_seed_option(*command.seed))});
  const Scenario scenario = load_scenario_file(command.path, catalog, overrides);
  // Its cluster built once, as `validate` does: the variants replace the pools' sharing, so a
  // bad sharing config in the file or a --set (policy=bogus) was never read, and passed.
  build_scenario_cluster(scenario, catalog);
  const std::string output = command.output.empty() ? "results/runs/" + scenario.name + "-compare" : command.output;
  CompareRun compare(scenario, catalog, names);
  compare.run(!command.quiet && isatty(STDERR_FILENO));
  compare.write_outputs(output);
  if (!command.quiet) std::cout << compare.table(output);
  // The table and the warnings first: a report that cannot be made (no gnuplot) must not hide them.
  const int status = report_warnings(compare.warnings(), command.strict);
  if (command.report) {
    const std::string report = write_html_report(output);
    if (!command.quiet) std::cout << "report      " << report << "\n";
  }
  return status;
}

}  // namespace sharesim
