#include "sim/cluster/gpu_table.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <sstream>
#include <vector>

namespace sharesim {
namespace {

enum class Align { kLeft, kRight };

struct Column {
  std::string_view header;
  Align align;
};

constexpr std::array<Column, 11> kColumns = {{
    {"ID", Align::kLeft},
    {"ARCHITECTURE", Align::kLeft},
    {"SMS", Align::kRight},
    {"MEMORY MiB", Align::kRight},
    {"BANDWIDTH GB/s", Align::kRight},
    {"FP32 TFLOPS", Align::kRight},
    {"FP16 TENSOR TFLOPS", Align::kRight},
    {"PREEMPTION", Align::kLeft},
    {"TIMESLICE LEVELS", Align::kLeft},
    {"MPS CLIENTS", Align::kRight},
    {"MIG", Align::kLeft},
}};

using Row = std::array<std::string, kColumns.size()>;

// Shortest form that keeps the catalog's digits: 312, 19.5, 989.5.
std::string format_number(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

std::string yes_no(bool value) { return value ? "yes" : "no"; }

Row row_of(const GpuModel& model) {
  return {model.id, model.architecture, std::to_string(model.sm_count), std::to_string(model.memory_mib),
          format_number(model.dram_bandwidth_gbps), format_number(model.fp32_tflops),
          // A dash, not 0: the GPU has no tensor cores, its FP16 runs on the CUDA cores.
          model.fp16_tensor_tflops > 0 ? format_number(model.fp16_tensor_tflops) : "-",
          yes_no(model.compute_preemption), yes_no(model.compute_policy_timeslice),
          std::to_string(model.mps_max_clients),
          model.mig_supported ? "up to " + std::to_string(model.mig_max_instances) : "no"};
}

}  // namespace

std::string format_gpu_table(const GpuCatalog& catalog) {
  std::vector<Row> rows;
  Row header;
  for (std::size_t column = 0; column < kColumns.size(); ++column) header[column] = kColumns[column].header;
  rows.push_back(header);
  for (const GpuModel& model : catalog.models()) rows.push_back(row_of(model));

  std::array<std::size_t, kColumns.size()> widths{};
  for (const Row& row : rows) {
    for (std::size_t column = 0; column < kColumns.size(); ++column) {
      widths[column] = std::max(widths[column], row[column].size());
    }
  }

  std::string table;
  for (const Row& row : rows) {
    std::string line;
    for (std::size_t column = 0; column < kColumns.size(); ++column) {
      if (column > 0) line += "  ";
      const std::string padding(widths[column] - row[column].size(), ' ');
      line += kColumns[column].align == Align::kRight ? padding + row[column] : row[column] + padding;
    }
    // The last column is left-aligned; its padding would only leave trailing blanks.
    line.erase(line.find_last_not_of(' ') + 1);
    table += line + '\n';
  }
  return table;
}

}  // namespace sharesim
