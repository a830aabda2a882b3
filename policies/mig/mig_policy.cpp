#include "policies/mig/mig_policy.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "policies/contention/contention_model.h"
#include "policies/device_plugin.h"
#include "policies/memory_accounting.h"
#include "policies/mig/mig_profiles.h"
#include "policies/sharing_config.h"
#include "policies/time_sharing/duty_cycle.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"

namespace sharesim {
namespace {

// The layout a pool gets when it names none: the smallest instances for `single` (the most
// pods per GPU), mig-parted's all-balanced for `mixed`.
std::string default_layout(const MigGpuProfiles& gpu, const std::string& strategy) {
  if (strategy == "mixed") return "all-balanced";
  for (const MigProfile& p : gpu.profiles) {
    if (p.compute_slices == 1 && !p.media_extensions) return "all-" + std::string(p.name);
  }
  return "all-balanced";
}

}  // namespace

MigSettings MigSettings::read(const SharingConfig& config, const GpuModel& model) {
  config.reject_unknown_keys({"strategy", "layout", "timeslice", "repartitioning"});
  MigSettings settings;
  settings.gpu = mig_profiles_for(model.id);
  if (settings.gpu == nullptr) {
    throw InputError(config.file(), config.where("policy"),
                     "GPU model " + quote(model.id) + " has no MIG profiles" +
                         (model.mig_supported ? " in sharesim's tables" : " (catalog: mig_supported is false)") +
                         "; MIG models: " + quoted_list(mig_gpu_ids()));
  }
  settings.strategy = config.choice("strategy", "single", {"single", "mixed"});
  const std::vector<std::string> layout =
      config.text_or_list("layout", {default_layout(*settings.gpu, settings.strategy)});
  std::string problem;
  std::optional<MigLayout> parsed = parse_mig_layout(*settings.gpu, layout, problem);
  if (!parsed) throw InputError(config.file(), config.where("layout"), problem + " (GPU model " + model.id + ")");
  settings.layout = std::move(*parsed);
  if (settings.strategy == "single") {
    // The device plugin's single strategy requires identical instances on every GPU
    // (k8s-device-plugin README, "MIG support").
    for (const MigInstance& instance : settings.layout.instances) {
      if (instance.profile != settings.layout.instances.front().profile) {
        throw InputError(config.file(), config.where("layout"),
                         "strategy \"single\" needs every instance of one profile, but the layout is " +
                             format_mig_layout(settings.layout) + "; use strategy \"mixed\"");
      }
    }
  }
  if (const std::optional<SharingConfig> timeslice = config.section("timeslice")) {
    settings.timeslice = TimesliceSettings::read(*timeslice, model);
    if (settings.timeslice->fidelity != TimesliceFidelity::Fluid) {
      throw InputError(config.file(), timeslice->where("fidelity"),
                       "time-slicing inside MIG instances runs in fluid mode only; remove \"fidelity\"");
    }
  }
  settings.dynamic_repartitioning = config.choice("repartitioning", "none", {"none", "dynamic"}) == "dynamic";
  if (settings.dynamic_repartitioning && settings.strategy != "mixed") {
    throw InputError(config.file(), config.where("repartitioning"),
                     "dynamic repartitioning needs strategy \"mixed\": under \"single\" every instance is "
                     "nvidia.com/gpu, so a pending pod names no profile to lay a GPU out for");
  }
  return settings;
}

MigPolicy::MigPolicy(const MigSettings& settings, const GpuModel& model, ResourceNames& names,
                     const CalibrationProfile& profile, MeasuredMigSpeed measured_speed)
    : GpuSharing(SharingTraits("mig", UnitSpread::SeveralPerDevice)),
      settings_(settings),
      model_(model),
      timing_(slice_timing(settings.timeslice ? settings.timeslice->level : "default", profile)),
      reconfiguration_ns_(std::llround(profile.mig_reconfiguration_ns.value)),
      measured_speed_(std::move(measured_speed)) {
  const bool renamed = settings_.timeslice && settings_.timeslice->rename_by_default;
  for (const MigProfile& p : settings_.gpu->profiles) {
    std::string name;
    if (settings_.strategy == "single") {
      name = std::string(kNvidiaGpu);
    } else {
      // '+' may not appear in a Kubernetes resource name; "1g.10gb+me" is written "1g.10gb.me"
      // (assumed, docs/models.md "MIG").
      std::string profile_name(p.name);
      std::replace(profile_name.begin(), profile_name.end(), '+', '.');
      name = "nvidia.com/mig-" + profile_name;
    }
    if (renamed) name += ".shared";  // renameByDefault (k8s-device-plugin "Shared Access to GPUs")
    resource_by_profile_.push_back(names.intern(name));
    resource_names_.push_back(name);
  }
}

ResourceId MigPolicy::resource_of(const MigProfile& profile) const {
  return resource_by_profile_[static_cast<std::size_t>(&profile - settings_.gpu->profiles.data())];
}

std::string MigPolicy::resource_name_of(const MigProfile& profile) const {
  return resource_names_[static_cast<std::size_t>(&profile - settings_.gpu->profiles.data())];
}

// GFD's MIG labels (k8s-device-plugin docs/gpu-feature-discovery README, "MIG 'single'
// strategy" and "MIG 'mixed' strategy"): under single the node's GPUs are its instances, so the
// product gets "-MIG-<profile>" and the count and memory are the instances'; under mixed each
// profile has nvidia.com/mig-<profile>.count and .memory beside the unchanged GPU labels.
void MigPolicy::add_feature_labels(std::map<std::string, std::string>& labels, std::uint32_t gpus) const {
  labels["nvidia.com/mig.strategy"] = settings_.strategy;
  if (settings_.strategy == "single" && !settings_.layout.instances.empty()) {
    const MigProfile& profile = *settings_.layout.instances.front().profile;
    labels["nvidia.com/gpu.product"] = model_.product + "-MIG-" + std::string(profile.name);
    labels["nvidia.com/gpu.count"] = std::to_string(settings_.layout.instances.size() * gpus);
    labels["nvidia.com/gpu.memory"] = std::to_string(profile.memory_mib);
  }
  // After the product is set, so that "-SHARED" ends it.
  add_replica_labels(labels, replicas(), settings_.timeslice && settings_.timeslice->rename_by_default, "time-slicing");
  if (settings_.strategy != "mixed") return;
  std::map<std::string, std::int64_t> counts;
  for (const MigInstance& instance : settings_.layout.instances) {
    std::string name(instance.profile->name);
    std::replace(name.begin(), name.end(), '+', '.');  // as in the resource name, above
    ++counts[name];
    labels["nvidia.com/mig-" + name + ".memory"] = std::to_string(instance.profile->memory_mib);
  }
  for (const auto& [name, count] : counts) labels["nvidia.com/mig-" + name + ".count"] = std::to_string(count * gpus);
}

std::vector<ResourceQuantity> MigPolicy::advertise() const {
  std::vector<ResourceQuantity> out;
  for (const MigInstance& instance : settings_.layout.instances) {
    const ResourceId resource = resource_of(*instance.profile);
    auto it = std::find_if(out.begin(), out.end(), [&](const ResourceQuantity& q) { return q.resource == resource; });
    if (it == out.end()) it = out.insert(out.end(), ResourceQuantity{resource, 0});
    it->quantity += replicas();
  }
  return out;
}

bool MigPolicy::admit(const DeviceAsk& ask, std::int64_t free_units, std::span<const Resident> /*residents*/,
                      std::string* reason) const {
  // Units are counted per resource (instances x replicas), so a free unit is a free instance
  // (or replica) of the asked profile.
  for (const MigInstance& instance : settings_.layout.instances) {
    if (resource_of(*instance.profile) == ask.resource) {
      return admit_free_units(ask, free_units, resource_name_of(*instance.profile), reason);
    }
  }
  return false;
}

std::size_t MigPolicy::residents_on(std::span<const Resident> residents, std::size_t instance) const {
  std::size_t count = 0;
  for (const Resident& r : residents) count += (r.slots >> instance & 1u) ? 1u : 0u;
  return count;
}

std::uint32_t MigPolicy::choose_slots(const DeviceAsk& ask, std::span<const Resident> residents) const {
  // Each unit goes on the least-loaded instance of the asked resource (lowest index on ties):
  // plain MIG has one pod per instance; with time-slicing this spreads pods over instances.
  std::uint32_t slots = 0;
  std::vector<std::size_t> load(settings_.layout.instances.size());
  for (std::size_t i = 0; i < load.size(); ++i) load[i] = residents_on(residents, i);
  for (std::int64_t unit = 0; unit < ask.units; ++unit) {
    std::size_t best = load.size();
    for (std::size_t i = 0; i < load.size(); ++i) {
      if (resource_of(*settings_.layout.instances[i].profile) != ask.resource) continue;
      if (load[i] >= static_cast<std::size_t>(replicas())) continue;
      if (best == load.size() || load[i] < load[best]) best = i;
    }
    if (best == load.size()) break;  // more units than free replicas: the rest share its instances
    ++load[best];
    slots |= 1u << best;
  }
  return slots;
}

double mig_instance_speed(double sm, double bw, const GpuModel& model, const MigGpuProfiles& gpu,
                          const MigProfile& profile) {
  const double f_sm = static_cast<double>(profile.sm_count) / static_cast<double>(model.sm_count);
  const double f_bw = static_cast<double>(profile.memory_slices) / static_cast<double>(gpu.memory_slices);
  return partition_rate(ContentionTask{sm, bw, 1.0, 1.0}, f_sm, f_bw);
}

MigPolicy::OnInstance MigPolicy::on_instance(const PhaseDemand& demand, std::size_t instance) const {
  const MigProfile& profile = *settings_.layout.instances[instance].profile;
  const double u = demand.duty;
  if (demand.profile != 0 && measured_speed_) {
    // Measured speed relative to the 7g instance, times the model's speed on the 7g instance.
    // It is the whole workload's speed (MISO's iteration latency, host work included), so the
    // duty cycle stays as it is, and the 7g reference is the whole workload's too: its GPU
    // phases at the 7g instance's speed s7, its host phases at full speed (below).
    if (const std::optional<double> relative = measured_speed_(demand.profile, model_.id, profile.name)) {
      const double s7 =
          mig_instance_speed(demand.sm, demand.bw, model_, *settings_.gpu, settings_.gpu->full_instance());
      return {u, *relative / ((1 - u) + u / s7)};
    }
  }
  // The instance's share of the GPU slows the GPU phases only: the host phases use no SMs and
  // run at full speed, as under MPS's SM cap (docs/models.md "Duty cycles"). Alone, a task
  // with duty u whose GPU phases run at s takes (1 - u) + u / s of its standalone time, and has
  // GPU work queued u / s of it: that share is its duty cycle on the instance.
  const double s = mig_instance_speed(demand.sm, demand.bw, model_, *settings_.gpu, profile);
  const double cycle = (1 - u) + u / s;
  return {(u / s) / cycle, 1 / cycle};
}

void MigPolicy::compute_rates(std::span<Resident> residents) const {
  // Time-slicing inside an instance: the active pods of one instance take turns on its time
  // while their GPU work overlaps, minus the switches (docs/models.md "Duty cycles").
  const auto runs_on = [](const Resident& r, std::size_t instance) {
    return is_active(r) && (r.slots >> instance & 1u) != 0;
  };
  for (Resident& r : residents) r.rate = (is_active(r) && r.slots != 0) ? std::numeric_limits<double>::infinity() : 0.0;
  const std::size_t instances = settings_.layout.instances.size();
  for (std::size_t i = 0; i < instances; ++i) {
    duty_scratch_.clear();
    alone_scratch_.clear();
    for (const Resident& r : residents) {
      if (!runs_on(r, i)) continue;
      const OnInstance task = on_instance(r.demand, i);
      duty_scratch_.push_back(task.duty);
      alone_scratch_.push_back(task.speed_alone);
    }
    if (duty_scratch_.empty()) continue;
    speed_scratch_.resize(duty_scratch_.size());
    duty_cycle_speeds(duty_scratch_, timing_.efficiency(), speed_scratch_);
    std::size_t k = 0;
    for (Resident& r : residents) {
      if (!runs_on(r, i)) continue;
      r.rate = std::min(r.rate, speed_scratch_[k] * alone_scratch_[k]);
      ++k;
    }
  }
}

void MigPolicy::on_join(std::span<const Resident> residents, Casualties& out) const {
  const Resident& newcomer = residents.back();
  const std::size_t newcomer_index = residents.size() - 1;
  if (settings_.timeslice && settings_.timeslice->fail_requests_greater_than_one && newcomer.ask.requested > 1) {
    const MigProfile& profile =
        *settings_.layout.instances[static_cast<std::size_t>(std::countr_zero(newcomer.slots))].profile;
    reject_request_greater_than_one(newcomer_index, resource_name_of(profile), newcomer.ask.requested, out);
    return;
  }
  // Memory is isolated per instance: the pods of one instance share its memory only.
  for (std::size_t i = 0; i < settings_.layout.instances.size(); ++i) {
    if (!(newcomer.slots >> i & 1u)) continue;
    std::int64_t used = 0;
    for (const Resident& r : residents) used += (r.slots >> i & 1u) ? r.demand.mem_mib : 0;
    const std::int64_t limit = settings_.layout.instances[i].profile->memory_mib;
    if (used <= limit) continue;
    out.cause = KillCause::Oom;
    out.reason = oom_message(newcomer.demand.mem_mib, used, limit) + " (MIG instance " + instance_name(i) + ")";
    const bool whole_instance = settings_.timeslice && settings_.timeslice->oom_blast_radius == OomBlastRadius::Gpu;
    for (std::size_t k = 0; k < residents.size(); ++k) {
      if (k == newcomer_index || (whole_instance && (residents[k].slots >> i & 1u))) out.killed.push_back(k);
    }
    return;
  }
}

void MigPolicy::on_fault(std::span<const Resident> /*residents*/, std::size_t faulting, Casualties& out) const {
  // Faults stay inside the instance (MIG user guide: instances are isolated, including error
  // containment); inside it, time-sliced contexts are isolated as under time-slicing.
  out.killed.push_back(faulting);
  out.cause = KillCause::Fault;
  out.reason = "fatal GPU fault in its own context (MIG instances are isolated from each other's faults)";
}

std::string MigPolicy::placement_note(const DeviceAsk& ask) const {
  if (ask.requested <= 1 || !settings_.timeslice || settings_.timeslice->fail_requests_greater_than_one) return {};
  if (settings_.timeslice->replicas <= 1) return {};
  return "asked for " + std::to_string(ask.requested) +
         " time-slicing replicas of MIG instances: replicas of one instance give no extra compute";
}

double MigPolicy::context_switches_per_ns(std::span<const Resident> residents) const {
  double rate = 0;
  for (std::size_t i = 0; i < settings_.layout.instances.size(); ++i) {
    duty_scratch_.clear();
    for (const Resident& r : residents) {
      if (is_active(r) && (r.slots >> i & 1u)) duty_scratch_.push_back(on_instance(r.demand, i).duty);
    }
    if (duty_scratch_.size() >= 2) {
      rate += duty_cycle_turn_taking(duty_scratch_, timing_.efficiency()) * timing_.switches_per_ns();
    }
  }
  return rate;
}

bool MigPolicy::can_repartition_for(const DeviceAsk& ask) const {
  return std::find(resource_by_profile_.begin(), resource_by_profile_.end(), ask.resource) !=
         resource_by_profile_.end();
}

std::vector<std::string> MigPolicy::instances_for(const DeviceAsk& ask, std::int64_t wanted) const {
  const auto asked = std::find(resource_by_profile_.begin(), resource_by_profile_.end(), ask.resource);
  if (asked == resource_by_profile_.end()) return {};
  const std::string name(settings_.gpu->profiles[static_cast<std::size_t>(asked - resource_by_profile_.begin())].name);
  // As many instances of the profile as a layout holds (the MIG user guide's placements), up to
  // `wanted`: parse_mig_layout says whether one more still fits.
  std::vector<std::string> names;
  std::string problem;
  while (static_cast<std::int64_t>(names.size()) < wanted) {
    names.push_back(name);
    if (!parse_mig_layout(*settings_.gpu, names, problem)) {
      names.pop_back();
      break;
    }
  }
  return names;
}

std::int64_t MigPolicy::most_units_for(const DeviceAsk& ask) const {
  // Every unit of an instance is a time-slicing replica of it.
  return static_cast<std::int64_t>(instances_for(ask, settings_.gpu->compute_slices).size()) * replicas();
}

void MigPolicy::repartition_for(const DeviceAsk& ask) {
  // The new layout holds the asked profile, as many times as the units asked need (or fit),
  // then as many of the old instances as still fit, in their old order: the smallest change
  // that offers what the pending pod asks for.
  const std::int64_t instances = (ask.units + replicas() - 1) / replicas();
  std::vector<std::string> names = instances_for(ask, std::max<std::int64_t>(1, instances));
  if (names.empty()) return;
  std::string problem;
  std::optional<MigLayout> layout = parse_mig_layout(*settings_.gpu, names, problem);
  if (!layout) return;  // cannot happen: instances_for keeps only layouts that parse
  for (const MigInstance& old : settings_.layout.instances) {
    names.emplace_back(old.profile->name);
    if (std::optional<MigLayout> bigger = parse_mig_layout(*settings_.gpu, names, problem)) {
      layout = std::move(bigger);
    } else {
      names.pop_back();
    }
  }
  settings_.layout = std::move(*layout);
}

std::string MigPolicy::instance_name(std::size_t instance) const {
  const MigInstance& i = settings_.layout.instances[instance];
  return std::string(i.profile->name) + "@" + std::to_string(i.start);
}

PolicyEntry mig_policy_entry() {
  PolicyEntry entry;
  entry.name = "mig";
  entry.make = [](const PolicyBuildContext& build) -> std::unique_ptr<GpuSharing> {
    return std::make_unique<MigPolicy>(MigSettings::read(build.config, build.model), build.model, build.names,
                                       build.profile, build.measured.mig_speed);
  };
  entry.compare_default = [](const std::string& gpu_id) {
    nlohmann::ordered_json sharing{{"policy", "mig"}};
    // Single strategy, so pods keep asking nvidia.com/gpu; all-2g is three instances per GPU,
    // the MIG layout nearest the 4-way sharing of the others. Without a MIG table the
    // factory's own message says so when the run is built.
    if (const MigGpuProfiles* mig = mig_profiles_for(gpu_id)) {
      for (const std::string& layout : mig->layout_names()) {
        if (layout.rfind("all-2g.", 0) == 0 && layout.find(".me") == std::string::npos) {
          sharing["strategy"] = "single";
          sharing["layout"] = layout;
          break;
        }
      }
    }
    return sharing;
  };
  entry.in_demo = true;
  return entry;
}

}  // namespace sharesim
