#include "apps/report_command.h"

#include <CLI/CLI.hpp>
#include <iostream>

#include "apps/report/html_report.h"

namespace sharesim {

struct ReportCommand {
  CLI::App* command = nullptr;
  std::string dir;
};

std::shared_ptr<ReportCommand> add_report_command(CLI::App& app) {
  auto options = std::make_shared<ReportCommand>();
  options->command = app.add_subcommand(
      "report", "Write DIR/report.html (plots and tables) for a directory that run or compare wrote");
  options->command->add_option("dir", options->dir, "Output directory of `sharesim run` or `sharesim compare`")
      ->required();
  return options;
}

bool report_command_chosen(const ReportCommand& command) { return command.command->parsed(); }

int run_report_command(const ReportCommand& command) {
  const std::string path = write_html_report(command.dir);  // throws before anything is printed
  std::cout << "report      " << path << "\n";
  return 0;
}

int report_warnings(const std::vector<std::string>& warnings, bool strict) {
  for (const std::string& warning : warnings) std::cerr << "sharesim: warning: " << warning << "\n";
  return strict && !warnings.empty() ? kExitStrictWarning : 0;
}

}  // namespace sharesim
