#include "sim/cluster/gpu_catalog.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <fstream>
#include <limits>
#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "sim/scenario/input_error.h"

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
constexpr std::array<FieldRule, 14> kEntryFields = {{
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
}};
constexpr std::string_view kSourceKey = "source";

bool is_entry_field(std::string_view key) {
  return std::any_of(kEntryFields.begin(), kEntryFields.end(),
                     [&](const FieldRule& rule) { return rule.name == key; });
}

// JSON pointer reference token (RFC 6901): '~' and '/' inside a key must be escaped.
std::string pointer_token(std::string_view key) {
  std::string token;
  for (char c : key) {
    if (c == '~') {
      token += "~0";
    } else if (c == '/') {
      token += "~1";
    } else {
      token += c;
    }
  }
  return token;
}

std::string in_quotes(std::string_view text) { return "\"" + std::string(text) + "\""; }

// How a found value reads in an error message: short, and typed, so "found the string "108""
// tells a user why 108 in quotes was refused.
std::string describe(const json& value) {
  constexpr std::size_t kMaxShown = 40;
  switch (value.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::object:
      return "an object";
    case json::value_t::array:
      return "an array";
    case json::value_t::string: {
      std::string text = value.dump();
      if (text.size() > kMaxShown) text = text.substr(0, kMaxShown) + "...\"";
      return "the string " + text;
    }
    default:
      return value.dump();
  }
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> previous(b.size() + 1);
  std::vector<std::size_t> current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
    }
    std::swap(previous, current);
  }
  return previous[b.size()];
}

// " (did you mean "sm_count"?)" for a near miss, "" when nothing is close enough to help.
template <typename Names>
std::string did_you_mean(std::string_view unknown, const Names& names) {
  std::string_view best;
  std::size_t best_distance = std::numeric_limits<std::size_t>::max();
  for (std::string_view name : names) {
    const std::size_t distance = edit_distance(unknown, name);
    if (distance < best_distance) {
      best_distance = distance;
      best = name;
    }
  }
  const std::size_t tolerance = std::max<std::size_t>(2, unknown.size() / 3);
  if (best.empty() || best_distance > tolerance) return "";
  return " (did you mean " + in_quotes(best) + "?)";
}

std::vector<std::string_view> entry_key_names() {
  std::vector<std::string_view> names;
  for (const FieldRule& rule : kEntryFields) names.push_back(rule.name);
  names.push_back(kSourceKey);
  return names;
}

// "line:column" of the byte nlohmann stopped at. parse_error::byte counts from 1 and points
// at the last character read, which is the offending one.
std::string line_and_column(std::string_view text, std::size_t byte) {
  const std::size_t offset = std::min(byte == 0 ? 0 : byte - 1, text.size());
  std::size_t line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return std::to_string(line) + ":" + std::to_string(offset - line_start + 1);
}

// nlohmann's message starts with "[json.exception.parse_error.101] parse error at line 3,
// column 5: "; the place is already in `where`, so keep only what went wrong.
std::string parse_error_detail(const json::parse_error& error) {
  const std::string message = error.what();
  const std::size_t colon = message.find(": ");
  return colon == std::string::npos ? message : message.substr(colon + 2);
}

// Reads one catalog entry (an object at `pointer`), checking each field as it goes.
class EntryReader {
 public:
  EntryReader(const std::string& origin, std::string pointer, const json& entry)
      : origin_(origin), pointer_(std::move(pointer)), entry_(entry) {}

  void reject_unknown_keys() const {
    static const std::vector<std::string_view> names = entry_key_names();
    for (const auto& [key, value] : entry_.items()) {
      if (key == kSourceKey || is_entry_field(key)) continue;
      fail(field_pointer(key), "expected one of the GPU model fields, found unknown key " + in_quotes(key) +
                                   did_you_mean(key, names));
    }
  }

  std::string text(std::string_view name) const {
    const json& value = require(name, "a non-empty string");
    if (!value.is_string() || value.get_ref<const std::string&>().empty()) {
      fail(field_pointer(name), "expected a non-empty string, found " + describe(value));
    }
    return value.get<std::string>();
  }

  // Counts the simulator divides by or sizes things with: a zero would be a typo, not a GPU.
  std::int64_t positive_integer(std::string_view name) const { return integer(name, 1, "a positive integer"); }
  std::int64_t non_negative_integer(std::string_view name) const {
    return integer(name, 0, "a non-negative integer");
  }

  double positive_number(std::string_view name) const { return number(name, false, "a number > 0"); }
  double non_negative_number(std::string_view name) const { return number(name, true, "a number >= 0"); }

  bool flag(std::string_view name) const {
    const json& value = require(name, "true or false");
    if (!value.is_boolean()) fail(field_pointer(name), "expected true or false, found " + describe(value));
    return value.get<bool>();
  }

  std::map<std::string, std::string> sources() const {
    const std::string pointer = field_pointer(kSourceKey);
    const json& value = require(kSourceKey, "an object mapping field names to citations");
    if (!value.is_object()) {
      fail(pointer, "expected an object mapping field names to citations, found " + describe(value));
    }
    static const std::vector<std::string_view> names = [] {
      std::vector<std::string_view> all;
      for (const FieldRule& rule : kEntryFields) all.push_back(rule.name);
      return all;
    }();
    std::map<std::string, std::string> citations;
    for (const auto& [key, citation] : value.items()) {
      const std::string citation_pointer = pointer + "/" + pointer_token(key);
      if (!is_entry_field(key)) {
        fail(citation_pointer,
             "expected a source for one of the GPU model fields, found unknown key " + in_quotes(key) + did_you_mean(key, names));
      }
      if (!citation.is_string() || citation.get_ref<const std::string&>().empty()) {
        fail(citation_pointer, "expected a non-empty citation string, found " + describe(citation));
      }
      citations.emplace(key, citation.get<std::string>());
    }
    // A number without provenance cannot be trusted or re-checked (DESIGN.md: every number
    // carries its source), so its absence is an input error, not a warning.
    for (const FieldRule& rule : kEntryFields) {
      if (rule.needs_source && citations.count(std::string(rule.name)) == 0) {
        fail(pointer, "field " + std::string(rule.name) + " has no source entry");
      }
    }
    return citations;
  }

  std::string field_pointer(std::string_view name) const { return pointer_ + "/" + pointer_token(name); }

  [[noreturn]] void fail(const std::string& where, const std::string& problem) const {
    throw InputError(origin_, where, problem);
  }

 private:
  const json& require(std::string_view name, std::string_view expected) const {
    const auto found = entry_.find(name);
    if (found == entry_.end()) {
      fail(pointer_, "expected field " + in_quotes(name) + " (" + std::string(expected) + "), found no such field");
    }
    return *found;
  }

  std::int64_t integer(std::string_view name, std::int64_t minimum, std::string_view expected) const {
    const json& value = require(name, expected);
    const std::string where = field_pointer(name);
    const std::string problem_prefix = "expected " + std::string(expected) + ", found ";
    if (!value.is_number_integer()) fail(where, problem_prefix + describe(value));
    if (value.is_number_unsigned() && value.get<std::uint64_t>() > std::uint64_t{std::numeric_limits<std::int64_t>::max()}) {
      fail(where, problem_prefix + describe(value) + " (too large)");
    }
    const auto result = value.get<std::int64_t>();
    if (result < minimum) fail(where, problem_prefix + describe(value));
    return result;
  }

  double number(std::string_view name, bool zero_allowed, std::string_view expected) const {
    const json& value = require(name, expected);
    const auto result = value.is_number() ? value.get<double>() : 0.0;
    const bool in_range = zero_allowed ? result >= 0.0 : result > 0.0;
    if (!value.is_number() || !in_range) {
      fail(field_pointer(name), "expected " + std::string(expected) + ", found " + describe(value));
    }
    return result;
  }

  const std::string& origin_;
  std::string pointer_;
  const json& entry_;
};

GpuModel read_model(const std::string& origin, const std::string& pointer, const json& entry) {
  EntryReader reader(origin, pointer, entry);
  if (!entry.is_object()) reader.fail(pointer, "expected an object describing one GPU model, found " + describe(entry));
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
  // The MIG policy sizes its slices from mig_max_instances, so the flag and the count must agree.
  if (model.mig_supported && model.mig_max_instances == 0) {
    reader.fail(reader.field_pointer("mig_max_instances"),
                "expected a positive integer when mig_supported is true, found 0");
  }
  if (!model.mig_supported && model.mig_max_instances != 0) {
    reader.fail(reader.field_pointer("mig_max_instances"),
                "expected 0 when mig_supported is false, found " + std::to_string(model.mig_max_instances));
  }
  model.sources = reader.sources();
  return model;
}

}  // namespace

GpuCatalog GpuCatalog::parse(std::string_view json_text, const std::string& origin) {
  json document;
  try {
    document = json::parse(json_text.begin(), json_text.end());
  } catch (const json::parse_error& error) {
    throw InputError(origin, line_and_column(json_text, error.byte), "expected valid JSON, found " + parse_error_detail(error));
  }

  if (!document.is_object()) {
    throw InputError(origin, "", "expected an object with a \"gpus\" array, found " + describe(document));
  }
  static const std::array<std::string_view, 2> kTopLevelKeys = {"_about", "gpus"};
  for (const auto& [key, value] : document.items()) {
    if (key == "_about") {
      if (!value.is_string()) throw InputError(origin, "/_about", "expected a string, found " + describe(value));
    } else if (key != "gpus") {
      throw InputError(origin, "/" + pointer_token(key),
                       "expected \"_about\" or \"gpus\", found unknown key " + in_quotes(key) + did_you_mean(key, kTopLevelKeys));
    }
  }
  const auto gpus = document.find("gpus");
  if (gpus == document.end()) throw InputError(origin, "", "expected a \"gpus\" array, found no such field");
  if (!gpus->is_array() || gpus->empty()) {
    throw InputError(origin, "/gpus", "expected a non-empty array of GPU models, found " + describe(*gpus) +
                                          (gpus->is_array() ? " with no elements" : ""));
  }

  GpuCatalog catalog;
  std::map<std::string, std::string> first_pointer_of_id;
  for (std::size_t index = 0; index < gpus->size(); ++index) {
    const std::string pointer = "/gpus/" + std::to_string(index);
    GpuModel model = read_model(origin, pointer, (*gpus)[index]);
    const auto [earlier, inserted] = first_pointer_of_id.emplace(model.id, pointer);
    if (!inserted) {
      throw InputError(origin, pointer + "/id",
                       "expected a unique id, found " + in_quotes(model.id) + " again (first at " + earlier->second + ")");
    }
    catalog.models_.push_back(std::move(model));
  }
  return catalog;
}

GpuCatalog GpuCatalog::load_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw InputError(path, "", "expected a readable GPU catalog file, found none");
  std::ostringstream text;
  text << file.rdbuf();
  return parse(text.str(), path);
}

const GpuCatalog& GpuCatalog::builtin() {
  // Parsed on first use, once; the embedded text was validated by the unit tests, so a failure
  // here means a broken build and surfaces as the InputError it is.
  static const GpuCatalog catalog = parse(embedded::gpu_catalog(), std::string(kEmbeddedOrigin));
  return catalog;
}

const GpuModel* GpuCatalog::find(std::string_view id) const {
  // A dozen models: a scan is as fast as a map and keeps file order for listings.
  const auto found = std::find_if(models_.begin(), models_.end(), [&](const GpuModel& model) { return model.id == id; });
  return found == models_.end() ? nullptr : &*found;
}

std::vector<std::string> GpuCatalog::ids() const {
  std::vector<std::string> result;
  result.reserve(models_.size());
  for (const GpuModel& model : models_) result.push_back(model.id);
  return result;
}

}  // namespace sharesim
