#include "policies/vgpu/vgpu_types.h"

#include <algorithm>
#include <array>

namespace sharesim {
namespace {

struct ModelTypes {
  const char* gpu_id;     // catalog id
  const char* family;     // type-name prefix
  std::int64_t total_gb;  // framebuffer the types divide
  std::vector<std::int64_t> sizes_gb;
};

// NVIDIA Virtual GPU Software, "Virtual GPU Types for Supported GPUs" (C-series, time-sliced):
// A100 40GB: 40C 20C 10C 8C 5C 4C; A100 80GB and H100 80GB: 80C 40C 20C 16C 10C 8C 5C 4C.
const std::array<ModelTypes, 3>& table() {
  static const std::array<ModelTypes, 3> types{{
      {"A100-40GB", "A100", 40, {40, 20, 10, 8, 5, 4}},
      {"A100-80GB", "A100", 80, {80, 40, 20, 16, 10, 8, 5, 4}},
      {"H100-80GB", "H100", 80, {80, 40, 20, 16, 10, 8, 5, 4}},
  }};
  return types;
}

}  // namespace

std::vector<VgpuType> vgpu_types_for(std::string_view gpu_id) {
  std::vector<VgpuType> result;
  for (const ModelTypes& model : table()) {
    if (gpu_id != model.gpu_id) continue;
    for (std::int64_t size : model.sizes_gb) {
      result.push_back(
          VgpuType{std::string(model.family) + "-" + std::to_string(size) + "C", size * 1024, model.total_gb / size});
    }
  }
  return result;
}

std::int64_t vgpu_framebuffer_mib(const VgpuType& type, std::int64_t gpu_memory_mib) {
  // The table's sizes are marketing GB (80C: 81920 MiB); an H100-80GB reports 81559 MiB.
  return std::min(type.framebuffer_mib, gpu_memory_mib / type.max_per_gpu);
}

}  // namespace sharesim
