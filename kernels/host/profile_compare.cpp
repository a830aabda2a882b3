#include "kernels/host/profile_compare.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "kernels/host/calib_error.h"
#include "kernels/host/fit.h"
#include "kernels/host/json_read.h"
#include "kernels/host/profile.h"
#include "kernels/host/raw_data.h"

namespace sharesim::calib {
namespace {

namespace fs = std::filesystem;

struct Field {
  double value = 0;
  bool measured = false;
  std::string raw_data;
};
using FieldList = std::vector<std::pair<std::string, Field>>;  // "section.field", in file order

// The profile's numbered fields: {"section": {"field": {"value", "provenance", ...}}}.
FieldList profile_fields(const nlohmann::json& profile) {
  FieldList out;
  for (const auto& [section, fields] : profile.items()) {
    if (!fields.is_object()) continue;
    for (const auto& [name, field] : fields.items()) {
      if (!field.is_object() || !field.contains("value") || !field["value"].is_number()) continue;
      Field f;
      f.value = field["value"].get<double>();
      f.measured = field.value("provenance", "") == "measured";
      if (f.measured && field.contains("measured") && field["measured"].contains("raw_data")) {
        f.raw_data = field["measured"]["raw_data"].get<std::string>();
      }
      out.push_back({section + "." + name, f});
    }
  }
  return out;
}

// The file a profile's raw_data names: as written, else from the repository root above
// results/calibration/ (the profile's folder's ../../).
std::string find_raw(const std::string& raw_data, const std::string& profile_path) {
  if (raw_data.empty()) return "";
  if (fs::is_regular_file(raw_data)) return raw_data;
  const fs::path beside = fs::path(profile_path).parent_path() / ".." / ".." / raw_data;
  return fs::is_regular_file(beside) ? beside.lexically_normal().string() : "";
}

// Spreads of every field fitted from samples in the raw file, by refitting it.
std::map<std::string, double> raw_spreads(const std::string& raw_path, const std::string& profile_path) {
  FitOptions fit;
  fit.base = read_ordered_json_file(profile_path);
  fit.base_path = profile_path;
  fit.raw_data_reference = raw_path;
  return fit_profile(parse_raw(read_json_file(raw_path), raw_path), raw_path, fit).relative_spread;
}

std::string first_raw(const FieldList& fields) {
  for (const auto& [name, field] : fields) {
    if (!field.raw_data.empty()) return field.raw_data;
  }
  return "";
}

}  // namespace

CheckReport compare_profiles(const std::string& new_path, const std::string& reference_path,
                             const ProfileCompareOptions& options) {
  const nlohmann::json fresh = load_profile_file(new_path);
  const nlohmann::json reference = load_profile_file(reference_path);
  if (fresh["gpu"] != reference["gpu"]) {
    throw CalibError(new_path, "/gpu",
                     "expected the reference's GPU " + reference["gpu"].dump() + ", found " + fresh["gpu"].dump());
  }
  CheckReport report;
  report.suite = "sharesim-calibrate compare";
  report.subject = new_path + " against " + reference_path;
  const FieldList new_fields = profile_fields(fresh);
  const FieldList reference_fields = profile_fields(reference);

  // Spread per field: the larger of the two raw files' (a noisier new measurement widens it).
  std::map<std::string, double> spread;
  const auto add_spreads = [&](const std::string& named, const FieldList& fields, const std::string& profile) {
    std::string raw = named;
    if (raw.empty()) {
      raw = find_raw(first_raw(fields), profile);
      if (raw.empty() && !first_raw(fields).empty()) {
        report.notes.push_back(profile + ": raw data " + first_raw(fields) + " not found; its spread is not used");
      }
    }
    if (raw.empty()) return;
    for (const auto& [name, s] : raw_spreads(raw, profile)) spread[name] = std::max(spread[name], s);
  };
  add_spreads(options.reference_raw, reference_fields, reference_path);
  add_spreads(options.new_raw, new_fields, new_path);

  std::map<std::string, const Field*> new_by_name;
  for (const auto& [name, field] : new_fields) new_by_name[name] = &field;
  for (const auto& [name, ref] : reference_fields) {
    const auto found = new_by_name.find(name);
    const bool measured = ref.measured || (found != new_by_name.end() && found->second->measured);
    if (!measured) continue;  // literature or assumed on both sides: nothing was measured
    MetricRow row;
    row.name = name;
    row.baseline = format_metric_value(ref.value) + (ref.measured ? "" : " (not measured)");
    const auto known = spread.find(name);
    const Tolerance fallback = Tolerance::relative(
        known == spread.end() ? kFallbackTolerance : std::max(kMinimumTolerance, kSpreadMultiple * known->second));
    const Tolerance tolerance = tolerance_for(name, options.tolerances, fallback);
    row.tolerance = tolerance.text();
    if (found == new_by_name.end() || (ref.measured && !found->second->measured)) {
      row.status = MetricRow::Status::missing;  // the reference measured it, the new profile did not
      if (found != new_by_name.end()) row.current = format_metric_value(found->second->value) + " (not measured)";
      report.rows.push_back(row);
      continue;
    }
    const double value = found->second->value;
    row.current = format_metric_value(value);
    row.change = format_change(ref.value, value);
    if (value == ref.value) {
      row.status = MetricRow::Status::same;
    } else {
      row.status = tolerance.allows(ref.value, value) ? MetricRow::Status::within : MetricRow::Status::regressed;
    }
    report.rows.push_back(row);
  }
  std::map<std::string, bool> in_reference;
  for (const auto& [name, ref] : reference_fields) in_reference[name] = true;
  for (const auto& [name, field] : new_fields) {
    if (!field.measured || in_reference.count(name) != 0) continue;
    MetricRow row;
    row.name = name;
    row.current = format_metric_value(field.value);
    row.status = MetricRow::Status::added;
    report.rows.push_back(row);
  }
  return report;
}

}  // namespace sharesim::calib
