#pragma once
// Time-sliced (C-series) vGPU types per GPU model, from NVIDIA Virtual GPU Software
// documentation, "Virtual GPU Types for Supported GPUs": the type's framebuffer and how many
// fit on one physical GPU (total framebuffer / type framebuffer).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sharesim {

struct VgpuType {
  std::string name;  // "A100-10C"
  std::int64_t framebuffer_mib = 0;
  std::int64_t max_per_gpu = 0;
};

// The C-series types of a catalog GPU model; empty when sharesim has no table for it.
std::vector<VgpuType> vgpu_types_for(std::string_view gpu_id);

}  // namespace sharesim
