#include "kernels/host/profile_compare.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>

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

// The spread of every field the raw file shows one for (FitResult::spread), by refitting it.
std::map<std::string, double> raw_spreads(const std::string& raw_path, const std::string& profile_path) {
  FitOptions fit;
  fit.base = read_ordered_json_file(profile_path);
  fit.base_path = profile_path;
  fit.raw_data_reference = raw_path;
  return fit_profile(parse_raw(read_json_file(raw_path), raw_path), raw_path, fit).spread;
}

// z with P(|Z| > z) = error for a standard normal Z, by bisection on erfc (monotone).
double two_sided_z(double error) {
  double low = 0;
  double high = 40;
  for (int i = 0; i < 200; ++i) {
    const double mid = (low + high) / 2;
    (std::erfc(mid / std::sqrt(2.0)) > error ? low : high) = mid;
  }
  return (low + high) / 2;
}

// z standard deviations of the difference of two measurements, sqrt(sd_ref^2 + sd_new^2); a side
// whose raw data shows no spread is taken to vary as much as the other. Relative to the
// reference value, at least kMinimumTolerance; absolute for a reference value of 0. Nothing when
// neither side's raw data shows a spread of the field.
std::optional<Tolerance> default_tolerance(double reference_value, double z,
                                           const std::map<std::string, double>& reference_spread,
                                           const std::map<std::string, double>& new_spread, const std::string& name) {
  const auto ref = reference_spread.find(name);
  const auto fresh = new_spread.find(name);
  const bool has_ref = ref != reference_spread.end();
  const bool has_new = fresh != new_spread.end();
  if (!has_ref && !has_new) return std::nullopt;
  const double ref_sd = has_ref ? ref->second : fresh->second;
  const double new_sd = has_new ? fresh->second : ref->second;
  const double allowed = z * std::hypot(ref_sd, new_sd);
  if (reference_value == 0) return Tolerance::absolute(allowed);
  return Tolerance::relative(std::max(kMinimumTolerance, allowed / std::fabs(reference_value)));
}

std::string first_raw(const FieldList& fields) {
  for (const auto& [name, field] : fields) {
    if (!field.raw_data.empty()) return field.raw_data;
  }
  return "";
}

}  // namespace

std::vector<std::string> missing_raw_data(const std::string& profile_path) {
  std::vector<std::string> named, missing;
  for (const auto& [name, field] : profile_fields(load_profile_file(profile_path))) {
    if (field.raw_data.empty() || std::find(named.begin(), named.end(), field.raw_data) != named.end()) continue;
    named.push_back(field.raw_data);
    if (find_raw(field.raw_data, profile_path).empty()) missing.push_back(field.raw_data + " (named by " + name + ")");
  }
  return missing;
}

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
  std::vector<std::string> names;
  for (const FieldList* fields : {&new_fields, &reference_fields}) {
    for (const auto& [name, field] : *fields) names.push_back(name);
  }
  require_every_rule_matches(options.tolerances, names, "--tol", "field");

  // Spread per field in each profile's raw data, where it is found.
  bool raw_found = false;
  const auto spreads = [&](const std::string& named, const FieldList& fields, const std::string& profile) {
    std::string raw = named;
    if (raw.empty()) {
      raw = find_raw(first_raw(fields), profile);
      // Every raw file named and not found is said, not only the one the spread would come from.
      for (const std::string& lost : missing_raw_data(profile)) {
        report.notes.push_back(profile + ": raw data " + lost + " not found" +
                               (lost.rfind(first_raw(fields) + " ", 0) == 0 ? "; its spread is not used" : ""));
      }
    }
    raw_found = raw_found || !raw.empty();
    return raw.empty() ? std::map<std::string, double>{} : raw_spreads(raw, profile);
  };
  const std::map<std::string, double> reference_spread =
      spreads(options.reference_raw, reference_fields, reference_path);
  const std::map<std::string, double> new_spread = spreads(options.new_raw, new_fields, new_path);

  std::map<std::string, const Field*> new_by_name;
  for (const auto& [name, field] : new_fields) new_by_name[name] = &field;
  std::vector<const FieldList::value_type*> compared;  // measured on either side
  for (const auto& field : reference_fields) {
    const auto found = new_by_name.find(field.first);
    if (field.second.measured || (found != new_by_name.end() && found->second->measured)) compared.push_back(&field);
  }
  // Every field with a spread is a test of "no change"; their joint false-alarm rate is held at
  // kFamilyWiseError by testing each at kFamilyWiseError / count (Bonferroni).
  const auto tests = std::count_if(compared.begin(), compared.end(), [&](const FieldList::value_type* field) {
    return reference_spread.count(field->first) != 0 || new_spread.count(field->first) != 0;
  });
  const double z = two_sided_z(kFamilyWiseError / static_cast<double>(std::max<std::ptrdiff_t>(1, tests)));

  for (const FieldList::value_type* field : compared) {
    const std::string& name = field->first;
    const Field& ref = field->second;
    const auto found = new_by_name.find(name);
    MetricRow row;
    row.name = name;
    row.baseline = format_metric_value(ref.value) + (ref.measured ? "" : " (not measured)");
    // A --tol rule wins; else the spread; else, where raw data were read but show no spread of
    // the field (measured once), no tolerance; without raw data, kFallbackTolerance.
    std::optional<Tolerance> tolerance = matching_tolerance(name, options.tolerances);
    if (!tolerance) tolerance = default_tolerance(ref.value, z, reference_spread, new_spread, name);
    if (!tolerance && !raw_found) tolerance = Tolerance::relative(kFallbackTolerance);
    row.tolerance = tolerance ? tolerance->text() : "none";
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
    } else if (!tolerance) {
      row.status = MetricRow::Status::unchecked;
    } else {
      row.status = tolerance->allows(ref.value, value) ? MetricRow::Status::within : MetricRow::Status::regressed;
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
