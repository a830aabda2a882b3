// `sharesim-calibrate fit`: from a raw measurement file to a calibration profile in the format
// of docs/calibration.md, plus a report of how well the fitted models reproduce the measurements.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kernels/host/raw_data.h"

namespace sharesim::calib {

struct FitOptions {
  // Path of the raw file as written into each measured field ("raw_data"); by convention
  // results/calibration/raw/<file name>.
  std::string raw_data_reference;
  // A checked profile whose fields fill in what was not measured (keeping their provenance),
  // usually the literature profile of the same GPU; `base_path` names it in "about". A profile
  // gives every field (docs/calibration.md), so a fit needs one.
  nlohmann::ordered_json base;
  std::string base_path;
};

struct FitResult {
  nlohmann::ordered_json profile;
  std::vector<std::string> report;  // human-readable lines: fitted values and per-case errors
  std::vector<std::string> notes;   // parts of the raw data that could not be used, and why
  // "section.field" -> how much the field's value may vary between measurements as this raw
  // data shows it, as a standard deviation in the field's unit: for a median of repeated samples
  // the samples' robust SD, 1.4826 * MAD (robust_stats.h); for a fitted factor (interference,
  // SM-scaling parallel fraction) its standard error (slope_uncertainty.h). A field measured once
  // (one co-run ratio, one SM-scaling speed) has no entry: one number shows no spread.
  // `sharesim-calibrate compare` sets its tolerances from it.
  std::map<std::string, double> spread;
};

// Deterministic: the same raw data and options give a byte-identical profile.
// Throws CalibError (file = `raw_file`) when the data cannot give any field.
FitResult fit_profile(const RawData& raw, const std::string& raw_file, const FitOptions& options);

}  // namespace sharesim::calib
