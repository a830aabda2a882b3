#pragma once
// `sharesim profiles fit --miso DIR --gavel DIR -o DIR`, `sharesim profiles list` and
// `sharesim profiles mig-check --miso DIR`: build the workload profiles from the measured data,
// list the built-in ones (docs/profiles.md), and compare the MIG policy's slice speeds with
// MISO's measurements (apps/mig_speed_check.h).
// The work is done in workloads/profiles/; this file declares the options, passes the
// contention model in and prints.
#include <memory>

namespace CLI {
class App;
}

namespace sharesim {

struct ProfilesCommand;  // the parsed options

// Adds the `profiles` subcommand (with `fit`, `list` and `mig-check`) to `app`.
std::shared_ptr<ProfilesCommand> add_profiles_command(CLI::App& app);
// True when the command line chose it.
bool profiles_command_chosen(const ProfilesCommand& command);
// Runs it; returns the exit code. Throws InputError for bad input (exit 2).
int run_profiles_command(const ProfilesCommand& command);

}  // namespace sharesim
