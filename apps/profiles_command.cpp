#include "apps/profiles_command.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>

#include "apps/duty_cycle_validation.h"
#include "apps/mig_speed_check.h"
#include "apps/profiles_validate.h"
#include "policies/contention/contention_model.h"
#include "sim/input/error_text.h"
#include "workloads/profiles/profile_fit.h"
#include "workloads/profiles/workload_profile.h"

namespace sharesim {

struct ProfilesCommand {
  CLI::App* profiles = nullptr;
  CLI::App* fit = nullptr;
  CLI::App* list = nullptr;
  CLI::App* mig_check = nullptr;
  CLI::App* validate = nullptr;
  std::string miso_dir, gavel_dir, output_dir;
  std::vector<std::string> calibration_files;
  std::vector<std::string> duty_files;
  bool mig_check_detail = false;
  bool quick = false;
};

namespace {

// Gavel's pairs: two tasks at once on one GPU under the contention model, interference 1.
std::array<double, 2> contention_pair(FitDemand a, FitDemand b) {
  const std::array<ContentionTask, 2> tasks{ContentionTask{a.sm, a.bw, 1.0, 1.0}, ContentionTask{b.sm, b.bw, 1.0, 1.0}};
  std::array<double, 2> rates{};
  solve_contention(tasks, rates);
  return rates;
}

int run_fit(const ProfilesCommand& c) {
  std::vector<WorkloadProfile> profiles = read_miso_profiles(c.miso_dir);
  std::vector<WorkloadProfile> gavel = read_gavel_profiles(c.gavel_dir);
  profiles.insert(profiles.end(), std::make_move_iterator(gavel.begin()), std::make_move_iterator(gavel.end()));
  const ProfileLibrary unique(profiles);  // refuses two profiles of one name
  fit_profiles(profiles, contention_pair);
  const Hyperparameters h = fit_profile_interference(profiles, mps_policy_solver("V100-16GB"));
  write_profile_files(profiles, c.output_dir);
  std::cout << fit_report_markdown(profiles);
  std::cout << "\ninterference parameters fitted to Gavel's V100 pairs: rank " << h.rank << ", regularisation "
            << format_number(h.regularisation) << "\n";
  std::cout << "wrote " << profiles.size() << " profiles to " << c.output_dir << "\n";
  return 0;
}

int run_mig_check(const ProfilesCommand& c) {
  const MigSpeedCheck check = check_mig_speeds(c.miso_dir);
  std::cout << mig_speed_check_markdown(check);
  if (c.mig_check_detail) std::cout << "\n" << mig_speed_detail_markdown(check);
  return 0;
}

int run_validate(const ProfilesCommand& c) {
  // Every section is made before any is printed: bad data in a later one prints nothing at all.
  std::string out;
  if (!c.gavel_dir.empty()) {
    out += "## Concurrent sharing: Gavel pairs\n\n" + gavel_validation_report(c.gavel_dir, c.quick);
  }
  if (!c.calibration_files.empty()) {
    out += "\n## Concurrent sharing: calibration co-runs\n\n" + calibration_validation_report(c.calibration_files);
  }
  if (!c.duty_files.empty()) {
    out += "\n## Time-divided and concurrent sharing: duty cycles measured\n\n" +
           duty_cycle_validation_report(c.duty_files);
  }
  if (!c.miso_dir.empty()) {
    out += "\n## MIG slice speeds: MISO\n\n" + mig_speed_check_markdown(check_mig_speeds(c.miso_dir));
  }
  std::cout << out;
  return 0;
}

int run_list() {
  const ProfileLibrary& library = ProfileLibrary::builtin();
  std::size_t width = 7;
  for (const WorkloadProfile& p : library.profiles()) width = std::max(width, p.name.size());
  const auto pad = [](std::string text, std::size_t n) {
    text.resize(std::max(text.size(), n), ' ');
    return text;
  };
  // Fitted profiles show their fit; published ones (inference) their batch-1 request time and
  // memory, and the GPU the figures were measured on.
  std::cout << pad("PROFILE", width) << "  SM      BW      DATA       N    RMS-ERR  REQUEST-S  MEM-MIB  GPU\n";
  for (const WorkloadProfile& p : library.profiles()) {
    std::cout << pad(p.name, width) << "  " << pad(format_fixed(p.sm, 4), 6) << "  " << pad(format_fixed(p.bw, 4), 6)
              << "  ";
    if (p.published()) {
      std::cout << pad("published", 9) << "  " << pad("-", 3) << "  " << pad("-", 7) << "  "
                << pad(format_number(p.serving->request_s), 9) << "  "
                << pad(p.mem_mib ? std::to_string(*p.mem_mib) : "-", 7) << "  " << p.serving->gpu << "\n";
    } else {
      std::cout << pad(p.fit.data, 9) << "  " << pad(std::to_string(p.fit.measurements), 3) << "  "
                << pad(format_fixed(p.fit.rms_rel_error, 4), 7) << "  " << pad("-", 9) << "  "
                << pad(p.mem_mib ? std::to_string(*p.mem_mib) : "-", 7) << "  -\n";
    }
  }
  return 0;
}

}  // namespace

std::shared_ptr<ProfilesCommand> add_profiles_command(CLI::App& app) {
  auto c = std::make_shared<ProfilesCommand>();
  c->profiles =
      app.add_subcommand("profiles", "Workload profiles: list the built-in ones, or fit them to measured data");
  c->profiles->require_subcommand(1);
  c->fit = c->profiles->add_subcommand("fit", "Fit the profiles to MISO's and Gavel's measurements and write them");
  c->fit->add_option("--miso", c->miso_dir, "MISO data folder (mig_mean_iter_latency_s.csv)")->required();
  c->fit->add_option("--gavel", c->gavel_dir, "Gavel data folder (simulation_throughputs.json)")->required();
  c->fit->add_option("-o,--output", c->output_dir, "Folder to write <name>.json into")->required();
  c->list = c->profiles->add_subcommand("list", "List the built-in workload profiles");
  c->mig_check = c->profiles->add_subcommand(
      "mig-check", "Compare the MIG policy's slice speeds with MISO's A100-40GB measurements (Markdown tables)");
  c->mig_check->add_option("--miso", c->miso_dir, "MISO data folder (mig_mean_iter_latency_s.csv)")->required();
  c->mig_check->add_flag("--detail", c->mig_check_detail, "Also print every comparison, one row each");
  c->validate = c->profiles->add_subcommand(
      "validate", "Held-out validation of the co-location models on measured data (Markdown tables)");
  c->validate->add_option("--gavel", c->gavel_dir, "Gavel data folder (simulation_throughputs.json)");
  c->validate->add_option("--miso", c->miso_dir, "MISO data folder (mig_mean_iter_latency_s.csv)");
  c->validate->add_option("--calibration", c->calibration_files, "Raw calibration files with co-runs");
  c->validate->add_option("--duty", c->duty_files, "Raw calibration files with the duty-cycle probe");
  c->validate->add_flag("--quick", c->quick, "Gavel: only the in-sample and cross-GPU rows (seconds)");
  // Each data option adds its section; with none there is nothing to validate, which is a usage
  // error rather than an empty report (a ParseError: one line, exit 2, "(see --help)").
  c->validate->callback([self = c.get()] {
    if (self->gavel_dir.empty() && self->miso_dir.empty() && self->calibration_files.empty() &&
        self->duty_files.empty()) {
      throw CLI::ValidationError("profiles validate",
                                 "expected at least one of --gavel DIR, --miso DIR, --calibration FILE..., "
                                 "--duty FILE..., found none");
    }
  });
  return c;
}

bool profiles_command_chosen(const ProfilesCommand& command) { return command.profiles->parsed(); }

int run_profiles_command(const ProfilesCommand& command) {
  if (command.fit->parsed()) return run_fit(command);
  if (command.mig_check->parsed()) return run_mig_check(command);
  if (command.validate->parsed()) return run_validate(command);
  return run_list();
}

}  // namespace sharesim
