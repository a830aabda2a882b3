// Calibration profiles (docs/calibration.md, "Format"): the provenance rule every number obeys,
// the check that enforces it, and builders for the fields sharesim-calibrate writes.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace sharesim::calib {

inline constexpr std::string_view kProfileFormat = "sharesim-calibration/1";

// Throws CalibError (file, JSON pointer, expected vs found) unless `profile` follows the format
// of docs/calibration.md: the check is the simulator's own loader
// (policies/calibration/calibration_profile.h, parse_calibration_profile), so a profile this
// program writes is one the simulator accepts.
void check_profile(const nlohmann::json& profile, const std::string& file);

// Reads and checks a profile file.
nlohmann::json load_profile_file(const std::string& path);

struct MeasuredBy {
  std::string device;
  std::string driver;
  std::string date;
  std::string raw_data;  // path of the raw file, as written into the profile
};

nlohmann::ordered_json measured_field(double value, const MeasuredBy& by, const std::string& note);

}  // namespace sharesim::calib
