#pragma once
// `sharesim profiles validate`: the held-out validation of the concurrent-sharing interference
// model (docs/validation.md). Every prediction is the MPS policy's own compute_rates().
#include <string>
#include <vector>

#include "kernels/host/raw_data.h"
#include "workloads/profiles/interference_validation.h"

namespace sharesim {

// A raw file of sharesim-calibrate, read and checked; an InputError (calib::CalibError) naming the
// file and the JSON pointer otherwise.
calib::RawData read_raw_calibration(const std::string& file);

// The MPS policy of catalog GPU `gpu_id` (one replica, no thread cap) as a ConcurrentSolver:
// jobs with the given interference parameters as its residents, their rates as it sets them.
ConcurrentSolver mps_policy_solver(const std::string& gpu_id);

// The Gavel tables (Markdown); `quick` = only the in-sample and cross-GPU rows (for tests).
std::string gavel_validation_report(const std::string& gavel_dir, bool quick);

// The H100/H200 calibration co-runs (raw files of sharesim-calibrate): per GPU and concurrent
// mode (MPS, CUDA streams), each stressor's sensitivity (its own resource and SMs) and pressure
// (every named resource) fitted with the relative-error objective; pairs in sample, triples
// predicted from the pairs (do pressures add?), and all in sample (Markdown).
std::string calibration_validation_report(const std::vector<std::string>& raw_files);

}  // namespace sharesim
