#pragma once
// `sharesim profiles validate --duty RAW.json`: the duty-cycle model of time-divided sharing
// (docs/models.md "Duty cycles") and the MPS model with duty cycles against the duty-cycle probe
// of sharesim-calibrate (docs/validation.md "Time-divided sharing: duty cycles").
#include <string>
#include <vector>

namespace sharesim {

// Markdown: a summary table (per GPU, sharing and number of co-runners: median and largest
// |relative error| of the predicted speeds, with each job's duty cycle taken from nvidia-smi's
// utilization.gpu measured alone, from the probe's setting, and ignored) and a table of every case.
std::string duty_cycle_validation_report(const std::vector<std::string>& raw_files);

}  // namespace sharesim
