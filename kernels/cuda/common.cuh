// Shared by the microbenchmarks: checked CUDA calls, RAII device buffers, streams and events,
// and the %globaltimer read.
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "kernels/cuda/gpu_api.h"

namespace sharesim::calib::gpu {

inline void check_cuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess) return;
  throw GpuError(std::string(call) + " failed: " + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) +
                 ") at " + file + ":" + std::to_string(line));
}

// Every CUDA runtime call goes through this; after each kernel launch, SHARESIM_CHECK_LAUNCH()
// reports a bad launch configuration at once (execution errors surface at the next sync).
#define SHARESIM_CUDA(call) ::sharesim::calib::gpu::check_cuda((call), #call, __FILE__, __LINE__)
#define SHARESIM_CHECK_LAUNCH() SHARESIM_CUDA(cudaGetLastError())

// Nanoseconds of the GPU-wide global timer (PTX %globaltimer). Its update interval is 1 us on
// GPUs before Hopper (the time-slice probe's threshold is therefore at least 2 us).
__device__ __forceinline__ unsigned long long globaltimer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

template <class T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    SHARESIM_CUDA(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)));
  }
  ~DeviceBuffer() { cudaFree(data_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  T* get() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

class Stream {
 public:
  Stream() { SHARESIM_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(stream_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

class Event {
 public:
  explicit Event(bool timing = true) {
    SHARESIM_CUDA(cudaEventCreateWithFlags(&event_, timing ? cudaEventDefault : cudaEventDisableTiming));
  }
  ~Event() { cudaEventDestroy(event_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

inline float elapsed_ms(const Event& begin, const Event& end) {
  float ms = 0;
  SHARESIM_CUDA(cudaEventElapsedTime(&ms, begin.get(), end.get()));
  return ms;
}

// Driver API functions, looked up through the runtime (cudaGetDriverEntryPointByVersion) rather
// than linked: the program then starts, and reports "no CUDA device visible", on machines without
// libcuda.so.
template <class F>
F driver_entry(const char* symbol, unsigned version) {
  void* function = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  SHARESIM_CUDA(cudaGetDriverEntryPointByVersion(symbol, &function, version, cudaEnableDefault, &found));
  if (found != cudaDriverEntryPointSuccess || function == nullptr) {
    throw GpuError(std::string("the CUDA driver has no ") + symbol + " (version " + std::to_string(version) + ")");
  }
  return reinterpret_cast<F>(function);
}

inline void check_driver(CUresult status, const char* call) {
  if (status != CUDA_SUCCESS) throw GpuError(std::string(call) + " failed: CUresult " + std::to_string(status));
}

struct DriverContextApi {
  CUresult (*get_current)(CUcontext*);
  CUresult (*set_current)(CUcontext);
};
const DriverContextApi& driver_context_api();

// Sets the device and returns its properties.
cudaDeviceProp use_device(int device);

// The `fma` stressor's kernel (stressors.cu): 8 independent FP32 FMA chains per thread in `blocks`
// blocks of 256 threads, `iterations` steps. The duty-cycle probe's GPU phases run it too. The
// caller checks the launch (SHARESIM_CHECK_LAUNCH).
void launch_fma_kernel(int blocks, cudaStream_t stream, float* sink, int iterations);

// The stressor machinery, shared by run_stressors (streams of this context) and run_sm_scaling
// (a stream of a green context). Buffers are allocated in the context current at construction.
class StressorSet {
 public:
  StressorSet(const cudaDeviceProp& prop, const std::vector<std::string>& names);
  ~StressorSet();
  StressorSet(const StressorSet&) = delete;
  StressorSet& operator=(const StressorSet&) = delete;
  // Throughput of each stressor (its unit per second), stressor i relaunched on streams[i] by its
  // own host thread until `seconds` elapse.
  std::vector<double> measure(const std::vector<cudaStream_t>& streams, double seconds);

 private:
  struct Impl;
  Impl* impl_;
};

}  // namespace sharesim::calib::gpu
