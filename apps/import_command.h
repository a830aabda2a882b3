#pragma once
// `sharesim import k8s`: the command line of the Kubernetes importer (importers/k8s/,
// docs/kubernetes.md). It declares the options, calls import_k8s and writes the scenario.
#include <CLI/CLI.hpp>
#include <memory>

#include "importers/k8s/k8s_import.h"

namespace sharesim {

struct ImportCommand;
// Adds the `import` subcommand (with its `k8s` subcommand) to the app.
std::shared_ptr<ImportCommand> add_import_command(CLI::App& app);
// Whether the parsed command line chose `import`.
bool import_command_selected(const ImportCommand& command);
// Runs it; throws InputError for bad input (the caller prints it and exits with 2).
int run_import_command(ImportCommand& command);

// import_k8s, then the scenario built and its workload read as `validate` does (a request the
// loader accepts can still fail on the cluster), so that what is written runs. An error found in
// the scenario names the input object it came from (K8sImport::located_in_inputs).
K8sImport import_k8s_checked(const K8sImportInputs& inputs, const GpuCatalog& catalog);

}  // namespace sharesim
