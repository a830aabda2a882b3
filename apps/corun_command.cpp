#include "apps/corun_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "apps/corun.h"
#include "sim/input/input_error.h"
#include "sim/metrics/output_set.h"

namespace sharesim {

struct CorunCommand {
  CLI::App* corun = nullptr;
  CorunRequest request;
  std::string output;
};

std::shared_ptr<CorunCommand> add_corun_command(CLI::App& app) {
  auto c = std::make_shared<CorunCommand>();
  c->corun = app.add_subcommand("corun", "Predict each job's speed when a group shares one GPU under a sharing policy");
  c->corun->add_option("input", c->request.input, "CSV: group,job,gpu_util_pct,mem_util_pct,mem_mib[,profile,...]")
      ->required();
  c->corun->add_option("--policy", c->request.policy, "Sharing policy (timeslice, mps, mig, vgpu, fractional, ...)")
      ->required();
  c->corun->add_option("--gpu", c->request.gpu, "GPU model (catalog id; sharesim gpus)")->required();
  c->corun->add_option("--set", c->request.sets, "A sharing setting, KEY=VALUE (e.g. active_thread_percentage=50)")
      ->allow_extra_args(false);
  c->corun->add_option("-o,--output", c->output, "CSV to write: the input plus duty, sm, bw, speed, slowdown, status")
      ->required();
  return c;
}

bool corun_command_chosen(const CorunCommand& command) { return command.corun->parsed(); }

int run_corun_command(const CorunCommand& command) {
  const CorunResult result = predict_coruns(command.request, GpuCatalog::builtin());
  write_file_atomically(command.output, result.csv);  // a reader never sees half a file
  std::cout << "corun: " << result.rows << " jobs in " << result.groups << " groups under " << command.request.policy
            << " on " << command.request.gpu << " -> " << command.output << "\n";
  return 0;
}

}  // namespace sharesim
