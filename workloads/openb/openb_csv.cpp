#include "workloads/openb/openb_csv.h"

#include <unordered_set>

#include "sim/core/checked_conversion.h"
#include "sim/input/input_error.h"

namespace sharesim {
namespace {

// pandas writes a missing value as "nan" in some versions of the trace and as "" in others.
bool is_missing(const std::string& text) { return text.empty() || text == "nan" || text == "NaN"; }

// A name field: non-empty, no spaces (names are identifiers in the trace).
std::string read_name(const CsvReader& csv, const char* column) {
  const std::string& text = csv.field(column);
  if (text.empty() || text.find_first_of(" \t") != std::string::npos) {
    csv.fail(column, "expected a name without spaces, found \"" + text + "\"");
  }
  return text;
}

std::optional<std::int64_t> optional_seconds(const CsvReader& csv, const char* column) {
  if (!csv.has_column(column) || is_missing(csv.field(column))) return std::nullopt;
  return csv.integer(column, 0, kMaxTimeSeconds);  // seconds SimTime can hold
}

}  // namespace

OpenbNodeReader::OpenbNodeReader(const std::string& path)
    : csv_(path, {"sn", "cpu_milli", "memory_mib", "gpu", "model"}) {}

bool OpenbNodeReader::next(OpenbNodeRow& row) {
  if (!csv_.next_row()) return false;
  row.line = csv_.line_number();
  row.name = read_name(csv_, "sn");
  row.cpu_milli = csv_.integer("cpu_milli", 0);
  row.memory_mib = csv_.integer("memory_mib", 0);
  row.gpus = csv_.integer("gpu", 0, kOpenbMaxGpusPerNode);
  const std::string& model = csv_.field("model");
  row.model = is_missing(model) ? std::string() : model;
  if (row.gpus > 0 && row.model.empty()) {
    csv_.fail("model",
              "expected the GPU model of a node with " + std::to_string(row.gpus) + " GPUs, found \"" + model + "\"");
  }
  if (row.model.find('|') != std::string::npos) {
    csv_.fail("model", "expected one GPU model, found \"" + model + "\"");
  }
  return true;
}

OpenbPodReader::OpenbPodReader(const std::string& path)
    : csv_(path, {"name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli"}),
      has_times_(csv_.has_column("creation_time")) {
  csv_.reject_misspelt_columns({"gpu_spec", "qos", "pod_phase", "creation_time", "deletion_time", "scheduled_time"});
}

bool OpenbPodReader::next(OpenbPodRow& row) {
  if (!csv_.next_row()) return false;
  row.line = csv_.line_number();
  row.name = read_name(csv_, "name");
  row.cpu_milli = csv_.integer("cpu_milli", 0);
  row.memory_mib = csv_.integer("memory_mib", 0);
  row.num_gpu = csv_.integer("num_gpu", 0, kOpenbMaxGpusPerNode);
  if (row.num_gpu == 0) {
    row.gpu_milli = csv_.integer("gpu_milli", 0, 0);  // a CPU-only pod asks for no GPU share
  } else if (row.num_gpu == 1) {
    row.gpu_milli = csv_.integer("gpu_milli", 1, kOpenbMilliPerGpu);
  } else {
    // Several GPUs are always whole GPUs (trace README: gpu_milli is for num_gpu == 1).
    row.gpu_milli = csv_.integer("gpu_milli", kOpenbMilliPerGpu, kOpenbMilliPerGpu);
  }
  row.gpu_spec.clear();
  static const std::string kNone;
  const std::string& spec = csv_.has_column("gpu_spec") ? csv_.field("gpu_spec") : kNone;
  if (!is_missing(spec)) {
    std::size_t start = 0;
    while (true) {
      const std::size_t bar = spec.find('|', start);
      const std::string model = spec.substr(start, bar == std::string::npos ? std::string::npos : bar - start);
      if (model.empty()) csv_.fail("gpu_spec", "expected GPU models separated by \"|\", found \"" + spec + "\"");
      row.gpu_spec.push_back(model);
      if (bar == std::string::npos) break;
      start = bar + 1;
    }
  }
  row.qos = csv_.has_column("qos") ? csv_.field("qos") : std::string();
  row.pod_phase = csv_.has_column("pod_phase") ? csv_.field("pod_phase") : std::string();
  row.creation_time = has_times_ ? csv_.integer("creation_time", 0, kMaxTimeSeconds) : 0;
  row.deletion_time = optional_seconds(csv_, "deletion_time");
  row.scheduled_time = optional_seconds(csv_, "scheduled_time");
  return true;
}

std::vector<OpenbNodeRow> read_openb_nodes(const std::string& path) {
  OpenbNodeReader reader(path);
  std::vector<OpenbNodeRow> rows;
  std::unordered_set<std::string> names;
  OpenbNodeRow row;
  while (reader.next(row)) {
    if (!names.insert(row.name).second) {
      throw InputError(path, "line " + std::to_string(row.line) + ", column sn",
                       "expected a unique node name, found \"" + row.name + "\" a second time");
    }
    rows.push_back(row);
  }
  if (rows.empty()) throw InputError(path, "line 2", "expected at least one node row, found none");
  return rows;
}

std::vector<OpenbPodRow> read_openb_pods(const std::string& path) {
  OpenbPodReader reader(path);
  std::vector<OpenbPodRow> rows;
  std::unordered_set<std::string> names;
  OpenbPodRow row;
  while (reader.next(row)) {
    if (!names.insert(row.name).second) {
      throw InputError(path, "line " + std::to_string(row.line) + ", column name",
                       "expected a unique pod name, found \"" + row.name + "\" a second time");
    }
    rows.push_back(row);
  }
  if (rows.empty()) throw InputError(path, "line 2", "expected at least one pod row, found none");
  return rows;
}

}  // namespace sharesim
