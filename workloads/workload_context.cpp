#include "workloads/workload_context.h"

#include "sim/scenario/input_error.h"
#include "sim/scenario/scenario_semantics.h"

namespace sharesim {

std::uint32_t WorkloadContext::intern_origin(const std::string& name, const std::string& kind) {
  const auto [it, inserted] = origin_index_.try_emplace({name, kind}, static_cast<std::uint32_t>(origins.size()));
  if (inserted) origins.push_back(JobOrigin{name, kind});
  return it->second;
}

std::uint32_t WorkloadContext::shape_from_values(std::int64_t gpus, std::int64_t cpu_milli, std::int64_t memory_mib,
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
  return shapes.intern(shape);
}

std::uint32_t WorkloadContext::shape_from_request(const nlohmann::json& request, const std::string& pointer) {
  return shape_from_values(request.value("gpus", std::int64_t{1}), request.value("cpu_milli", std::int64_t{0}),
                           request.value("memory_mib", std::int64_t{0}), request.value("gpu_product", std::string{}),
                           scenario_file, pointer + "/gpu_product");
}

std::string WorkloadContext::capacity_problem(std::uint32_t shape, std::uint32_t pods) {
  if (!capacity_check) return "";
  const auto [it, inserted] = capacity_answers_.try_emplace({shape, pods});
  if (inserted) it->second = capacity_check(shapes.shapes[shape], pods);
  return it->second;
}

}  // namespace sharesim
