// Device discovery: the no-GPU path must never crash or hang, so query_device() turns every
// failure (no driver, no device) into visible == false with CUDA's own words.
#include <cuda_runtime.h>

#include "kernels/cuda/common.cuh"

namespace sharesim::calib::gpu {

namespace {
std::string version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}
}  // namespace

DeviceInfo query_device(int device) {
  DeviceInfo info;
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    info.why_not = std::string("cudaGetDeviceCount returned ") + cudaGetErrorName(status) + " (" +
                   cudaGetErrorString(status) + ")";
    return info;
  }
  if (count == 0) {
    info.why_not = "cudaGetDeviceCount found 0 devices";
    return info;
  }
  if (device < 0 || device >= count) {
    info.why_not = "device " + std::to_string(device) + " requested, " + std::to_string(count) + " visible";
    return info;
  }
  cudaDeviceProp prop{};
  const cudaError_t props = cudaGetDeviceProperties(&prop, device);
  if (props != cudaSuccess) {
    info.why_not = std::string("cudaGetDeviceProperties returned ") + cudaGetErrorName(props);
    return info;
  }
  int driver = 0;
  int runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  int mode = 0;
  cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, device);
  info.visible = true;
  info.name = prop.name;
  info.driver = version_text(driver);
  info.runtime = version_text(runtime);
  info.cc_major = prop.major;
  info.cc_minor = prop.minor;
  info.sm_count = prop.multiProcessorCount;
  info.l2_bytes = prop.l2CacheSize;
  info.memory_bytes = static_cast<std::int64_t>(prop.totalGlobalMem);
  info.compute_mode = mode == cudaComputeModeDefault            ? "default"
                      : mode == cudaComputeModeExclusiveProcess ? "exclusive_process"
                      : mode == cudaComputeModeProhibited       ? "prohibited"
                                                                : "unknown";
  return info;
}

cudaDeviceProp use_device(int device) {
  SHARESIM_CUDA(cudaSetDevice(device));
  cudaDeviceProp prop{};
  SHARESIM_CUDA(cudaGetDeviceProperties(&prop, device));
  return prop;
}

const DriverContextApi& driver_context_api() {
  static const DriverContextApi api{
      driver_entry<CUresult (*)(CUcontext*)>("cuCtxGetCurrent", 4000),
      driver_entry<CUresult (*)(CUcontext)>("cuCtxSetCurrent", 4000),
  };
  return api;
}

void prepare(int device) {
  use_device(device);
  SHARESIM_CUDA(cudaFree(nullptr));  // creates the primary context now
}

}  // namespace sharesim::calib::gpu
