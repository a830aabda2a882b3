#pragma once
// `sharesim corun --policy POLICY --gpu MODEL IN.csv -o OUT.csv [--set KEY=VALUE]...`: the
// command line of apps/corun.h.
#include <memory>

namespace CLI {
class App;
}

namespace sharesim {

struct CorunCommand;  // the parsed options

std::shared_ptr<CorunCommand> add_corun_command(CLI::App& app);
bool corun_command_chosen(const CorunCommand& command);
// Runs it; returns the exit code. Throws InputError for bad input (exit 2).
int run_corun_command(const CorunCommand& command);

}  // namespace sharesim
