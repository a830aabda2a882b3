#include "apps/size_command.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

#include "apps/compare_run.h"
#include "apps/size_search.h"
#include "apps/sweep_spec.h"
#include "sim/metrics/output_files.h"
#include "sim/input/input_error.h"

namespace sharesim {

struct SizeCommand {
  CLI::App* command = nullptr;
  std::string scenario;
  std::string pool;
  std::vector<std::string> targets;
  std::string seeds;
  std::string jobs;
  std::string policies;
  std::vector<std::string> sets;
  std::string output;
  std::int64_t max_nodes = 4096;
  bool quiet = false;
};

std::shared_ptr<SizeCommand> add_size_command(CLI::App& app) {
  auto c = std::make_shared<SizeCommand>();
  c->command =
      app.add_subcommand("size", "The smallest node count of a pool that meets targets, on the mean over seeds");
  c->command->add_option("scenario", c->scenario, "Scenario file (JSON)")->required();
  c->command->add_option("--pool", c->pool, "The node pool to size")->required();
  c->command->add_option("--target", c->targets, "PATH<=X or PATH>=X, PATH a dotted summary.json path (repeatable)")
      ->required()
      ->allow_extra_args(false);
  c->command->add_option("--seeds", c->seeds, "Seeds: FIRST-LAST or a comma list")->required();
  c->command->add_option("-j,--jobs", c->jobs, "Runs at a time (default: the machine's hardware threads)");
  c->command->add_option("--policies,--variants", c->policies,
                         "Answer per sharing policy or variant (built-in names or the scenario's compare.variants)");
  c->command->add_option("--set", c->sets, "Override a field: path=value")->allow_extra_args(false);
  c->command->add_option("-o,--output", c->output, "Output folder (size.json, runs/)")->required();
  c->command->add_option("--max-nodes", c->max_nodes,
                         "The largest node count tried (default 4096); a policy no size up to it satisfies, "
                         "or none could hold the workload, is reported as such");
  c->command->add_flag("-q,--quiet", c->quiet, "Print nothing on success");
  return c;
}

bool size_command_chosen(const SizeCommand& command) { return command.command->parsed(); }

int run_size_command(const SizeCommand& c) {
  SizeRequest request;
  request.scenario_path = c.scenario;
  for (const std::string& set : c.sets) request.sets.push_back(parse_override(set));
  request.pool = c.pool;
  for (const std::string& target : c.targets) request.targets.push_back(parse_size_target(target));
  request.seeds = parse_seed_list(c.seeds, "--seeds", "");
  if (c.command->count("--policies") > 0) request.variants = parse_policy_list(c.policies);  // '' is refused there
  request.threads = parse_thread_count(c.jobs);
  request.output_dir = c.output;
  request.max_nodes = c.max_nodes;
  const bool show = !c.quiet && isatty(STDERR_FILENO) != 0;
  bool drawn = false;
  const std::vector<SizeAnswer> answers = size_pool(request, GpuCatalog::builtin(), [&](const PoolProgress& p) {
    if (!show || p.total == 0) return;
    drawn = true;
    std::fprintf(stderr, "\rsize: %s   ", format_pool_progress(p).c_str());
  });
  if (drawn) std::fputs("\n", stderr);
  write_output_file(c.output, "size.json", size_json(request, answers).dump(2) + "\n");
  if (!c.quiet) std::cout << size_text(request, answers) << "outputs     " << c.output << "/size.json\n";
  return 0;
}

}  // namespace sharesim
