#pragma once
// `sharesim compare SCENARIO [--policies LIST] [--seed N] [-o DIR] [--set PATH=VALUE]... [-q]`:
// the same workload and seed under each sharing policy, side by side (apps/compare_run.h).
// The front end only parses and prints.
#include <memory>

namespace CLI {
class App;
}

namespace sharesim {

struct CompareCommand;  // the parsed options

// Adds the subcommand to `app`; the returned object receives its options.
std::shared_ptr<CompareCommand> add_compare_command(CLI::App& app);
// True when the command line chose it.
bool compare_command_chosen(const CompareCommand& command);
// Runs it; returns the exit code. Throws InputError for bad input (exit 2).
int run_compare_command(const CompareCommand& command);

}  // namespace sharesim
