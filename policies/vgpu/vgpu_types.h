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
  // The type's size, GB x 1024, from the table; on a GPU, vgpu_framebuffer_mib.
  std::int64_t framebuffer_mib = 0;
  std::int64_t max_per_gpu = 0;
};

// The C-series types of a catalog GPU model; empty when sharesim has no table for it.
std::vector<VgpuType> vgpu_types_for(std::string_view gpu_id);

// The framebuffer of each vGPU of `type` on a GPU with `gpu_memory_mib` of memory (catalog
// memory_mib, the nvidia-smi total): the type's size, at most an equal part of the GPU's memory,
// min(size, gpu_memory_mib / max_per_gpu), so that the vGPUs of one GPU never hold more than it
// has: each vGPU's framebuffer is allocated out of the GPU's when the vGPU is created and is its
// own until destroyed (Virtual GPU Software User Guide, "NVIDIA vGPU Architecture"); the even
// split is this model's assumption (docs/models.md "vGPU").
std::int64_t vgpu_framebuffer_mib(const VgpuType& type, std::int64_t gpu_memory_mib);

}  // namespace sharesim
