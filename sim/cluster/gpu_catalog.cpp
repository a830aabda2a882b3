#include "sim/cluster/gpu_catalog.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/input/did_you_mean.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/input/json_pointer.h"
#include "sim/input/json_reader.h"

namespace sharesim {
namespace embedded {
std::string_view gpu_catalog();  // generated from scenarios/hardware/gpus.json by cmake/EmbedFile.cmake
}  // namespace embedded

namespace {

// ordered_json keeps members in file order, so the first bad key in the file is the one reported.
using json = nlohmann::ordered_json;

constexpr std::string_view kEmbeddedOrigin = "<embedded catalog>";

// The fields of one catalog entry, in file order. A field listed as needing a source is a
// number or flag the simulator computes with; the strings name things and need none, but may
// carry one.
struct FieldRule {
  std::string_view name;
  bool needs_source;
};
constexpr std::array<FieldRule, 15> kEntryFields = {{
    {"id", false},
    {"product", false},
    {"architecture", false},
    {"compute_capability", false},
    {"sm_count", true},
    {"memory_mib", true},
    {"dram_bandwidth_gbps", true},
    {"fp32_tflops", true},
    {"fp16_tensor_tflops", true},
    {"compute_preemption", true},
    {"compute_policy_timeslice", true},
    {"mps_max_clients", true},
    {"mig_supported", true},
    {"mig_max_instances", true},
    {"gpu_hour_usd", true},  // optional: the only field an entry may leave out
}};
constexpr std::string_view kSourceKey = "source";
// The most GPU instances a MIG GPU has (NVIDIA MIG User Guide, "Supported GPUs").
constexpr std::int64_t kMigMostInstances = 7;

bool is_entry_field(std::string_view key) {
  return std::any_of(kEntryFields.begin(), kEntryFields.end(), [&](const FieldRule& rule) { return rule.name == key; });
}

// "; did you mean "sm_count"?" for a near miss, "" when nothing is close enough to help;
// worded as the scenario loader words it.
std::string suggestion(std::string_view unknown, const std::vector<std::string>& names) {
  const std::optional<std::string> match = closest_match(unknown, names);
  return match ? "; did you mean " + quote(*match) + "?" : "";
}

std::vector<std::string> field_names() {
  std::vector<std::string> names;
  for (const FieldRule& rule : kEntryFields) names.emplace_back(rule.name);
  return names;
}

// Reads one catalog entry (an object at `pointer`), checking each field as it goes.
class EntryReader {
 public:
  EntryReader(const std::string& origin, std::string pointer, const json& entry)
      : origin_(origin), pointer_(std::move(pointer)), entry_(entry) {}

  void reject_unknown_keys() const {
    static const std::vector<std::string> names = [] {
      std::vector<std::string> all = field_names();
      all.emplace_back(kSourceKey);
      return all;
    }();
    for (const auto& [key, value] : entry_.items()) {
      if (key == kSourceKey || is_entry_field(key)) continue;
      fail(field_pointer(key),
           "expected one of the GPU model fields, found unknown key " + quote(key) + suggestion(key, names));
    }
  }

  std::string text(std::string_view name) const {
    const json& value = require(name, "a non-empty string");
    if (!value.is_string() || value.get_ref<const std::string&>().empty()) {
      fail(field_pointer(name), "expected a non-empty string, found " + describe_value(value));
    }
    return value.get<std::string>();
  }

  // Counts the simulator divides by or sizes things with: a zero would be a typo, not a GPU.
  std::int64_t positive_integer(std::string_view name) const { return integer(name, 1, "a positive integer"); }
  std::int64_t non_negative_integer(std::string_view name) const { return integer(name, 0, "a non-negative integer"); }

  double positive_number(std::string_view name) const { return number(name, false, "a number > 0"); }
  double non_negative_number(std::string_view name) const { return number(name, true, "a number >= 0"); }

  bool flag(std::string_view name) const {
    const json& value = require(name, "true or false");
    if (!value.is_boolean()) fail(field_pointer(name), "expected true or false, found " + describe_value(value));
    return value.get<bool>();
  }

  std::map<std::string, std::string> sources() const {
    const std::string pointer = field_pointer(kSourceKey);
    const json& value = require(kSourceKey, "an object mapping field names to citations");
    if (!value.is_object()) {
      fail(pointer, "expected an object mapping field names to citations, found " + describe_value(value));
    }
    static const std::vector<std::string> names = field_names();
    std::map<std::string, std::string> citations;
    for (const auto& [key, citation] : value.items()) {
      const std::string citation_pointer = pointer_append(pointer, key);
      if (!is_entry_field(key)) {
        fail(citation_pointer, "expected a source for one of the GPU model fields, found unknown key " + quote(key) +
                                   suggestion(key, names));
      }
      if (!citation.is_string() || citation.get_ref<const std::string&>().empty()) {
        fail(citation_pointer, "expected a non-empty citation string, found " + describe_value(citation));
      }
      citations.emplace(key, citation.get<std::string>());
    }
    // A number without provenance cannot be trusted or re-checked (DESIGN.md: every number
    // carries its source), so its absence is an input error, not a warning.
    for (const FieldRule& rule : kEntryFields) {
      if (rule.needs_source && entry_.contains(rule.name) && citations.count(std::string(rule.name)) == 0) {
        fail(pointer, "field " + std::string(rule.name) + " has no source entry");
      }
    }
    return citations;
  }

  std::string field_pointer(std::string_view name) const { return pointer_append(pointer_, name); }

  [[noreturn]] void fail(const std::string& where, const std::string& problem) const {
    throw InputError(origin_, where, problem);
  }

 private:
  const json& require(std::string_view name, std::string_view expected) const {
    const auto found = entry_.find(name);
    if (found == entry_.end()) {
      fail(pointer_, "expected field " + quote(name) + " (" + std::string(expected) + "), found no such field");
    }
    return *found;
  }

  std::int64_t integer(std::string_view name, std::int64_t minimum, std::string_view expected) const {
    const json& value = require(name, expected);
    const std::string where = field_pointer(name);
    const std::string problem_prefix = "expected " + std::string(expected) + ", found ";
    if (!value.is_number_integer()) fail(where, problem_prefix + describe_value(value));
    if (value.is_number_unsigned() &&
        value.get<std::uint64_t>() > std::uint64_t{std::numeric_limits<std::int64_t>::max()}) {
      fail(where, problem_prefix + describe_value(value) + " (too large)");
    }
    const auto result = value.get<std::int64_t>();
    if (result < minimum) fail(where, problem_prefix + describe_value(value));
    return result;
  }

  double number(std::string_view name, bool zero_allowed, std::string_view expected) const {
    const json& value = require(name, expected);
    const auto result = value.is_number() ? value.get<double>() : 0.0;
    const bool in_range = zero_allowed ? result >= 0.0 : result > 0.0;
    if (!value.is_number() || !in_range) {
      fail(field_pointer(name), "expected " + std::string(expected) + ", found " + describe_value(value));
    }
    return result;
  }

  const std::string& origin_;
  std::string pointer_;
  const json& entry_;
};

GpuModel read_model(const std::string& origin, const std::string& pointer, const json& entry) {
  EntryReader reader(origin, pointer, entry);
  if (!entry.is_object())
    reader.fail(pointer, "expected an object describing one GPU model, found " + describe_value(entry));
  reader.reject_unknown_keys();

  GpuModel model;
  model.id = reader.text("id");
  model.product = reader.text("product");
  model.architecture = reader.text("architecture");
  model.compute_capability = reader.text("compute_capability");
  model.sm_count = reader.positive_integer("sm_count");
  model.memory_mib = reader.positive_integer("memory_mib");
  model.dram_bandwidth_gbps = reader.positive_number("dram_bandwidth_gbps");
  model.fp32_tflops = reader.positive_number("fp32_tflops");
  model.fp16_tensor_tflops = reader.non_negative_number("fp16_tensor_tflops");  // 0 = no tensor cores
  model.compute_preemption = reader.flag("compute_preemption");
  model.compute_policy_timeslice = reader.flag("compute_policy_timeslice");
  model.mps_max_clients = reader.positive_integer("mps_max_clients");
  model.mig_supported = reader.flag("mig_supported");
  model.mig_max_instances = reader.non_negative_integer("mig_max_instances");
  // The MIG policy sizes its slices from mig_max_instances, so the flag and the count must agree,
  // and the count must be one MIG can have: the NVIDIA MIG User Guide ("Supported GPUs") gives at
  // most seven GPU instances on every MIG GPU (A100, H100, H200, ...).
  if (model.mig_supported && (model.mig_max_instances < 1 || model.mig_max_instances > kMigMostInstances)) {
    reader.fail(reader.field_pointer("mig_max_instances"),
                "expected an integer from 1 to " + std::to_string(kMigMostInstances) +
                    " when mig_supported is true (a MIG GPU has at most " + std::to_string(kMigMostInstances) +
                    " instances, NVIDIA MIG User Guide), found " + std::to_string(model.mig_max_instances));
  }
  if (!model.mig_supported && model.mig_max_instances != 0) {
    reader.fail(reader.field_pointer("mig_max_instances"),
                "expected 0 when mig_supported is false, found " + std::to_string(model.mig_max_instances));
  }
  if (entry.contains("gpu_hour_usd")) model.gpu_hour_usd = reader.non_negative_number("gpu_hour_usd");
  model.sources = reader.sources();
  return model;
}

}  // namespace

GpuCatalog GpuCatalog::parse(std::string_view json_text, const std::string& origin) {
  const json document = parse_json_text(json_text, origin);

  if (!document.is_object()) {
    throw InputError(origin, "", "expected an object with a \"gpus\" array, found " + describe_value(document));
  }
  static const std::vector<std::string> kTopLevelKeys = {"_about", "gpus"};
  for (const auto& [key, value] : document.items()) {
    if (key == "_about") {
      if (!value.is_string()) throw InputError(origin, "/_about", "expected a string, found " + describe_value(value));
    } else if (key != "gpus") {
      throw InputError(
          origin, pointer_append("", key),
          "expected \"_about\" or \"gpus\", found unknown key " + quote(key) + suggestion(key, kTopLevelKeys));
    }
  }
  const auto gpus = document.find("gpus");
  if (gpus == document.end()) throw InputError(origin, "", "expected a \"gpus\" array, found no such field");
  if (!gpus->is_array() || gpus->empty()) {
    throw InputError(origin, "/gpus", "expected a non-empty array of GPU models, found " + describe_value(*gpus));
  }

  GpuCatalog catalog;
  std::map<std::string, std::string> first_pointer_of_id;
  for (std::size_t index = 0; index < gpus->size(); ++index) {
    const std::string pointer = pointer_append("/gpus", index);
    GpuModel model = read_model(origin, pointer, (*gpus)[index]);
    const auto [earlier, inserted] = first_pointer_of_id.emplace(model.id, pointer);
    if (!inserted) {
      throw InputError(origin, pointer + "/id",
                       "expected a unique id, found " + quote(model.id) + " again (first at " + earlier->second + ")");
    }
    catalog.models_.push_back(std::move(model));
  }
  return catalog;
}

GpuCatalog GpuCatalog::load_file(const std::string& path) { return parse(read_text_file(path), path); }

const GpuCatalog& GpuCatalog::builtin() {
  // Parsed on first use, once; the embedded text was validated by the unit tests, so a failure
  // here means a broken build and surfaces as the InputError it is.
  static const GpuCatalog catalog = parse(embedded::gpu_catalog(), std::string(kEmbeddedOrigin));
  return catalog;
}

const GpuModel* GpuCatalog::find(std::string_view id) const {
  // A dozen models: a scan is as fast as a map and keeps file order for listings. The product
  // is GPU feature discovery's nvidia.com/gpu.product value, accepted wherever an id is, so a
  // Kubernetes nodeSelector's value can be used as written.
  const auto found = std::find_if(models_.begin(), models_.end(),
                                  [&](const GpuModel& model) { return model.id == id || model.product == id; });
  return found == models_.end() ? nullptr : &*found;
}

std::vector<std::string> GpuCatalog::ids() const {
  std::vector<std::string> result;
  result.reserve(models_.size());
  for (const GpuModel& model : models_) result.push_back(model.id);
  return result;
}

std::string unknown_gpu_model_problem(const std::string& id, const GpuCatalog& catalog) {
  std::string problem = "unknown GPU model " + quote(id);
  if (const auto suggestion = closest_match(id, catalog.ids())) problem += "; did you mean " + quote(*suggestion) + "?";
  return problem + " (see `sharesim gpus`)";
}

}  // namespace sharesim
