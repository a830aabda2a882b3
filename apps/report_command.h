#pragma once
// `sharesim report DIR`: the HTML report (apps/report/html_report.h) of a directory that `run`
// or `compare` wrote; `run --report` and `compare --report` write the same file themselves.
// Also the one place that says what --strict does with a run's warnings.
#include <memory>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace sharesim {

// Exit status of `run --strict` / `compare --strict` when a run placed nothing or left most
// jobs pending (apps/run_verdict.h); the outputs are written all the same.
inline constexpr int kExitStrictWarning = 3;

struct ReportCommand;  // the parsed options

std::shared_ptr<ReportCommand> add_report_command(CLI::App& app);
bool report_command_chosen(const ReportCommand& command);
int run_report_command(const ReportCommand& command);

// Prints each warning on stderr ("sharesim: warning: ..."); returns kExitStrictWarning when
// `strict` and there is one, else 0.
int report_warnings(const std::vector<std::string>& warnings, bool strict);

}  // namespace sharesim
