#include "apps/duty_cycle_validation.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "apps/profiles_validate.h"
#include "apps/validation_policy.h"
#include "kernels/host/raw_data.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"

namespace sharesim {

namespace {

// How a job's duty cycle reaches the model.
enum class DutySource { NvidiaSmi, Set, Ignored };

// The sharing config each probe mode ran under: separate processes are time-sliced by the GPU;
// MPS clients of one daemon run concurrently, with no CUDA_MPS_ACTIVE_THREAD_PERCENTAGE (replicas 1
// leaves the thread percentage at 100; more replicas would cap each client at 100 / replicas %)
// or with the percentage the case names.
nlohmann::json sharing_of(const std::string& mode, int thread_percentage) {
  if (mode != "mps") return nlohmann::json{{"policy", "timeslice"}, {"replicas", 8}};
  nlohmann::json mps{{"policy", "mps"}, {"replicas", 1}};
  if (thread_percentage > 0) mps["active_thread_percentage"] = thread_percentage;
  return mps;
}

std::string sharing_name(const std::string& mode, int thread_percentage) {
  if (mode != "mps") return "time-sliced processes";
  return thread_percentage > 0 ? "MPS, " + std::to_string(thread_percentage) + "% threads" : "MPS";
}

std::string duties_text(const std::vector<double>& duties) {
  std::string out;
  for (double d : duties) {
    if (!out.empty()) out += " + ";
    out += format_fixed(d, 1);
  }
  return out;
}

std::string list_text(const std::vector<double>& values, int digits) {
  std::string out;
  for (double v : values) {
    if (!out.empty()) out += ", ";
    out += format_fixed(v, digits);
  }
  return out;
}

struct Solo {
  double kernel_ns = 0;  // GPU phase time per kernel alone
  double smi_util = 0;   // nvidia-smi utilization.gpu / 100, alone
};

// The MPS duty-cycle formula (models.md "Duty cycles", MPS) was chosen between two versions on the
// MPS rows of one run: the H100 probe of 2026-11-25 (results/calibration/raw/H100-80GB-duty-20261125.json).
// Those rows are in sample for that choice; MPS rows of any other run are held out from it.
bool mps_formula_selection_run(const calib::RawData& raw) {
  return raw.gpu == "H100-80GB" && raw.date == "2026-11-25T19:27:47Z";
}

std::string formula_role(const calib::RawData& raw, const std::string& mode) {
  if (mode != "mps") return "not fitted";
  return mps_formula_selection_run(raw) ? "MPS formula chosen on these rows (in sample)" : "held out";
}

struct Row {
  std::string gpu, sharing, host_phases, phase_ms, role;
  std::size_t size = 0;
  std::vector<double> smi, set, ignored;  // |relative errors| per duty source
};

struct Detail {
  std::string gpu, phase_ms, sharing, host_phases, duties;
  std::vector<double> smi_util, measured, predicted;
};

}  // namespace

std::string duty_cycle_validation_report(const std::vector<std::string>& raw_files) {
  std::vector<Row> rows;
  std::vector<Detail> details;
  for (const std::string& file : raw_files) {
    const calib::RawData raw = read_raw_calibration(file);
    if (!raw.duty_cycle) throw InputError(file, "/duty_cycle", "expected duty-cycle probe measurements, found none");
    // The GPU phase of one cycle alone, as the probe set it.
    const std::string phase_ms =
        format_fixed(static_cast<double>(raw.duty_cycle->kernels_per_phase * raw.duty_cycle->kernel_ns_tuned) / 1e6, 0);
    // Each mode, and each thread percentage of MPS clients: the uncapped alone runs are the
    // reference of every speed, so a capped client alone is a case tested too.
    std::vector<std::pair<std::string, int>> sharings{{"processes", 0}, {"mps", 0}};
    for (const calib::DutyCase& c : raw.duty_cycle->cases) {
      if (c.thread_percentage > 0 &&
          std::find(sharings.begin(), sharings.end(), std::pair{c.mode, c.thread_percentage}) == sharings.end()) {
        sharings.emplace_back(c.mode, c.thread_percentage);
      }
    }
    for (const auto& [mode, thread_percentage] : sharings) {
      std::map<double, Solo> solo;
      for (const calib::DutyCase& c : raw.duty_cycle->cases) {
        if (c.mode != mode || c.thread_percentage != 0 || c.processes.size() != 1) continue;
        const double util = calib::mean_gpu_util_pct(c);
        if (util < 0)
          throw InputError(file, "/duty_cycle",
                           "no nvidia-smi samples for the alone run of duty " + format_fixed(c.processes[0].duty, 2));
        solo[c.processes[0].duty] = Solo{calib::solo_kernel_ns(c.processes[0]), std::clamp(util / 100, 0.01, 1.0)};
      }
      if (solo.empty()) continue;
      const auto under_test = make_validation_policy(raw.gpu, sharing_of(mode, thread_percentage));
      const auto alone_of = [&](double duty) -> const Solo& {
        const auto it = solo.find(duty);
        if (it == solo.end()) {
          throw InputError(file, "/duty_cycle", "no alone run of duty " + format_fixed(duty, 2) + " under " + mode);
        }
        return it->second;
      };
      const auto predict = [&](const calib::DutyCase& c, DutySource source) {
        std::vector<Resident> residents(c.processes.size());
        for (std::size_t i = 0; i < residents.size(); ++i) {
          residents[i].demand.sm = 1.0;  // GPU-filling FMA kernels, no DRAM traffic
          residents[i].demand.bw = 0.0;
          const double d = c.processes[i].duty;
          residents[i].demand.duty = source == DutySource::NvidiaSmi ? alone_of(d).smi_util
                                     : source == DutySource::Set     ? d
                                                                     : 1.0;
        }
        return policy_rates(*under_test->policy, residents);
      };
      std::map<std::pair<std::size_t, std::string>, Row> by_size;
      for (const calib::DutyCase& c : raw.duty_cycle->cases) {
        const std::size_t smallest = thread_percentage > 0 ? 1 : 2;
        if (c.mode != mode || c.thread_percentage != thread_percentage || c.processes.size() < smallest) continue;
        Row& row = by_size[{c.processes.size(), c.host_phases}];
        row.gpu = raw.gpu;
        row.phase_ms = phase_ms;
        row.sharing = sharing_name(mode, thread_percentage);
        row.host_phases = c.host_phases;
        row.role = formula_role(raw, mode);
        row.size = c.processes.size();
        const std::vector<double> smi = predict(c, DutySource::NvidiaSmi);
        const std::vector<double> set = predict(c, DutySource::Set);
        const std::vector<double> ignored = predict(c, DutySource::Ignored);
        Detail detail{raw.gpu, phase_ms, sharing_name(mode, thread_percentage), c.host_phases, "", {}, {}, {}};
        std::vector<double> duties;
        for (std::size_t i = 0; i < c.processes.size(); ++i) {
          const calib::DutyProcess& p = c.processes[i];
          const Solo& alone = alone_of(p.duty);
          const double measured = calib::duty_speed(p, alone.kernel_ns);
          row.smi.push_back(std::abs(smi[i] - measured) / measured);
          row.set.push_back(std::abs(set[i] - measured) / measured);
          row.ignored.push_back(std::abs(ignored[i] - measured) / measured);
          duties.push_back(p.duty);
          detail.smi_util.push_back(alone.smi_util);
          detail.measured.push_back(measured);
          detail.predicted.push_back(smi[i]);
        }
        detail.duties = duties_text(duties);
        details.push_back(detail);
      }
      for (auto& [key, row] : by_size) rows.push_back(row);
    }
  }
  const auto max_of = [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); };
  std::ostringstream out;
  out << "| GPU | GPU phase ms | sharing | co-runners | host phases | speeds | median abs rel err | max abs rel err | "
         "median, duty as set | median, duty ignored | selection |\n|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const Row& r : rows) {
    out << "| " << r.gpu << " | " << r.phase_ms << " | " << r.sharing << " | " << r.size << " | " << r.host_phases
        << " | " << r.smi.size() << " | " << format_fixed(median_of(r.smi), 3) << " | "
        << format_fixed(max_of(r.smi), 3) << " | " << format_fixed(median_of(r.set), 3) << " | "
        << format_fixed(median_of(r.ignored), 3) << " | " << r.role << " |\n";
  }
  out << "\n| GPU | GPU phase ms | sharing | host phases | duties (set) | utilization.gpu alone | measured speeds | "
         "predicted speeds |\n|---|---|---|---|---|---|---|---|\n";
  for (const Detail& d : details) {
    out << "| " << d.gpu << " | " << d.phase_ms << " | " << d.sharing << " | " << d.host_phases << " | " << d.duties
        << " | " << list_text(d.smi_util, 2) << " | " << list_text(d.measured, 3) << " | " << list_text(d.predicted, 3)
        << " |\n";
  }
  return out.str();
}

}  // namespace sharesim
