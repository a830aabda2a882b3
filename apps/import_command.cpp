#include "apps/import_command.h"

#include <filesystem>
#include <iostream>

#include "apps/scenario_run.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/metrics/output_files.h"

namespace sharesim {

struct ImportCommand {
  CLI::App* import = nullptr;
  CLI::App* k8s = nullptr;
  K8sImportInputs inputs;
  std::vector<std::string> sets;
  std::string output, catalog_path;
};

std::shared_ptr<ImportCommand> add_import_command(CLI::App& app) {
  auto c = std::make_shared<ImportCommand>();
  c->import = app.add_subcommand("import", "Write a scenario from another system's description of a cluster");
  c->import->require_subcommand(1);
  c->k8s = c->import->add_subcommand("k8s", "A scenario from Kubernetes nodes, device plugin config and manifests");
  c->k8s->add_option("--nodes", c->inputs.nodes, "kubectl get nodes -o json output (JSON or YAML)")->required();
  c->k8s->add_option("--device-plugin-config", c->inputs.device_plugin_config,
                     "NVIDIA device plugin config, bare or its ConfigMap");
  c->k8s->add_option("--mig-config", c->inputs.mig_config, "mig-parted config (mig-configs by name)");
  c->k8s->add_option("--workload", c->inputs.workloads, "Manifests: Pods, Deployments, Jobs, ... (repeatable)")
      ->allow_extra_args(false);
  c->k8s->add_option("--scheduler-config", c->inputs.scheduler_config,
                     "KubeSchedulerConfiguration: score plugins with weights, DefaultPreemption");
  c->k8s->add_option("--set", c->sets, "Override a field of the scenario: path=value")->allow_extra_args(false);
  c->k8s->add_option("--catalog", c->catalog_path, "GPU catalog file instead of the built-in one");
  c->k8s->add_option("-o,--output", c->output, "Scenario file to write")->required();
  return c;
}

bool import_command_selected(const ImportCommand& command) { return command.import->parsed(); }

K8sImport import_k8s_checked(const K8sImportInputs& inputs, const GpuCatalog& catalog) {
  K8sImport imported = import_k8s(inputs, catalog);
  try {
    check_scenario_builds(
        load_scenario_text(imported.scenario.dump(2), imported_scenario_label(inputs.name + ".json"), catalog),
        catalog);
  } catch (const InputError& error) {
    throw imported.located_in_inputs(error);
  }
  return imported;
}

int run_import_command(ImportCommand& c) {
  const std::filesystem::path output(c.output);
  // "" or "dir/" names no file; write_output_file would say the directory cannot be written.
  if (output.filename().empty())
    throw InputError("-o", "",
                     "expected the scenario file to write, found " +
                         (c.output.empty() ? std::string("an empty path") : quote(c.output) + ", a directory"));
  GpuCatalog storage;
  if (!c.catalog_path.empty()) storage = GpuCatalog::load_file(c.catalog_path);
  const GpuCatalog& catalog = c.catalog_path.empty() ? GpuCatalog::builtin() : storage;
  for (const std::string& set : c.sets) c.inputs.overrides.push_back(parse_override(set));
  c.inputs.name = output.stem().string();
  const K8sImport imported = import_k8s_checked(c.inputs, catalog);
  const nlohmann::ordered_json& scenario = imported.scenario;
  write_output_file(output.has_parent_path() ? output.parent_path().string() : ".", output.filename().string(),
                    scenario.dump(2) + "\n");
  for (const std::string& note : imported.notes) std::cerr << "note: " << note << "\n";
  std::cerr << "wrote " << c.output << " (" << scenario["cluster"]["node_pools"].size() << " node pools, "
            << (scenario.contains("workload") ? scenario["workload"]["jobs"].size() : 0) << " jobs)\n";
  return 0;
}

}  // namespace sharesim
