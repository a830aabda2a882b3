// SM-fraction scaling (docs/calibration.md, "SM-fraction scaling"): each stressor alone in a green
// context limited to k SMs. This emulates MIG and MPS SM caps without touching the GPU's MIG
// layout or compute mode (sharesim-calibrate never changes either).
#include <cudaTypedefs.h>

#include <memory>

#include "kernels/cuda/common.cuh"

namespace sharesim::calib::gpu {

namespace {

struct GreenApi {
  PFN_cuDeviceGet_v2000 device_get;
  PFN_cuDeviceGetDevResource_v12040 get_resource;
  PFN_cuDevSmResourceSplitByCount_v12040 split;
  PFN_cuDevResourceGenerateDesc_v12040 generate_desc;
  PFN_cuGreenCtxCreate_v12040 create;
  PFN_cuGreenCtxDestroy_v12040 destroy;
  PFN_cuCtxFromGreenCtx_v12040 to_context;
  PFN_cuGreenCtxStreamCreate_v12050 stream_create;
};

GreenApi load_green_api() {
  return GreenApi{
      driver_entry<PFN_cuDeviceGet_v2000>("cuDeviceGet", 2000),
      driver_entry<PFN_cuDeviceGetDevResource_v12040>("cuDeviceGetDevResource", 12040),
      driver_entry<PFN_cuDevSmResourceSplitByCount_v12040>("cuDevSmResourceSplitByCount", 12040),
      driver_entry<PFN_cuDevResourceGenerateDesc_v12040>("cuDevResourceGenerateDesc", 12040),
      driver_entry<PFN_cuGreenCtxCreate_v12040>("cuGreenCtxCreate", 12040),
      driver_entry<PFN_cuGreenCtxDestroy_v12040>("cuGreenCtxDestroy", 12040),
      driver_entry<PFN_cuCtxFromGreenCtx_v12040>("cuCtxFromGreenCtx", 12040),
      driver_entry<PFN_cuGreenCtxStreamCreate_v12050>("cuGreenCtxStreamCreate", 12050),
  };
}

}  // namespace

std::vector<ScalingResult> run_sm_scaling(int device, const std::string& stressor, const std::vector<int>& sms,
                                          double seconds) {
  const cudaDeviceProp prop = use_device(device);
  SHARESIM_CUDA(cudaFree(nullptr));
  const GreenApi api = load_green_api();
  const DriverContextApi& contexts = driver_context_api();
  CUcontext primary = nullptr;
  check_driver(contexts.get_current(&primary), "cuCtxGetCurrent");
  CUdevice dev = 0;
  check_driver(api.device_get(&dev, device), "cuDeviceGet");
  CUdevResource all{};
  check_driver(api.get_resource(dev, &all, CU_DEV_RESOURCE_TYPE_SM), "cuDeviceGetDevResource");
  // Hopper's default partitions are multiples of 8 SMs; MIG slice sizes (26, 60) need the
  // co-scheduling constraint lifted.
  const unsigned flags = prop.major >= 9 ? static_cast<unsigned>(CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING) : 0u;

  std::vector<ScalingResult> results;
  for (const int k : sms) {
    ScalingResult result;
    result.requested_sms = k;
    CUdevResource part{};
    if (k >= static_cast<int>(all.sm.smCount)) {
      part = all;
    } else {
      unsigned groups = 1;
      CUdevResource remaining{};
      const CUresult split = api.split(&part, &groups, &all, &remaining, flags, static_cast<unsigned>(k));
      if (split != CUDA_SUCCESS || groups != 1) {
        result.skipped = "cuDevSmResourceSplitByCount(" + std::to_string(k) + " SMs) failed: CUresult " +
                         std::to_string(split) + ", groups " + std::to_string(groups);
        results.push_back(result);
        continue;
      }
    }
    result.granted_sms = static_cast<int>(part.sm.smCount);
    // A failure at one SM count is recorded and the next is tried; the primary context is current
    // again afterwards either way.
    CUgreenCtx green = nullptr;
    try {
      CUdevResourceDesc desc = nullptr;
      check_driver(api.generate_desc(&desc, &part, 1), "cuDevResourceGenerateDesc");
      check_driver(api.create(&green, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM), "cuGreenCtxCreate");
      CUcontext context = nullptr;
      check_driver(api.to_context(&context, green), "cuCtxFromGreenCtx");
      check_driver(contexts.set_current(context), "cuCtxSetCurrent");
      CUstream stream = nullptr;
      check_driver(api.stream_create(&stream, green, CU_STREAM_NON_BLOCKING, 0), "cuGreenCtxStreamCreate");
      {
        StressorSet set(prop, {stressor});
        result.throughput = set.measure({stream}, seconds)[0];
      }
      SHARESIM_CUDA(cudaStreamDestroy(stream));
    } catch (const GpuError& e) {
      result.skipped = std::string("green context with ") + std::to_string(k) + " SMs: " + e.what();
    }
    check_driver(contexts.set_current(primary), "cuCtxSetCurrent");
    if (green != nullptr) check_driver(api.destroy(green), "cuGreenCtxDestroy");
    results.push_back(result);
  }
  return results;
}

}  // namespace sharesim::calib::gpu
