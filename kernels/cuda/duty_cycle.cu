// Duty-cycle probe (docs/calibration.md, "The microbenchmarks", `duty`): a process that keeps the
// GPU busy a set share of the time, as a training loop does. Each cycle is a GPU phase (a fixed
// number of GPU-filling FMA kernels, each about `kernel_ns` long alone, queued at once and waited
// for) and a host phase (the CPU spins for a drawn time, no GPU work queued). The kernel is the
// `fma` stressor's (stressors.cu): FMA-bound and GPU-filling (4 blocks of 256 threads per SM), so
// its time alone is set by the iteration count and co-runners busy at the same time compete for
// SMs. Run alone, its GPU phases take the share `busy / (busy + host)` of the time; run beside
// others (time-sliced or as MPS clients) its GPU phases stretch, and the totals it records give
// its speed relative to alone.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

#include "kernels/cuda/common.cuh"

namespace sharesim::calib::gpu {

namespace {

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

DutyKernel tune_duty_kernel(int device, std::int64_t kernel_ns) {
  const cudaDeviceProp prop = use_device(device);
  DeviceBuffer<float> sink(16);
  Stream stream;
  Event begin;
  Event end;
  const int blocks = prop.multiProcessorCount * 4;
  int iterations = 4096;
  double ms = 0;
  for (int round = 0; round < 4; ++round) {
    launch_fma_kernel(blocks, stream.get(), sink.get(), iterations);  // warm-up
    SHARESIM_CHECK_LAUNCH();
    SHARESIM_CUDA(cudaEventRecord(begin.get(), stream.get()));
    launch_fma_kernel(blocks, stream.get(), sink.get(), iterations);
    SHARESIM_CHECK_LAUNCH();
    SHARESIM_CUDA(cudaEventRecord(end.get(), stream.get()));
    SHARESIM_CUDA(cudaEventSynchronize(end.get()));
    ms = std::max(1e-3, static_cast<double>(elapsed_ms(begin, end)));
    if (round < 3) {
      iterations = static_cast<int>(std::clamp(iterations * (static_cast<double>(kernel_ns) / 1e6) / ms, 1.0, 1e8));
    }
  }
  return DutyKernel{iterations, static_cast<std::int64_t>(std::llround(ms * 1e6))};
}

DutyLog run_duty_cycle(int device, const DutyOptions& options) {
  const cudaDeviceProp prop = use_device(device);
  DeviceBuffer<float> sink(16);
  Stream stream;
  // An MPS client under CUDA_MPS_ACTIVE_THREAD_PERCENTAGE sees only its share of the SMs in its
  // device properties: the parent passes the whole device's count, so every client launches the
  // same work and a cap shows as a longer kernel, not as a smaller one.
  const int blocks = options.blocks > 0 ? options.blocks : prop.multiProcessorCount * 4;
  std::mt19937_64 rng(options.seed);
  std::exponential_distribution<double> exponential(1.0);
  DutyLog log;
  log.sms_visible = prop.multiProcessorCount;
  auto spin_until = [](std::int64_t deadline) {
    while (now_ns() < deadline) {
    }
  };
  // A random offset first (up to one mean host phase, not counted), so that co-runners released
  // together do not all start their GPU phases at once; then cycles of GPU phase and host phase
  // until the duration has passed.
  spin_until(now_ns() + static_cast<std::int64_t>(static_cast<double>(options.host_mean_ns) *
                                                  std::uniform_real_distribution<double>(0.0, 1.0)(rng)));
  log.window_begin = now_ns();
  const std::int64_t stop = log.window_begin + options.duration_ns;
  while (now_ns() < stop) {
    const std::int64_t busy_begin = now_ns();
    for (int k = 0; k < options.kernels_per_phase; ++k) {
      launch_fma_kernel(blocks, stream.get(), sink.get(), options.iterations);
      SHARESIM_CHECK_LAUNCH();
    }
    SHARESIM_CUDA(cudaStreamSynchronize(stream.get()));
    const std::int64_t host_begin = now_ns();
    log.busy_ns += host_begin - busy_begin;
    log.kernels += options.kernels_per_phase;
    ++log.cycles;
    double host = static_cast<double>(options.host_mean_ns);
    if (options.exponential_host) host *= exponential(rng);
    spin_until(host_begin + static_cast<std::int64_t>(host));
    log.host_ns += now_ns() - host_begin;
  }
  log.window_end = now_ns();
  return log;
}

}  // namespace sharesim::calib::gpu
