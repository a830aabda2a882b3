#pragma once
// `sharesim size SCENARIO --pool NAME --target 'PATH<=X' [--target ...] --seeds A-B [-j N]
// [--policies a,b] -o DIR`: capacity sizing (apps/size_search.h, docs/sweeps.md).
#include <memory>

namespace CLI {
class App;
}

namespace sharesim {

struct SizeCommand;

std::shared_ptr<SizeCommand> add_size_command(CLI::App& app);
bool size_command_chosen(const SizeCommand& command);
int run_size_command(const SizeCommand& command);

}  // namespace sharesim
