// sharesim-calibrate: measures a GPU's sharing behaviour with CUDA microbenchmarks and fits a
// calibration profile (docs/calibration.md).
//
//   sharesim-calibrate all -o RAW.json [--gpu ID]     measure everything (probe, corun, scaling, basics)
//   sharesim-calibrate probe|corun|scaling|basics|duty -o RAW.json
//   sharesim-calibrate fit RAW.json -o PROFILE.json --base PROFILE.json
//   sharesim-calibrate check PROFILE.json...          provenance and range check of profiles
//   sharesim-calibrate compare NEW.json REFERENCE.json [--tol FIELD=PCT]... [--junit FILE]
//                                                     measured fields against a stored profile
//
// It never changes the GPU's MIG layout, compute mode, clocks or persistence mode and never
// resets it (no nvidia-smi -mig/-c/-pm/-lgc/-r): MIG and MPS SM caps are emulated with green
// contexts, MPS uses a daemon of its own in a temporary directory.
//
// Exit codes: 0 success, 1 internal or CUDA error (compare: a field moved beyond tolerance), 2 bad
// input (command line, raw file, profile), 3 no CUDA device visible (one line on stderr).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include "apps/build_info.h"
#include "kernels/cuda/gpu_api.h"
#include "kernels/host/calib_error.h"
#include "kernels/host/file_write.h"
#include "kernels/host/fit.h"
#include "kernels/host/json_read.h"
#include "kernels/host/profile.h"
#include "kernels/host/profile_compare.h"
#include "kernels/host/raw_data.h"
#include "kernels/run_modes.h"
#include "sim/input/input_error.h"

namespace {

using namespace sharesim::calib;
namespace fs = std::filesystem;

constexpr int kExitInternal = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitNoDevice = 3;

int command_fit(const std::string& raw_path, const std::string& out, const std::string& base_path,
                const std::string& raw_reference, const std::string& catalog_path, bool quiet) {
  const RawData raw = parse_raw(read_json_file(raw_path), raw_path);
  // A raw file for no GPU of the catalog would be blamed on the base, or fitted for no GPU.
  require_catalog_gpu(raw.gpu, catalog_path, raw_path, "/gpu");
  FitOptions options;
  options.raw_data_reference =
      raw_reference.empty() ? "results/calibration/raw/" + fs::path(raw_path).filename().string() : raw_reference;
  load_profile_file(base_path);  // checked as any profile
  options.base = read_ordered_json_file(base_path);
  options.base_path = base_path;
  const std::string base_gpu = options.base["gpu"].get<std::string>();
  if (base_gpu != raw.gpu && base_gpu != "default") {
    throw CalibError(base_path, "/gpu",
                     "expected the raw data's GPU \"" + raw.gpu + "\" (or \"default\"), found \"" + base_gpu + "\"");
  }
  const FitResult result = fit_profile(raw, raw_path, options);
  write_file_atomically(out, result.profile.dump(2) + "\n");
  if (!quiet) {
    for (const std::string& line : result.report) std::cout << line << "\n";
    for (const std::string& note : result.notes) std::cout << "note: " << note << "\n";
    std::cout << "wrote " << out << "\n";
  }
  return 0;
}

int command_check(const std::vector<std::string>& paths, const std::string& catalog_path) {
  for (const std::string& path : paths) {
    const nlohmann::json profile = load_profile_file(path);
    // A profile is looked up by its GPU's catalog id, or is the "default" one (calibration.md):
    // one for no GPU of the catalog would never be used, so it does not pass.
    const std::string gpu = profile.at("gpu").get<std::string>();
    if (gpu != "default") require_catalog_gpu(gpu, catalog_path, path, "/gpu");
    // The profile reads, but a measured field whose raw data is gone has lost its source: said
    // on the profile's line, not a failure (a profile copied without its raw folder still works).
    const std::vector<std::string> missing = missing_raw_data(path);
    std::cout << path << ": ok";
    for (std::size_t i = 0; i < missing.size(); ++i) {
      std::cout << (i == 0 ? "; raw data not found: " : ", ") << missing[i];
    }
    std::cout << "\n";
  }
  return 0;
}

struct CompareArgs {
  std::string fresh, reference;
  std::optional<std::string> junit, markdown;  // set when given, even empty (an error)
  std::vector<std::string> tolerances;
  ProfileCompareOptions options;
};

int command_compare(CompareArgs& args) {
  for (const std::string& rule : args.tolerances) {
    args.options.tolerances.push_back(sharesim::parse_tolerance_rule(rule, "--tol"));
  }
  // Every report path is checked before any is written: bad input leaves no report behind.
  std::vector<std::pair<std::string, std::string>> reports;
  if (args.junit) reports.emplace_back("--junit", *args.junit);
  if (args.markdown) reports.emplace_back("--markdown", *args.markdown);
  sharesim::require_report_paths(reports);
  const sharesim::CheckReport report = compare_profiles(args.fresh, args.reference, args.options);
  if (args.junit) sharesim::write_file_making_dirs("--junit", *args.junit, sharesim::format_report_junit(report));
  if (args.markdown) {
    sharesim::write_file_making_dirs("--markdown", *args.markdown, sharesim::format_report_markdown(report));
  }
  std::cout << sharesim::format_report_text(report);
  return report.failures() > 0 ? 1 : 0;
}

// Parses "16,26,32" into SM counts.
std::vector<int> parse_sm_list(const std::string& text) {
  std::vector<int> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    std::size_t used = 0;
    int value = 0;
    try {
      value = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || item.empty() || value < 1) {
      throw CalibError("--sms", "", "expected a comma-separated list of positive SM counts, found \"" + text + "\"");
    }
    out.push_back(value);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"sharesim-calibrate: measure a GPU's sharing behaviour and fit a calibration profile"};
  app.set_version_flag("--version", sharesim::sharesim_version_line("sharesim-calibrate"));
  app.require_subcommand(1);

  RunOptions run;
  std::string sms_text;
  double probe_ms = 2000;
  double threshold_us = 4;
  double busy_ms = 20;
  double kernel_us = 1000;
  std::vector<CLI::App*> measuring;
  for (const auto& [name, help] : std::vector<std::pair<std::string, std::string>>{
           {"all", "Run every calibration microbenchmark (all but duty) and write one raw file"},
           {"probe", "Time-slice probe (2..8 processes) and cache-refill walk"},
           {"corun", "Co-run contention of the stressors: processes, MPS, streams"},
           {"scaling", "SM-fraction scaling with green contexts"},
           {"basics", "Launch latency, copy bandwidth, peak FMA rate"},
           {"duty", "Duty-cycle probe: processes busy a set share of the time, alone, in pairs and triples"}}) {
    CLI::App* sub = app.add_subcommand(name, help);
    sub->add_option("-o,--output", run.out, "Raw measurement file to write (JSON)")->required();
    sub->add_option("--device", run.device, "CUDA device ordinal")->check(CLI::NonNegativeNumber);
    sub->add_option("--gpu", run.gpu, "Catalog id of the GPU (default: from the device name)");
    sub->add_option("--catalog", run.catalog_path, "GPU catalog file --gpu is an id of, instead of the built-in one");
    sub->add_option("--seconds", run.seconds, "Seconds per co-run or scaling measurement")
        ->check(CLI::Range(0.05, 60.0));
    sub->add_option("--probe-ms", probe_ms, "Milliseconds per time-slice probe run")->check(CLI::Range(100.0, 60000.0));
    sub->add_option("--threshold-us", threshold_us, "Probe gap threshold in microseconds (>= 2)")
        ->check(CLI::Range(2.0, 1000.0));
    sub->add_option("--max-processes", run.max_processes, "Probe with 2..N processes")->check(CLI::Range(2, 8));
    sub->add_flag("--no-mps", run.skip_mps, "Do not start an MPS daemon (the MPS co-runs are recorded as skipped)");
    sub->add_option("--busy-ms", busy_ms, "Duty-cycle probe: GPU phase alone, milliseconds")
        ->check(CLI::Range(1.0, 1000.0));
    sub->add_option("--kernel-us", kernel_us, "Duty-cycle probe: one kernel alone, microseconds")
        ->check(CLI::Range(50.0, 100000.0));
    if (name == "duty") {
      sub->add_option("--mps-thread-percentage", run.duty_mps_thread_percentage,
                      "Duty-cycle probe: run only the MPS cases, each client with this "
                      "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE (a client's own limit, not a device setting)")
          ->check(CLI::Range(1, 100));
    }
    sub->add_option("--sms", sms_text, "SM counts for scaling, comma-separated (default: MIG sizes and 100/n %)");
    measuring.push_back(sub);
  }

  CLI::App* fit = app.add_subcommand("fit", "Fit a calibration profile to a raw measurement file");
  std::string raw_path;
  std::string profile_out;
  std::string base_path;
  std::string raw_reference;
  bool quiet = false;
  fit->add_option("raw", raw_path, "Raw measurement file (JSON)")->required();
  fit->add_option("-o,--output", profile_out, "Profile to write (JSON)")->required();
  fit->add_option("--base", base_path,
                  "Profile whose fields fill in what was not measured, e.g. results/calibration/H100-80GB.json")
      ->required();
  fit->add_option("--raw-ref", raw_reference,
                  "Path written into each measured field's raw_data (default results/calibration/raw/<file name>)");
  fit->add_flag("-q,--quiet", quiet, "Print nothing on success");
  std::string fit_catalog;
  fit->add_option("--catalog", fit_catalog,
                  "GPU catalog file the raw data's GPU is an id of, instead of the built-in one");

  CLI::App* check = app.add_subcommand("check", "Check calibration profiles (format, provenance, ranges)");
  std::vector<std::string> check_paths;
  check->add_option("profiles", check_paths, "Profile files")->required();
  std::string check_catalog;
  check->add_option("--catalog", check_catalog,
                    "GPU catalog file the profiles' GPUs are ids of, instead of the built-in one");

  CLI::App* compare = app.add_subcommand("compare", "Compare a new profile's measured fields with a reference profile");
  CompareArgs compare_args;
  compare->add_option("new", compare_args.fresh, "Freshly measured profile (JSON)")->required();
  compare->add_option("reference", compare_args.reference, "Stored profile to compare with (JSON)")->required();
  compare
      ->add_option("--tol", compare_args.tolerances,
                   "Tolerance of a field: FIELD=PCT% (e.g. timeslice.switch_cost_ns=10%), FIELD=NUMBER or "
                   "FIELD=exact; '*' matches anything (default: 3 robust SDs of the raw samples, else 5%)")
      ->allow_extra_args(false);
  compare->add_option("--reference-raw", compare_args.options.reference_raw,
                      "Raw file of the reference (default: its fields' raw_data)");
  compare->add_option("--new-raw", compare_args.options.new_raw, "Raw file of the new profile (default: its raw_data)");
  compare->add_option("--junit", compare_args.junit, "Write a JUnit XML report (a testcase per field)");
  compare->add_option("--markdown", compare_args.markdown, "Write a Markdown summary");

  CLI::App* worker = app.add_subcommand("worker", "(internal) one process of a multi-process measurement");
  worker->group("");
  WorkerOptions w;
  worker->add_option("--role", w.role)->required();
  worker->add_option("--device", w.device);
  worker->add_option("--duration-ns", w.duration_ns);
  worker->add_option("--threshold-ns", w.threshold_ns);
  worker->add_option("--buffer-bytes", w.buffer_bytes);
  worker->add_option("--stressor", w.stressor);
  worker->add_option("--seconds", w.seconds);
  worker->add_option("--iterations", w.iterations);
  worker->add_option("--kernels", w.kernels);
  worker->add_option("--host-ns", w.host_ns);
  worker->add_flag("--fixed-host", w.fixed_host);
  worker->add_option("--seed", w.seed);
  worker->add_option("--blocks", w.blocks);
  worker->add_option("--out", w.out)->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::string message = e.what();
    std::replace(message.begin(), message.end(), '\n', ' ');
    std::cerr << "sharesim-calibrate: error: " << message << " (see --help)\n";
    return kExitBadInput;
  }

  try {
    if (*fit) return command_fit(raw_path, profile_out, base_path, raw_reference, fit_catalog, quiet);
    if (*check) return command_check(check_paths, check_catalog);
    if (*compare) return command_compare(compare_args);
    if (*worker) return run_worker(w);
    for (CLI::App* sub : measuring) {
      if (!*sub) continue;
      run.probe_ns = static_cast<std::int64_t>(probe_ms * 1e6);
      run.threshold_ns = static_cast<std::int64_t>(threshold_us * 1e3);
      run.duty_busy_ns = static_cast<std::int64_t>(busy_ms * 1e6);
      run.duty_kernel_ns = static_cast<std::int64_t>(kernel_us * 1e3);
      if (!sms_text.empty()) run.sms = parse_sm_list(sms_text);
      // Bad options before the device query: no GPU time (and no "no device" exit) hides them.
      if (!run.gpu.empty()) require_catalog_gpu(run.gpu, run.catalog_path);
      require_writable_output(run.out);
      const gpu::DeviceInfo device = gpu::query_device(run.device);
      if (!device.visible) {
        std::cerr << "sharesim-calibrate: no CUDA device visible: " << device.why_not << "\n";
        return kExitNoDevice;
      }
      std::cerr << "sharesim-calibrate: measuring " << device.name << " (" << device.sm_count << " SMs)\n";
      const int failed = run_measurements(sub->get_name(), run, device);
      std::cout << "wrote " << run.out << "\n";
      return failed == 0 ? 0 : kExitInternal;  // partial data written; the failures are in the file
    }
  } catch (const CalibError& e) {
    std::cerr << "sharesim-calibrate: error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const sharesim::InputError& e) {
    std::cerr << "sharesim-calibrate: error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "sharesim-calibrate: error: " << e.what() << "\n";
    return kExitInternal;
  }
  return 0;
}
