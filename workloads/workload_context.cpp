#include "workloads/workload_context.h"

#include <functional>
#include <iostream>
#include <limits>
#include <optional>
#include <string_view>

#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/input/json_pointer.h"
#include "sim/cluster/gpu_catalog.h"
#include "workloads/measured_usage.h"
#include "workloads/profiles/workload_profile.h"

namespace sharesim {
namespace {

std::string range_phrase(const PerDeviceResourceRule& r) {
  std::string text = r.step > 1 ? "a multiple of " + std::to_string(r.step) : std::string("an integer");
  if (r.max == kNoPerDeviceLimit) return text + " >= " + std::to_string(r.min);
  return text + " from " + std::to_string(r.min) + " to " + std::to_string(r.max);
}

// Kubernetes' API validation of a pod's tolerations (validateTolerations in
// pkg/apis/core/validation/validation.go): an empty key needs operator Exists ("match all
// values and all keys"), and Exists takes no value. The API server refuses a pod that breaks
// either rule; read as given, the first would tolerate every taint of that value whatever its
// key, and the second would drop the value without a word.
void check_toleration(const Toleration& toleration, const nlohmann::json& given, const std::string& file,
                      const std::string& pointer) {
  if (toleration.key.empty() && toleration.op != "Exists") {
    const bool has_operator = given.contains("operator");
    throw InputError(file, has_operator ? pointer + "/operator" : pointer,
                     std::string("expected ") + (has_operator ? "" : "\"operator\": ") +
                         "\"Exists\" when \"key\" is empty (Kubernetes: operator must be Exists when key is empty, "
                         "which means \"match all values and all keys\"), found " +
                         (has_operator ? quote(toleration.op) : "no \"operator\" (Equal by default)"));
  }
  if (toleration.op == "Exists" && !toleration.value.empty()) {
    throw InputError(file, pointer + "/value",
                     "expected no \"value\" with \"operator\": \"Exists\" (Kubernetes: value must be empty when "
                     "operator is Exists), found " +
                         quote(toleration.value));
  }
}

}  // namespace

std::string WorkloadContext::per_device_names() const {
  std::string names;
  for (const PerDeviceResourceRule& rule : per_device_rules.rules) names += (names.empty() ? "" : ", ") + rule.name;
  return names;
}

std::uint32_t WorkloadContext::intern_origin(const std::string& name, const std::string& kind) {
  const auto [it, inserted] = origin_index_.try_emplace({name, kind}, static_cast<std::uint32_t>(origins.size()));
  if (inserted) {
    JobOrigin origin;
    origin.name = name;
    origin.kind = kind;
    origins.push_back(std::move(origin));
  }
  return it->second;
}

PriorityClassSpec WorkloadContext::priority_of(const nlohmann::json& entry) const {
  if (const auto name = entry.find("priority_class"); name != entry.end()) {
    const auto found = priority_classes.find(name->get<std::string>());
    if (found != priority_classes.end()) return found->second;
  }
  return PriorityClassSpec{entry.value("priority", 0), true};
}

PodShape WorkloadContext::base_shape(std::int64_t gpus, std::int64_t cpu_milli, std::int64_t memory_mib,
                                     const std::string& gpu_model_id, const std::string& file,
                                     const std::string& where) {
  PodShape shape;
  shape.gpu_resource = resource_names.intern(kNvidiaGpu);
  shape.gpu_units = gpus;
  shape.cpu_milli = cpu_milli;
  shape.memory_mib = memory_mib;
  if (!gpu_model_id.empty()) {
    const GpuModel* model = catalog.find(gpu_model_id);
    if (model == nullptr) throw InputError(file, where, unknown_gpu_model_problem(gpu_model_id, catalog));
    shape.gpu_product = model->product;
    shape.gpu_model_id = model->id;
  }
  return shape;
}

std::uint32_t WorkloadContext::shape_from_values(std::int64_t gpus, std::int64_t cpu_milli, std::int64_t memory_mib,
                                                 const std::string& gpu_model_id, const std::string& file,
                                                 const std::string& where, const PhaseDemand& demand) {
  PodShape shape = base_shape(gpus, cpu_milli, memory_mib, gpu_model_id, file, where);
  shape.demand = demand;
  return shapes.intern(shape);
}

void WorkloadContext::read_limits(const nlohmann::json& limits, const std::string& pointer, PodShape& shape) {
  const std::string limits_pointer = pointer + "/limits";
  const std::string* device = nullptr;
  std::vector<std::pair<const PerDeviceResourceRule*, std::int64_t>> per_device;
  for (const auto& [name, value] : limits.items()) {
    const std::string where = pointer_append(limits_pointer, name);
    const std::int64_t quantity = value.get<std::int64_t>();
    const PerDeviceResourceRule* rule = per_device_rules.find(name);
    if (rule == nullptr) {
      if (device != nullptr) {
        throw InputError(scenario_file, where,
                         "expected one device resource in \"limits\", found two: " + quote(*device) + " and " +
                             quote(name) + " (the other keys may only be per-device quantities: " + per_device_names() +
                             ")");
      }
      if (quantity < 1) {
        throw InputError(scenario_file, where,
                         "expected an integer >= 1 (units of the device resource " + quote(name) + "), found " +
                             std::to_string(quantity));
      }
      device = &name;
      shape.gpu_resource = resource_names.intern(name);
      shape.gpu_units = quantity;
      continue;
    }
    if (quantity < rule->min || quantity > rule->max || quantity % rule->step != 0) {
      throw InputError(scenario_file, where,
                       "expected " + range_phrase(*rule) + ", found " + std::to_string(quantity) + "; " +
                           std::string(rule->meaning));
    }
    per_device.emplace_back(rule, quantity);
  }
  if (device == nullptr) {
    throw InputError(scenario_file, limits_pointer,
                     "expected one device resource in \"limits\" (e.g. \"nvidia.com/gpu\", "
                     "\"aliyun.com/gpu-mem\", \"nvidia.com/mig-1g.10gb\"), found none");
  }
  for (std::size_t i = 0; i < per_device.size(); ++i) {
    const PerDeviceResourceRule* rule = per_device[i].first;
    const std::string where = pointer_append(limits_pointer, rule->name);
    if (rule->device_resource != *device) {
      throw InputError(scenario_file, where,
                       quote(rule->name) + " goes with the device resource " + quote(rule->device_resource) +
                           ", found " + quote(*device) + "; " + rule->meaning);
    }
    if (rule->sets.empty()) continue;
    for (std::size_t earlier = 0; earlier < i; ++earlier) {
      const PerDeviceResourceRule* other = per_device[earlier].first;
      if (other->sets != rule->sets) continue;
      // Named in the rules' order, whichever order the request gives them in.
      const bool other_first = std::less<>()(other, rule);
      const PerDeviceResourceRule* first = other_first ? other : rule;
      const PerDeviceResourceRule* second = other_first ? rule : other;
      throw InputError(scenario_file, where,
                       "expected either " + quote(first->name) + " or " + quote(second->name) +
                           ", found both (each sets " + rule->sets + ")");
    }
  }
  if (per_device.size() > kMaxPerDeviceQuantities) {
    throw InputError(scenario_file, limits_pointer,
                     "expected at most " + std::to_string(kMaxPerDeviceQuantities) + " per-device quantities, found " +
                         std::to_string(per_device.size()));
  }
  // In the table's order, so that equal requests make equal shapes.
  for (const PerDeviceResourceRule& rule : per_device_rules.rules) {
    for (const auto& [found, quantity] : per_device) {
      if (found != &rule) continue;
      shape.gpu_per_device.items[shape.gpu_per_device.count++] = {resource_names.intern(rule.name), quantity};
    }
  }
}

std::uint32_t WorkloadContext::with_gpu_fraction(std::uint32_t shape, std::int64_t gpu_milli) {
  const std::vector<std::string>& quantities = per_device_rules.gpu_fraction_percent;
  if (gpu_milli <= 0 || gpu_milli >= 1000 || shapes.shapes[shape].gpu_units != 1 || quantities.empty()) return shape;
  PodShape fractional = shapes.shapes[shape];
  const std::int64_t percent = (gpu_milli + 9) / 10;
  fractional.gpu_per_device.count = 0;
  for (const std::string& quantity : quantities) {
    fractional.gpu_per_device.items[fractional.gpu_per_device.count++] = {resource_names.intern(quantity), percent};
  }
  return shapes.intern(fractional);
}

std::uint32_t WorkloadContext::shape_from_request(const nlohmann::json& request, const std::string& pointer) {
  PodShape shape = base_shape(request.value("gpus", std::int64_t{1}), request.value("cpu_milli", std::int64_t{0}),
                              request.value("memory_mib", std::int64_t{0}), request.value("gpu_product", std::string{}),
                              scenario_file, pointer + "/gpu_product");
  if (request.contains("limits")) {
    for (const char* older : {"gpus", "gpu_resource"}) {
      if (!request.contains(older)) continue;
      throw InputError(scenario_file, pointer_append(pointer, older),
                       quote(older) +
                           " and \"limits\" both give the GPU request; use one of them (\"limits\" "
                           "names the device resource and its count itself)");
    }
    read_limits(request["limits"], pointer, shape);
  }
  if (request.contains("gpu_resource")) {
    shape.gpu_resource = resource_names.intern(request["gpu_resource"].get<std::string>());
  }
  if (request.contains("node_selector")) {
    for (auto label = request["node_selector"].begin(); label != request["node_selector"].end(); ++label)
      shape.node_selector.emplace_back(label.key(), label.value().get<std::string>());  // the schema sorts keys
  }
  if (request.contains("tolerations")) {
    const nlohmann::json& tolerations = request["tolerations"];
    for (std::size_t i = 0; i < tolerations.size(); ++i) {
      const nlohmann::json& toleration = tolerations[i];
      Toleration read{toleration.value("key", ""), toleration.value("operator", "Equal"), toleration.value("value", ""),
                      toleration.value("effect", "")};
      check_toleration(read, toleration, scenario_file, pointer_append(pointer + "/tolerations", i));
      shape.tolerations.push_back(std::move(read));
    }
  }
  if (request.contains("profile")) {
    // A named workload profile (docs/profiles.md) gives the demand; `demand` below overrides
    // the fields it names.
    const WorkloadProfile& profile =
        ProfileLibrary::builtin().at(request["profile"].get<std::string>(), scenario_file, pointer + "/profile");
    shape.demand = profile.demand();
    shape.demand.profile = builtin_profile_id(profile);
  }
  if (request.contains("demand")) {
    // Defaults are the contention model's (docs/models.md): sm 1.0, bw 0.5, no device memory;
    // with a profile, its values.
    // Measured fields (nvidia-smi, DCGM; workloads/measured_usage.h) map onto the model's.
    const nlohmann::json& demand = request["demand"];
    shape.demand.sm = demand.value("sm", shape.demand.sm);
    shape.demand.bw = demand.value("bw", shape.demand.bw);
    shape.demand.duty = demand.value("duty", shape.demand.duty);
    shape.demand.mem_mib = demand.value("mem_mib", shape.demand.mem_mib);
    MeasuredUsage measured;
    for (const char* key : {"gpu_util_pct", "mem_util_pct", "sm_active", "dram_active"}) {
      if (!demand.contains(key)) continue;
      const std::string field = model_field_of(key);
      if (demand.contains(field)) {
        throw InputError(scenario_file, pointer_append(pointer + "/demand", key),
                         "expected either " + quote(field) + " or the measurement " + quote(key) +
                             " that sets it (docs/models.md \"From what users measure\"), found both");
      }
    }
    const auto read = [&](const char* key) -> std::optional<double> {
      return demand.contains(key) ? std::optional<double>(demand[key].get<double>()) : std::nullopt;
    };
    measured.gpu_util_pct = read("gpu_util_pct");
    measured.mem_util_pct = read("mem_util_pct");
    measured.sm_active = read("sm_active");
    measured.dram_active = read("dram_active");
    apply_measured_usage(measured, shape.demand);
  }
  return shapes.intern(shape);
}

std::string WorkloadContext::progress_problem(std::uint32_t shape, const std::string& kind, const std::string& sm,
                                              const std::string& bw) const {
  const PodShape& pod = shapes.shapes[shape];
  if (pod.gpu_units <= 0 || pod.demand.sm > 0 || pod.demand.bw > 0) return "";
  return "a " + kind + " pod on GPUs does its work only at the rate its demand gets: expected " + sm + " > 0 or " + bw +
         " > 0, found both 0 (it would never finish)";
}

std::string WorkloadContext::capacity_problem(std::uint32_t shape, std::uint32_t pods) {
  if (!capacity_check) return "";
  const auto [it, inserted] = capacity_answers_.try_emplace({shape, pods});
  if (inserted) it->second = capacity_check(shapes.shapes[shape], pods);
  return it->second.problem;
}

void WorkloadContext::fail_capacity(std::uint32_t shape, std::uint32_t pods, const std::string& file,
                                    const std::string& where) {
  const std::string problem = capacity_problem(shape, pods);
  if (capacity_answers_.at({shape, pods}).configuration) throw InputError(file, where, problem);
  throw CapacityError(file, where, problem);
}

void WorkloadContext::note(const std::string& text) const {
  if (report) {
    report(text);
  } else {
    std::cerr << "sharesim: warning: " << text << "\n";
  }
}

}  // namespace sharesim
