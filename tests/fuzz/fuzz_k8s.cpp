// Fuzz harness: `sharesim import k8s` with the input in one role (FUZZ_K8S_ROLE: nodes,
// plugin, mig, workload, scheduler) and the other roles filled from tests/data/k8s, so the importer's
// later stages (pools, sharing, pods, the scenario loader) see the mutated document too.
// Built once per role.
#include <string>

#include "importers/k8s/k8s_import.h"
#include "sim/cluster/gpu_catalog.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sharesim;
  const std::string role = FUZZ_K8S_ROLE;
  const std::string k8s = SHARESIM_SOURCE_DIR "/tests/data/k8s/";
  const std::string input = fuzz::input_file(data, size, ".yaml");
  K8sImportInputs inputs;
  if (role == "nodes") {
    inputs.nodes = input;
    inputs.device_plugin_config = k8s + "timeslice-configmap.yaml";
    inputs.workloads = {k8s + "shared-pods.yaml"};
  } else if (role == "plugin") {
    inputs.nodes = k8s + "timeslice-node.yaml";
    inputs.device_plugin_config = input;
  } else if (role == "mig") {
    inputs.nodes = k8s + "mig-node.yaml";
    inputs.device_plugin_config = k8s + "mig-plugin-config.yaml";
    inputs.mig_config = input;
  } else if (role == "scheduler") {
    inputs.nodes = k8s + "two-nodes.json";
    inputs.scheduler_config = input;
    inputs.workloads = {k8s + "preemption-pods.yaml"};
  } else {
    inputs.nodes = k8s + "two-nodes.json";
    inputs.workloads = {input};
  }
  fuzz::refuse_or_accept([&] { import_k8s(inputs, GpuCatalog::builtin()); });
  return 0;
}
