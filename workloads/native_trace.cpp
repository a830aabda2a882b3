#include "workloads/native_trace.h"

#include <optional>

#include "sim/core/csv_format.h"
#include "sim/input/error_text.h"
#include "workloads/measured_usage.h"

namespace sharesim {
namespace {

const std::vector<std::string> kColumns{"origin",       "sequence",  "kind",       "submit_s",    "duration_s", "pods",
                                        "gpus_per_pod", "cpu_milli", "memory_mib", "gpu_product", "priority"};

}  // namespace

NativeTraceReader::NativeTraceReader(const std::string& path, WorkloadContext& context)
    : csv_(path, kColumns), context_(context) {
  // The optional columns are found by name too: a near miss ("gpu_mem_mb") would be ignored.
  csv_.reject_misspelt_columns(
      {"gpu_util_pct", "mem_util_pct", "sm_active", "dram_active", "gpu_mem_mib", "gpu_milli", "sm", "bw", "duty"},
      kColumns);
}

bool NativeTraceReader::next(JobSpec& out) {
  if (!csv_.next_row()) return false;
  const std::string& origin = csv_.field("origin");
  if (origin.empty()) csv_.fail("origin", "expected a non-empty name, found \"\"");
  if (!context_.entry_names.empty() && context_.entry_names.count(origin) > 0) {
    csv_.fail("origin", "expected an origin other than the scenario's generators and jobs (job names are <origin>-<n>, "
                        "as theirs are <name>-<n>), found " + quote(origin));
  }
  const std::string& kind = csv_.field("kind");
  if (kind != "training" && kind != "batch") {
    csv_.fail("kind", "expected one of \"training\", \"batch\", found \"" + kind + "\"");
  }
  out = JobSpec{};
  out.origin = context_.intern_origin(origin, kind);
  out.sequence = static_cast<std::uint32_t>(csv_.integer("sequence", 0, UINT32_MAX));
  // Job names are "<origin>-<sequence>": two rows with the same pair would share a name.
  if (!seen_names_.insert((std::uint64_t{out.origin} << 32) | out.sequence).second) {
    csv_.fail("sequence",
              "expected each (origin, sequence) pair once, found " + origin + "-" + csv_.field("sequence") + " again");
  }
  out.arrival = csv_.seconds("submit_s");
  if (out.arrival < last_submit_) {
    std::string previous;
    append_seconds(previous, last_submit_);
    csv_.fail("submit_s",
              "expected rows in non-decreasing submit_s order, found " + csv_.field("submit_s") + " after " + previous);
  }
  last_submit_ = out.arrival;
  out.work = csv_.seconds("duration_s");
  // A job ending past the last nanosecond a time holds would stay 'running' forever.
  if (const std::string problem = end_beyond_time_problem(out.arrival, out.work); !problem.empty()) {
    csv_.fail("duration_s", problem);
  }
  out.pods = static_cast<std::uint32_t>(csv_.integer("pods", 1, UINT32_MAX));
  out.priority = static_cast<std::int32_t>(csv_.integer("priority", INT32_MIN, INT32_MAX));
  const std::string location = "line " + std::to_string(csv_.line_number()) + ", column gpu_product";
  const std::int64_t gpus = csv_.integer("gpus_per_pod", 0, kMaxTraceGpusPerPod);
  out.shape = context_.shape_from_values(gpus, csv_.integer("cpu_milli", 0), csv_.integer("memory_mib", 0),
                                         csv_.field("gpu_product"), csv_.path(), location, measured_demand());
  // A pod's share of one GPU, as `trace convert` writes it from openb and PAI: kept as the
  // imported trace keeps it (WorkloadContext::with_gpu_fraction).
  last_gpu_milli_ = gpus > 0 ? 1000 : 0;
  if (given("gpu_milli")) {
    last_gpu_milli_ = csv_.integer("gpu_milli", 0, 1000);
    // Only a one-GPU pod can ask for part of a GPU (as in openb); convert writes 1000 for whole
    // GPUs and 0 for CPU pods. Any other value would be dropped, so it is refused.
    if (gpus == 1 && last_gpu_milli_ == 0) {
      csv_.fail("gpu_milli", "expected a share of one GPU from 1 to 1000 for a pod with gpus_per_pod 1, found 0");
    }
    if (gpus != 1 && last_gpu_milli_ != (gpus > 0 ? 1000 : 0)) {
      csv_.fail("gpu_milli",
                gpus > 0 ? "expected 1000 (whole GPUs) for a pod with gpus_per_pod " + std::to_string(gpus) +
                               " (only a one-GPU pod asks for part of a GPU), found " + csv_.field("gpu_milli")
                         : "expected 0 for a pod with gpus_per_pod 0 (no GPU), found " + csv_.field("gpu_milli"));
    }
    out.shape = context_.with_gpu_fraction(out.shape, last_gpu_milli_);
  }
  // A job that would never finish: an input error at the columns its demand came from, as the
  // same demand in a scenario is.
  if (!context_.progress_problem(out.shape, kind).empty()) {
    const std::string sm_column = given("sm") ? "sm" : "sm_active";
    const std::string bw_column = given("bw") ? "bw" : given("dram_active") ? "dram_active" : "mem_util_pct";
    csv_.fail(sm_column, context_.progress_problem(out.shape, kind, sm_column, bw_column));
  }
  // A pod no node could ever hold would wait forever: an input error, as in a scenario.
  if (!context_.capacity_problem(out.shape, out.pods).empty()) {
    context_.fail_capacity(out.shape, out.pods, csv_.path(), csv_.place("gpus_per_pod"));
  }
  return true;
}

PhaseDemand NativeTraceReader::measured_demand() const {
  // Optional columns: what the job showed alone (docs/traces.md); an empty field = not measured.
  const auto optional = [&](const char* column, double max) -> std::optional<double> {
    if (!given(column)) return std::nullopt;
    const double value = csv_.number(column, 0);
    if (value > max) {
      csv_.fail(column, "expected a number from 0 to " + std::to_string(static_cast<int>(max)) + ", found " +
                            csv_.field(column));
    }
    return value;
  };
  // The model's own fields (sm, bw, duty), as `sharesim generate` writes them: exact, where the
  // measurements go through a division (sm = sm_active / duty) that no double may invert.
  for (const auto& [field, measurements] : {std::pair{"sm", "sm_active"}, std::pair{"bw", "dram_active"},
                                            std::pair{"bw", "mem_util_pct"}, std::pair{"duty", "gpu_util_pct"}}) {
    if (given(field) && given(measurements)) {
      csv_.fail(measurements, "expected either " + std::string(field) + " or " + measurements +
                                  " (which sets it), found both");
    }
  }
  PhaseDemand demand;
  if (const auto duty = optional("duty", 1)) {
    if (*duty <= 0) csv_.fail("duty", "expected a number > 0 and <= 1, found " + csv_.field("duty"));
    demand.duty = *duty;
  }
  MeasuredUsage measured;
  measured.gpu_util_pct = optional("gpu_util_pct", 100);
  if (measured.gpu_util_pct && *measured.gpu_util_pct <= 0) {
    csv_.fail("gpu_util_pct", "expected a number > 0 and <= 100, found " + csv_.field("gpu_util_pct"));
  }
  measured.mem_util_pct = optional("mem_util_pct", 100);
  measured.sm_active = optional("sm_active", 1);
  measured.dram_active = optional("dram_active", 1);
  apply_measured_usage(measured, demand);
  if (const auto sm = optional("sm", 1)) demand.sm = *sm;
  if (const auto bw = optional("bw", 1)) demand.bw = *bw;
  if (given("gpu_mem_mib")) {
    demand.mem_mib = csv_.integer("gpu_mem_mib", 0);
  }
  return demand;
}

std::string native_trace_header() {
  std::string header;
  for (std::size_t i = 0; i < kColumns.size(); ++i) header += (i ? "," : "") + kColumns[i];
  return header;
}

CsvRow& native_trace_fields(CsvRow& row, const JobSpec& job, const PodShape& shape, const JobOrigin& origin) {
  return row.text(origin.name)
      .integer(job.sequence)
      .text(origin.kind)
      .seconds(job.arrival)
      .seconds(job.work)
      .integer(job.pods)
      .integer(shape.gpu_units)
      .integer(shape.cpu_milli)
      .integer(shape.memory_mib)
      .text(shape.gpu_model_id)
      .integer(job.priority);
}

std::string native_row_problem(const JobSpec& job, const PodShape& shape, const JobOrigin& origin,
                               ResourceId default_gpu) {
  std::vector<std::string> lost;
  if (shape.gpu_per_device.count > 0) lost.emplace_back("per-GPU quantities (limits or a trace's GPU fraction)");
  if (shape.gpu_units > 0 && shape.gpu_resource != default_gpu) lost.emplace_back("a device resource of its own");
  if (!shape.node_selector.empty()) lost.emplace_back("a node selector");
  if (!shape.tolerations.empty()) lost.emplace_back("tolerations");
  // A demand has its columns (sm, bw, duty, gpu_mem_mib); a workload profile (its measured MIG
  // slice speeds) has none.
  if (shape.demand.profile != 0) lost.emplace_back("a workload profile");
  if (!job.preempts) lost.emplace_back("a priority class that never preempts");
  if (origin.restart.on_failure || origin.restart.checkpoint_interval > 0) lost.emplace_back("a restart policy");
  std::string problem;
  for (std::size_t i = 0; i < lost.size(); ++i) {
    problem += (i == 0 ? "" : i + 1 == lost.size() ? " and " : ", ") + lost[i];
  }
  return problem;
}

std::size_t write_native_trace(std::ostream& out, std::vector<std::unique_ptr<JobSource>>& sources,
                               const ShapeTable& shapes, const std::vector<JobOrigin>& origins,
                               const NativeRowCheck& check) {
  // The demand's columns, which a replay reads back (NativeTraceReader::measured_demand).
  std::string text = native_trace_header() + ",sm,bw,duty,gpu_mem_mib\n";
  std::vector<JobSpec> heads(sources.size());
  std::vector<bool> live(sources.size());
  for (std::size_t s = 0; s < sources.size(); ++s) live[s] = sources[s]->next(heads[s]);
  std::size_t written = 0;
  while (true) {
    const std::size_t best = earliest_source(heads, live);
    if (best == sources.size()) break;
    const JobSpec& job = heads[best];
    if (check) check(job, shapes.shapes[job.shape], origins[job.origin]);
    const PodShape& shape = shapes.shapes[job.shape];
    // Empty where the field is the model's default. Shortest round-trip text: read back, each
    // is the same double.
    const PhaseDemand& demand = shape.demand;
    const PhaseDemand model_default;
    CsvRow row(text);
    native_trace_fields(row, job, shape, origins[job.origin])
        .number_if(demand.sm != model_default.sm, demand.sm)
        .number_if(demand.bw != model_default.bw, demand.bw)
        .number_if(demand.duty != model_default.duty, demand.duty);
    if (demand.mem_mib != 0) {
      row.integer(demand.mem_mib);
    } else {
      row.text("");
    }
    row.end();
    ++written;
    if (text.size() > (1u << 20)) {
      out << text;
      text.clear();
    }
    live[best] = sources[best]->next(heads[best]);
  }
  out << text;
  return written;
}

}  // namespace sharesim
