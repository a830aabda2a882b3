#pragma once
// `sharesim place` (one run of the fragmentation experiment of Weng et al., USENIX ATC'23, on
// an openb node list and pod list) and `sharesim place-sweep` (the whole experiment: traces x
// policies x seeds, in parallel). The front end only parses and prints; the work is in
// experiments/fragmentation/ (docs/placement.md).
#include <memory>

namespace CLI {
class App;
}

namespace sharesim {

struct PlaceCommands;  // the parsed options of both subcommands

// Adds both subcommands to `app`; the returned object receives their options.
std::shared_ptr<PlaceCommands> add_place_commands(CLI::App& app);
// True when the command line chose one of them.
bool place_command_chosen(const PlaceCommands& commands);
// Runs the chosen one; returns the exit code. Throws InputError for bad input (exit 2).
int run_place_command(const PlaceCommands& commands);

}  // namespace sharesim
