#include "apps/corun.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include "apps/scenario_run.h"
#include "policies/calibration/calibration_profile.h"
#include "policies/policy_registry.h"
#include "sim/cluster/cluster.h"
#include "sim/core/csv_format.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/input/json_pointer.h"
#include "sim/cluster/gpu_catalog.h"
#include "workloads/csv_reader.h"
#include "workloads/measured_usage.h"
#include "workloads/profiles/workload_profile.h"
#include "workloads/workload_context.h"

namespace sharesim {
namespace {

constexpr const char* kCommandLine = "sharesim corun";

struct CorunRow {
  std::vector<std::string> fields;  // as read, in header order
  std::string group;
  PhaseDemand demand;
  std::string resource;  // device resource to ask for; empty = the policy's first
  // From `limits`: the device resource and its units, then per-device quantities (names and
  // counts; interned per group, whose GPU has resource ids of its own). Empty = not given.
  std::vector<std::pair<std::string, std::int64_t>> limits;
  std::string status = "ok";
  bool no_gpu_work = false;  // gpu_util_pct 0
  std::optional<double> speed;
};

std::optional<double> optional_number(const CsvReader& csv, const char* column, double min, double max) {
  if (!csv.has_column(column) || csv.field(column).empty()) return std::nullopt;
  const double value = csv.number(column, min);
  if (value > max)
    csv.fail(column, "expected a number from " + format_fixed(min, 0) + " to " + format_fixed(max, 0) + ", found " +
                         csv.field(column));
  return value;
}

double required_number(const CsvReader& csv, const char* column, double min, double max) {
  const std::optional<double> value = optional_number(csv, column, min, max);
  if (!value) csv.fail(column, "expected a number, found an empty field");
  return *value;
}

// A `limits` field: "NAME=COUNT" entries separated by spaces, as a pod's limits (docs/scenario.md
// "Requests"), checked by the rules a scenario's request.limits follows.
std::vector<std::pair<std::string, std::int64_t>> read_limits(const CsvReader& csv) {
  nlohmann::json limits = nlohmann::json::object();
  std::istringstream entries(csv.field("limits"));
  for (std::string entry; entries >> entry;) {
    const std::size_t equals = entry.find('=');
    std::int64_t count = 0;
    const char* end = entry.data() + entry.size();
    if (equals == std::string::npos || equals == 0 ||
        std::from_chars(entry.data() + equals + 1, end, count).ptr != end || equals + 1 == entry.size()) {
      csv.fail("limits", "expected NAME=COUNT entries separated by spaces (e.g. \"nvidia.com/gpu=1 "
                         "nvidia.com/gpumem=4096\"), found " + quote(entry));
    }
    const std::string name = entry.substr(0, equals);
    if (limits.contains(name)) csv.fail("limits", "expected each resource once, found " + quote(name) + " twice");
    limits[name] = count;
  }
  ShapeTable shapes;
  std::vector<JobOrigin> origins;
  ResourceNames names;
  WorkloadContext context(shapes, origins, names, GpuCatalog::builtin(), registered_per_device_resources(),
                          csv.path(), "", 1);
  PodShape shape;
  try {
    shape = shapes.shapes[context.shape_from_request({{"limits", limits}}, "")];
  } catch (const InputError& e) {
    // The rule's words, with the entry it is about in place of its JSON pointer (/limits/NAME).
    const std::vector<std::string> tokens =
        e.where().starts_with("/") ? pointer_tokens(e.where()) : std::vector<std::string>{};
    csv.fail("limits", (tokens.size() == 2 ? tokens[1] + ": " : "") + e.problem());
  }
  std::vector<std::pair<std::string, std::int64_t>> out{{names.name(shape.gpu_resource), shape.gpu_units}};
  for (const ResourceQuantity& q : shape.gpu_per_device.view()) out.emplace_back(names.name(q.resource), q.quantity);
  return out;
}

CorunRow read_row(const CsvReader& csv) {
  CorunRow row;
  for (const std::string& column : csv.columns()) row.fields.push_back(csv.field(column));
  row.group = csv.field("group");
  if (row.group.empty()) csv.fail("group", "expected a group name, found an empty field");
  if (csv.has_column("profile") && !csv.field("profile").empty()) {
    const std::string where = "line " + std::to_string(csv.line_number()) + ", column profile";
    const WorkloadProfile& profile = ProfileLibrary::builtin().at(csv.field("profile"), csv.path(), where);
    row.demand = profile.demand();
    row.demand.profile = builtin_profile_id(profile);
  }
  // Model values a row may give directly, unless a measurement of the same thing is given too.
  for (const char* column : {"sm", "bw"}) {
    if (const std::optional<double> value = optional_number(csv, column, 0, 1)) {
      (std::string(column) == "sm" ? row.demand.sm : row.demand.bw) = *value;
    }
  }
  MeasuredUsage measured;
  measured.gpu_util_pct = required_number(csv, "gpu_util_pct", 0, 100);
  if (*measured.gpu_util_pct <= 0) {
    // No kernel ran while it was measured: it holds memory but takes no GPU time (the model's
    // idle demand, sm = bw = 0), so it neither slows nor is slowed.
    row.no_gpu_work = true;
    measured.gpu_util_pct.reset();
  }
  measured.mem_util_pct = optional_number(csv, "mem_util_pct", 0, 100);
  measured.sm_active = optional_number(csv, "sm_active", 0, 1);
  measured.dram_active = optional_number(csv, "dram_active", 0, 1);
  if (measured.sm_active && csv.has_column("sm") && !csv.field("sm").empty()) {
    csv.fail("sm_active", "expected either sm or sm_active (which sets it), found both");
  }
  // The bandwidth comes from one of: bw itself, dram_active, mem_util_pct (the column every
  // file has; its field may be empty when one of the other two is given).
  const bool bw_given = csv.has_column("bw") && !csv.field("bw").empty();
  if (bw_given && (measured.mem_util_pct || measured.dram_active)) {
    csv.fail("bw", "expected either bw or the measurements that set it (mem_util_pct, dram_active), found both");
  }
  if (!bw_given && !measured.mem_util_pct && !measured.dram_active) {
    csv.fail("mem_util_pct", "expected a number (or, instead, a bw or dram_active value), found an empty field");
  }
  apply_measured_usage(measured, row.demand);
  if (row.no_gpu_work) row.demand.sm = row.demand.bw = 0.0;
  row.demand.mem_mib = csv.integer("mem_mib", 0);
  if (csv.has_column("resource")) row.resource = csv.field("resource");
  if (csv.has_column("limits") && !csv.field("limits").empty()) {
    if (!row.resource.empty()) csv.fail("limits", "expected either resource or limits (which names it), found both");
    row.limits = read_limits(csv);
    row.resource = row.limits.front().first;
  }
  return row;
}

// The sharing config: {"policy": NAME} plus each KEY=VALUE (VALUE as JSON when it parses).
nlohmann::json sharing_config(const CorunRequest& request) {
  nlohmann::json config = {{"policy", request.policy}};
  for (const std::string& set : request.sets) {
    const std::size_t equals = set.find('=');
    if (equals == std::string::npos || equals == 0) {
      throw InputError(kCommandLine, "--set", "expected KEY=VALUE (a sharing setting), found " + quote(set));
    }
    const std::string key = set.substr(0, equals), text = set.substr(equals + 1);
    if (key == "policy") {
      throw InputError(kCommandLine, "--set",
                       "expected a setting of the policy, found " + quote(set) + "; the policy is --policy's");
    }
    nlohmann::json value = nlohmann::json::parse(text, nullptr, false);
    config[key] = value.is_discarded() ? nlohmann::json(text) : value;
  }
  return config;
}

// Places the group's rows on one GPU in file order (admission, then the memory and
// device-plugin checks of question 4), then sets the speeds of those that run.
void run_group(std::vector<CorunRow*>& rows, GpuSharing& gpu, ResourceNames& names) {
  const std::vector<ResourceQuantity> offered = gpu.advertise();
  std::vector<Resident> residents;
  std::vector<CorunRow*> placed;
  Casualties casualties;
  for (CorunRow* row : rows) {
    DeviceAsk ask;
    ask.resource = offered.empty() ? 0 : offered.front().resource;
    if (!row->resource.empty()) {
      const int id = names.find(row->resource);
      const bool offered_here = id >= 0 && std::any_of(offered.begin(), offered.end(), [&](const ResourceQuantity& q) {
                                  return q.resource == static_cast<ResourceId>(id);
                                });
      if (!offered_here) {
        row->status = "not admitted: the GPU does not offer " + row->resource;
        continue;
      }
      ask.resource = static_cast<ResourceId>(id);
    }
    if (!row->limits.empty()) {
      ask.units = ask.requested = row->limits.front().second;
      for (std::size_t q = 1; q < row->limits.size(); ++q) {
        ask.per_device.items[ask.per_device.count++] = {names.intern(row->limits[q].first), row->limits[q].second};
      }
    }
    // How many pods the policy advertises is a scheduling question; corun asks what happens
    // once they are on the GPU, so units are never short here, unless they are an amount of
    // the GPU itself (cGPU's GiB of memory): then they are what the GPU has left.
    std::int64_t free_units = static_cast<std::int64_t>(rows.size()) * ask.units;
    if (gpu.traits().unit_spread == UnitSpread::AllOnOneDevice) {
      free_units = 0;
      for (const ResourceQuantity& q : offered) free_units += q.resource == ask.resource ? q.quantity : 0;
      for (const Resident& r : residents) free_units -= r.ask.resource == ask.resource ? r.ask.units : 0;
    }
    std::string reason;
    if (!gpu.admit(ask, free_units, residents, &reason)) {
      row->status = "not admitted: " + reason;
      continue;
    }
    Resident resident;
    resident.task = static_cast<std::uint32_t>(placed.size());
    resident.demand = row->demand;
    resident.ask = ask;
    resident.slots = gpu.choose_slots(ask, residents);
    // A GPU in parts (MIG instances) gives each pod a part it asked for; with every one taken
    // (each as many times as its replicas allow), the device plugin has none left to offer.
    if (resident.slots == 0 && gpu.choose_slots(ask, {}) != 0) {
      row->status = "not admitted: every part of the GPU offering " + names.name(ask.resource) + " is taken (" +
                    std::to_string(residents.size()) + " pods on it)";
      continue;
    }
    residents.push_back(resident);
    placed.push_back(row);
    casualties.clear();
    gpu.on_join(residents, casualties);
    std::sort(casualties.killed.rbegin(), casualties.killed.rend());
    for (const std::size_t index : casualties.killed) {
      placed[residents[index].task]->status = "killed: " + casualties.reason;
      residents.erase(residents.begin() + static_cast<std::ptrdiff_t>(index));
    }
  }
  gpu.compute_rates(residents);
  for (const Resident& r : residents) placed[r.task]->speed = placed[r.task]->no_gpu_work ? 1.0 : r.rate;
}

}  // namespace

CorunResult predict_coruns(const CorunRequest& request, const GpuCatalog& catalog) {
  const GpuModel* model = catalog.find(request.gpu);
  if (model == nullptr) throw InputError(kCommandLine, "--gpu", unknown_gpu_model_problem(request.gpu, catalog));
  const std::vector<std::string> policies = sharing_policy_names();
  if (std::find(policies.begin(), policies.end(), request.policy) == policies.end()) {
    throw InputError(kCommandLine, "--policy",
                     "expected a sharing policy (" + quoted_list(policies) + "), found " + quote(request.policy));
  }
  NodePoolSpec pool;
  pool.name = "corun";
  pool.gpu = model->id;
  pool.sharing = sharing_config(request);
  const CalibrationSet calibration;
  // The measured tables a run uses (MIG slice speeds, fitted interference, measured pairs), so
  // rows naming a workload profile get them too.
  const SharingFactory factory = make_sharing_factory(kCommandLine, calibration, builtin_measured_profiles());

  const std::vector<std::string> required{"group", "job", "gpu_util_pct", "mem_util_pct", "mem_mib"};
  CsvReader csv(request.input, required);
  csv.reject_misspelt_columns({"profile", "sm_active", "dram_active", "sm", "bw", "resource", "limits"}, required);
  for (const char* output : {"duty", "speed", "slowdown", "status"}) {
    if (csv.has_column(output)) {
      throw InputError(request.input, "line 1",
                       "expected no column \"" + std::string(output) + "\" in the input (corun writes it), found one");
    }
  }
  std::vector<CorunRow> rows;
  while (csv.next_row()) rows.push_back(read_row(csv));
  if (rows.empty()) throw InputError(request.input, "", "expected at least one row after the header, found none");

  std::map<std::string, std::vector<CorunRow*>> groups;
  std::vector<std::string> order;
  for (CorunRow& row : rows) {
    auto [it, inserted] = groups.try_emplace(row.group);
    if (inserted) order.push_back(row.group);
    it->second.push_back(&row);
  }
  for (const std::string& name : order) {
    ResourceNames names;
    std::unique_ptr<GpuSharing> gpu;
    try {
      gpu = factory(pool, *model, names);
    } catch (const InputError& e) {
      // The policy names the setting by its place in a scenario (/sharing/KEY); here it is --set.
      if (!e.where().starts_with("/sharing/")) throw;
      const std::string key = e.where().substr(9);
      throw InputError(kCommandLine, "--set " + key, e.problem() + " (give it as --set " + key + "=VALUE)");
    }
    run_group(groups[name], *gpu, names);
  }

  CorunResult result;
  result.groups = order.size();
  result.rows = rows.size();
  // The demand used goes into the input's own sm and bw columns when it has them (a value
  // given is the value used), else into columns added after the input's.
  const bool sm_column = csv.has_column("sm"), bw_column = csv.has_column("bw");
  CsvRow header(result.csv);
  for (const std::string& column : csv.columns()) header.text(column);
  header.text("duty");
  if (!sm_column) header.text("sm");
  if (!bw_column) header.text("bw");
  for (const char* column : {"speed", "slowdown", "status"}) header.text(column);
  header.end();
  for (const CorunRow& row : rows) {
    CsvRow out(result.csv);
    for (std::size_t c = 0; c < row.fields.size(); ++c) {
      const std::string& column = csv.columns()[c];
      if (column == "sm") {
        out.text(format_fixed(row.demand.sm, 4));
      } else if (column == "bw") {
        out.text(format_fixed(row.demand.bw, 4));
      } else {
        out.text(row.fields[c]);
      }
    }
    out.text(format_fixed(row.no_gpu_work ? 0.0 : row.demand.duty, 4));
    if (!sm_column) out.text(format_fixed(row.demand.sm, 4));
    if (!bw_column) out.text(format_fixed(row.demand.bw, 4));
    const bool runs = row.speed.has_value() && *row.speed > 0;
    out.text(row.speed ? format_fixed(*row.speed, 6) : "").text(runs ? format_fixed(1.0 / *row.speed, 6) : "");
    out.text(row.status).end();
  }
  return result;
}

}  // namespace sharesim
