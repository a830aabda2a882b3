#include "apps/trace_command.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "policies/policy_registry.h"
#include "sim/cluster/gpu_catalog.h"
#include "sim/input/input_error.h"
#include "sim/metrics/output_set.h"
#include "workloads/openb_trace.h"
#include "workloads/trace_tools.h"

namespace sharesim {

struct TraceCommand {
  CLI::App* trace = nullptr;
  CLI::App* stats = nullptr;
  CLI::App* convert = nullptr;
  CLI::App* node_pools = nullptr;
  std::string input, output, format = "native", to = "native", catalog_path, throughputs, worker_type, end, gpu_product,
                             gpu_models;
  bool skip_bad_rows = false, sort = false, bench = false, with_cpu_nodes = false;
  std::size_t bins = 24;
};

namespace {

bool is_object_of_strings(const nlohmann::json& value) {
  if (!value.is_object()) return false;
  for (const auto& [key, entry] : value.items()) {
    if (!entry.is_string()) return false;
  }
  return true;
}

void add_trace_options(CLI::App* command, TraceCommand& c) {
  command->add_option("trace", c.input, "Trace file")->required();
  command->add_flag("--skip-bad-rows", c.skip_bad_rows, "Skip rows that cannot be imported; report how many and why");
  command->add_flag("--sort", c.sort, "Sort the trace by submission time first");
  command->add_option("--throughputs", c.throughputs, "gavel: Gavel's throughputs JSON");
  command->add_option("--worker-type", c.worker_type, "gavel: worker type of the throughputs (default v100)");
  command->add_option("--end", c.end, "openb: trace end, e.g. 12902960s; pods still there leave then");
  command->add_option("--gpu-models", c.gpu_models,
                      "openb: JSON object of model overrides, e.g. '{\"G2\":\"A100-80GB\"}'");
  command->add_option("--gpu-product", c.gpu_product, "Catalog id for GPU pods whose row names no model");
  command->add_option("--catalog", c.catalog_path, "GPU catalog file instead of the built-in one");
  command->add_flag("--bench", c.bench, "Print the import time on stderr");
}

nlohmann::json trace_spec(const TraceCommand& c) {
  nlohmann::json spec{{"format", c.format}, {"path", c.input}};
  if (c.skip_bad_rows) spec["skip_bad_rows"] = true;
  if (c.sort) spec["sort"] = true;
  if (!c.throughputs.empty()) spec["throughputs"] = c.throughputs;
  if (!c.worker_type.empty()) spec["worker_type"] = c.worker_type;
  if (!c.end.empty()) {
    if (!parse_duration(c.end))
      throw InputError("--end", "", "expected a duration such as 12902960s, found \"" + c.end + "\"");
    spec["end"] = c.end;
  }
  if (!c.gpu_product.empty()) spec["gpu_product"] = c.gpu_product;
  if (!c.gpu_models.empty()) {
    const nlohmann::json models = nlohmann::json::parse(c.gpu_models, nullptr, false);
    if (!is_object_of_strings(models))
      throw InputError("--gpu-models", "", "expected a JSON object of strings, found " + c.gpu_models);
    for (const auto& [key, id] : models.items()) {
      if (const std::string problem = openb_model_key_problem(key); !problem.empty()) {
        throw InputError("--gpu-models", "/" + key, problem);
      }
    }
    spec["gpu_models"] = models;
  }
  if (c.format == "gavel" && c.throughputs.empty()) {
    throw InputError("--throughputs", "", "the gavel format needs Gavel's throughputs file (--throughputs FILE)");
  }
  return spec;
}

const GpuCatalog& catalog_of(const TraceCommand& c, GpuCatalog& storage) {
  if (c.catalog_path.empty()) return GpuCatalog::builtin();
  storage = GpuCatalog::load_file(c.catalog_path);
  return storage;
}

void print_bench(const TraceCommand& c, std::size_t jobs, std::chrono::steady_clock::time_point start) {
  if (!c.bench) return;
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::fprintf(stderr, "bench: read %zu jobs from %s in %.1f ms (%.0f jobs/s)\n", jobs, c.input.c_str(), ms,
               ms > 0 ? static_cast<double>(jobs) * 1000 / ms : 0.0);
}

}  // namespace

std::shared_ptr<TraceCommand> add_trace_command(CLI::App& app) {
  auto c = std::make_shared<TraceCommand>();
  c->trace = app.add_subcommand("trace", "Trace tools: statistics, conversion to the native format, openb node pools");
  c->trace->require_subcommand(1);
  c->stats = c->trace->add_subcommand("stats", "Counts, GPU demand, arrival rate over time, duration percentiles");
  add_trace_options(c->stats, *c);
  c->stats->add_option("--format", c->format, "Trace format: native, openb, pai, philly, helios, gavel")
      ->check(CLI::IsMember({"native", "openb", "pai", "philly", "helios", "gavel"}));
  c->stats->add_option("--bins", c->bins, "Arrival-rate bins over the trace's span")->check(CLI::Range(1, 100000));
  c->convert = c->trace->add_subcommand("convert", "Write a trace as a native trace");
  add_trace_options(c->convert, *c);
  c->convert->add_option("--from", c->format, "Input format")
      ->required()
      ->check(CLI::IsMember({"native", "openb", "pai", "philly", "helios", "gavel"}));
  c->convert->add_option("--to", c->to, "Output format (native)")->check(CLI::IsMember({"native"}));
  c->convert->add_option("-o,--output", c->output, "Output file (CSV)")->required();
  c->node_pools = c->trace->add_subcommand("node-pools", "Node pools for a scenario from an openb node list (JSON)");
  c->node_pools->add_option("nodes", c->input, "openb node list (openb_node_list_*.csv)")->required();
  c->node_pools->add_option("--from", c->format, "Node list format (openb)")->check(CLI::IsMember({"openb"}));
  c->node_pools->add_option("--gpu-models", c->gpu_models, "JSON object of model overrides");
  c->node_pools->add_flag("--with-cpu-nodes", c->with_cpu_nodes, "Also nodes without GPUs");
  c->node_pools->add_option("-o,--output", c->output, "Output file (default: standard output)");
  return c;
}

bool trace_command_selected(const TraceCommand& command) { return command.trace->parsed(); }

int run_trace_command(TraceCommand& c) {
  GpuCatalog storage;
  const GpuCatalog& catalog = catalog_of(c, storage);
  const auto start = std::chrono::steady_clock::now();
  if (c.stats->parsed()) {
    TraceFile trace(trace_spec(c), catalog, registered_per_device_resources());
    const TraceStats stats = compute_trace_stats(trace, c.bins);
    print_bench(c, stats.jobs, start);
    std::cout << format_trace_stats(stats, c.input + " (format " + c.format + ")");
    return 0;
  }
  if (c.convert->parsed()) {
    TraceFile trace(trace_spec(c), catalog, registered_per_device_resources());
    std::size_t written = 0;
    // A bad row half-way leaves no partial file.
    write_file_making_dirs("-o", c.output, [&](std::ostream& out) { written = write_converted_trace(out, trace); });
    print_bench(c, written, start);
    std::cerr << "wrote " << written << " jobs to " << c.output << "\n";
    return 0;
  }
  // node-pools
  nlohmann::json overrides = nlohmann::json::object();
  if (!c.gpu_models.empty()) {
    overrides = nlohmann::json::parse(c.gpu_models, nullptr, false);
    if (!is_object_of_strings(overrides))
      throw InputError("--gpu-models", "", "expected a JSON object of strings, found " + c.gpu_models);
  }
  const OpenbModelTable models = openb_model_table(overrides, "--gpu-models", "");
  for (const auto& [code, id] : models) {
    if (catalog.find(id) == nullptr)
      throw InputError("--gpu-models", code, "unknown GPU model \"" + id + "\" (see `sharesim gpus`)");
  }
  nlohmann::ordered_json doc;
  doc["node_pools"] = openb_node_pools(c.input, models, c.with_cpu_nodes);
  const std::string text = doc.dump(2) + "\n";
  if (c.output.empty()) {
    std::cout << text;
  } else {
    write_file_making_dirs("-o", c.output, text);
  }
  return 0;
}

}  // namespace sharesim
