// Basics (docs/calibration.md, "Basics"): launch latency, device memory bandwidth and peak FP32
// FMA rate, the anchors of the contention model's roofline.
#include <algorithm>
#include <chrono>

#include "kernels/cuda/common.cuh"

namespace sharesim::calib::gpu {

namespace {

__global__ void empty_kernel() {}

constexpr int kChains = 8;
__global__ void peak_fma_kernel(float* sink, int iterations) {
  float x[kChains];
#pragma unroll
  for (int c = 0; c < kChains; ++c) x[c] = static_cast<float>(threadIdx.x + c) * 1e-3f;
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) x[c] = fmaf(x[c], 0.9999f, 1e-4f);
  }
  float sum = 0.f;
#pragma unroll
  for (int c = 0; c < kChains; ++c) sum += x[c];
  if (sum == -1.f) sink[0] = sum;
}

}  // namespace

BasicsResult run_basics(int device, int repeats) {
  const cudaDeviceProp prop = use_device(device);
  BasicsResult result;
  Stream stream;

  // Launch latency: host time from launch to completion of an empty kernel, one at a time.
  for (int i = 0; i < 100; ++i) empty_kernel<<<1, 1, 0, stream.get()>>>();
  SHARESIM_CHECK_LAUNCH();
  SHARESIM_CUDA(cudaStreamSynchronize(stream.get()));
  for (int i = 0; i < repeats * 100; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    empty_kernel<<<1, 1, 0, stream.get()>>>();
    SHARESIM_CHECK_LAUNCH();
    SHARESIM_CUDA(cudaStreamSynchronize(stream.get()));
    const auto t1 = std::chrono::steady_clock::now();
    result.launch_latency_ns.push_back(
        static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count()));
  }

  // Copy bandwidth: device-to-device copy of a buffer far larger than L2; read + write bytes.
  const std::size_t bytes = std::min<std::size_t>(std::size_t{1} << 30, prop.totalGlobalMem / 8);
  DeviceBuffer<char> source(bytes);
  DeviceBuffer<char> target(bytes);
  SHARESIM_CUDA(cudaMemsetAsync(source.get(), 1, bytes, stream.get()));
  Event begin;
  Event end;
  for (int i = 0; i <= repeats; ++i) {
    SHARESIM_CUDA(cudaEventRecord(begin.get(), stream.get()));
    SHARESIM_CUDA(cudaMemcpyAsync(target.get(), source.get(), bytes, cudaMemcpyDeviceToDevice, stream.get()));
    SHARESIM_CUDA(cudaEventRecord(end.get(), stream.get()));
    SHARESIM_CUDA(cudaEventSynchronize(end.get()));
    if (i == 0) continue;  // warm-up
    result.dram_bandwidth_gbps.push_back(2.0 * static_cast<double>(bytes) / (elapsed_ms(begin, end) * 1e-3) / 1e9);
  }

  // Peak FMA: 8 chains per thread, enough blocks to fill every SM several times over.
  DeviceBuffer<float> sink(1);
  const int blocks = prop.multiProcessorCount * 8;
  constexpr int kThreads = 256;
  constexpr int kIterations = 1 << 16;
  for (int i = 0; i <= repeats; ++i) {
    SHARESIM_CUDA(cudaEventRecord(begin.get(), stream.get()));
    peak_fma_kernel<<<blocks, kThreads, 0, stream.get()>>>(sink.get(), kIterations);
    SHARESIM_CHECK_LAUNCH();
    SHARESIM_CUDA(cudaEventRecord(end.get(), stream.get()));
    SHARESIM_CUDA(cudaEventSynchronize(end.get()));
    if (i == 0) continue;
    const double flops = 2.0 * kChains * static_cast<double>(kIterations) * blocks * kThreads;
    result.fma_tflops.push_back(flops / (elapsed_ms(begin, end) * 1e-3) / 1e12);
  }
  return result;
}

}  // namespace sharesim::calib::gpu
