#include "apps/check_command.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "regression/run_check.h"
#include "sim/input/input_error.h"

namespace sharesim {

struct CheckCommand {
  CLI::App* command = nullptr;
  std::string run_dir;
  std::string baseline_dir;
  std::vector<std::string> tolerances;
  double alpha = 0.01;
  std::optional<std::string> junit;  // set when given, even empty (an error)
  std::optional<std::string> markdown;
  bool update = false;
};

std::shared_ptr<CheckCommand> add_check_command(CLI::App& app) {
  auto options = std::make_shared<CheckCommand>();
  CLI::App* check =
      app.add_subcommand("check", "Compare a run's metrics with a baseline run's (exit 1 on a regression)");
  options->command = check;
  check->add_option("run", options->run_dir, "Run directory (summary.json) or replicated runs (runs.csv)")->required();
  check->add_option("--baseline", options->baseline_dir, "Baseline directory of the same kind")->required();
  check
      ->add_option("--tol", options->tolerances,
                   "Tolerance of matching metrics: PATH=5% (relative), PATH=0.5 (absolute) or PATH=exact; '*' "
                   "matches anything; later wins")
      ->allow_extra_args(false);
  // Not CLI::Range: its comparisons are false for NaN, and --alpha nan turned the test off.
  // Plain decimals only (parse_plain_decimal): strtod took "0x0.1" and " 0.1".
  const CLI::Validator from_zero_to_one(
      [](std::string& text) -> std::string {
        const std::optional<double> value = parse_plain_decimal(text);
        if (!value || *value > 1) return "expected a number from 0 to 1, found " + text;
        return "";
      },
      "[0, 1]");
  check->add_option("--alpha", options->alpha, "Replicated runs: significance level of Welch's t test (default 0.01)")
      ->check(from_zero_to_one);
  check->add_option("--junit", options->junit, "Write a JUnit XML report (a testcase per metric)");
  check->add_option("--markdown", options->markdown, "Write a Markdown summary (for a CI job page)");
  check->add_flag("--update", options->update, "Rewrite the baseline from the run (exit 0)");
  return options;
}

bool check_command_chosen(const CheckCommand& command) { return command.command->parsed(); }

int run_check_command(const CheckCommand& command) {
  CheckOptions options;
  options.alpha = command.alpha;
  for (const std::string& rule : command.tolerances) options.tolerances.push_back(parse_tolerance_rule(rule, "--tol"));
  // Every report path is checked before anything is read or written: bad input leaves no
  // report behind.
  std::vector<std::pair<std::string, std::string>> reports;
  if (command.junit) reports.emplace_back("--junit", *command.junit);
  if (command.markdown) reports.emplace_back("--markdown", *command.markdown);
  require_report_paths(reports);
  // --update into a new (absent or empty) baseline: the run is read and checked all the same,
  // and the reports list its metrics as new.
  const bool new_baseline = command.update && is_new_baseline(command.baseline_dir);
  const CheckReport report = new_baseline ? check_new_baseline(command.run_dir, command.baseline_dir, options)
                                          : check_run(command.run_dir, command.baseline_dir, options);
  if (command.junit) write_file_making_dirs("--junit", *command.junit, format_report_junit(report));
  if (command.markdown) write_file_making_dirs("--markdown", *command.markdown, format_report_markdown(report));
  std::cout << format_report_text(report);
  if (command.update) {
    for (const std::string& written : update_baseline(command.run_dir, command.baseline_dir)) {
      std::cout << "check: wrote " << written << (new_baseline ? " (new baseline)" : "") << "\n";
    }
    return 0;
  }
  return report.failures() > 0 ? 1 : 0;
}

}  // namespace sharesim
