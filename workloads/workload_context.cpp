#include "workloads/workload_context.h"

#include <iostream>

#include "sim/scenario/input_error.h"
#include "sim/scenario/scenario_semantics.h"
#include "workloads/profiles/workload_profile.h"

namespace sharesim {

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
                                                 const std::string& where) {
  return shapes.intern(base_shape(gpus, cpu_milli, memory_mib, gpu_model_id, file, where));
}

std::uint32_t WorkloadContext::shape_from_request(const nlohmann::json& request, const std::string& pointer) {
  PodShape shape = base_shape(request.value("gpus", std::int64_t{1}), request.value("cpu_milli", std::int64_t{0}),
                              request.value("memory_mib", std::int64_t{0}), request.value("gpu_product", std::string{}),
                              scenario_file, pointer + "/gpu_product");
  if (request.contains("gpu_resource")) {
    shape.gpu_resource = resource_names.intern(request["gpu_resource"].get<std::string>());
  }
  if (request.contains("profile")) {
    // A named workload profile (docs/profiles.md) gives the demand; `demand` below overrides
    // the fields it names.
    shape.demand = ProfileLibrary::builtin()
                       .at(request["profile"].get<std::string>(), scenario_file, pointer + "/profile")
                       .demand();
  }
  if (request.contains("demand")) {
    // Defaults are the contention model's (docs/models.md): sm 1.0, bw 0.5, no device memory;
    // with a profile, its values.
    const nlohmann::json& demand = request["demand"];
    shape.demand.sm = demand.value("sm", shape.demand.sm);
    shape.demand.bw = demand.value("bw", shape.demand.bw);
    shape.demand.mem_mib = demand.value("mem_mib", shape.demand.mem_mib);
  }
  return shapes.intern(shape);
}

std::string WorkloadContext::capacity_problem(std::uint32_t shape, std::uint32_t pods) {
  if (!capacity_check) return "";
  const auto [it, inserted] = capacity_answers_.try_emplace({shape, pods});
  if (inserted) it->second = capacity_check(shapes.shapes[shape], pods);
  return it->second;
}

void WorkloadContext::note(const std::string& text) const {
  if (report) {
    report(text);
  } else {
    std::cerr << "sharesim: warning: " << text << "\n";
  }
}

}  // namespace sharesim
