#pragma once
// `sharesim sweep SPEC.json [-j N] [--shard I/N] -o DIR [-q]` and
// `sharesim sweep merge DIR... [-o OUT] [-q]` (docs/sweeps.md). The front end only parses,
// calls apps/sweep_spec.h, apps/run_pool.h and apps/sweep_results.h, and prints.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace sharesim {

struct SweepCommand;

std::shared_ptr<SweepCommand> add_sweep_command(CLI::App& app);
bool sweep_command_chosen(const SweepCommand& command);
int run_sweep_command(const SweepCommand& command);

// A shard: run k of a sweep belongs to shard k mod count.
struct Shard {
  std::size_t index = 0;
  std::size_t count = 1;
};

// "I/N" with 0 <= I < N; InputError(`origin`, ...) otherwise.
Shard parse_shard(const std::string& text, const std::string& origin = "--shard");

// The shard the environment names when --shard is not given: a Slurm array task
// (SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN of SLURM_ARRAY_TASK_COUNT) or a Kubernetes
// Indexed Job's pod (JOB_COMPLETION_INDEX of JOB_COMPLETIONS, which the Job's manifest sets
// to its .spec.completions). Nothing when neither is set. InputError for inconsistent values.
std::optional<Shard> shard_from_environment();

}  // namespace sharesim
