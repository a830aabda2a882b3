#include "kernels/host/profile.h"

#include <cmath>

#include "kernels/host/calib_error.h"
#include "kernels/host/json_read.h"
#include "policies/calibration/calibration_profile.h"
#include "sim/input/input_error.h"

namespace sharesim::calib {

void check_profile(const nlohmann::json& profile, const std::string& file) {
  // The simulator's own loader is the one definition of the format: what it accepts is valid.
  try {
    parse_calibration_profile(profile.dump(), file);
  } catch (const InputError& e) {
    throw CalibError(e.file(), e.where(), e.problem());
  }
}

nlohmann::json load_profile_file(const std::string& path) {
  nlohmann::json profile = read_json_file(path);
  check_profile(profile, path);
  return profile;
}

nlohmann::ordered_json measured_field(double value, const MeasuredBy& by, const std::string& note) {
  nlohmann::ordered_json field;
  if (std::nearbyint(value) == value && std::fabs(value) < 9e15) {
    field["value"] = static_cast<std::int64_t>(value);
  } else {
    field["value"] = value;
  }
  field["provenance"] = "measured";
  field["measured"] = {{"device", by.device}, {"driver", by.driver}, {"date", by.date}, {"raw_data", by.raw_data}};
  if (!note.empty()) field["note"] = note;
  return field;
}

}  // namespace sharesim::calib
