// Time-slice probe (docs/calibration.md, "Time-slice probe"): spinning blocks read %globaltimer
// in a tight loop; a jump between two reads larger than the threshold means the context was not
// running. The cache-refill walk and the thrashing kernel run in the same experiment.
#include <cooperative_groups.h>

#include <algorithm>

#include "kernels/cuda/common.cuh"

namespace sharesim::calib::gpu {

namespace {

constexpr unsigned kGapCapacity = 1u << 16;

__global__ void probe_kernel(unsigned long long duration_ns, unsigned long long threshold_ns, unsigned long long* gaps,
                             unsigned capacity, unsigned long long* meta) {
  if (threadIdx.x != 0) return;
  const bool logging = blockIdx.x == 0;
  const unsigned long long begin = globaltimer_ns();
  unsigned long long previous = begin;
  unsigned long long count = 0;
  for (;;) {
    const unsigned long long now = globaltimer_ns();
    if (now - previous > threshold_ns && logging) {
      if (count < capacity) {
        gaps[2 * count] = previous;
        gaps[2 * count + 1] = now;
      }
      ++count;
    }
    previous = now;
    if (now - begin >= duration_ns) break;
  }
  if (logging) {
    meta[0] = count;
    meta[1] = begin;
    meta[2] = previous;
  }
}

// The whole GPU (a cooperative grid, every block resident): thread 0 of the grid watches the timer
// for `watch_ns` (noting whether the context was switched out meanwhile), then every thread of
// the grid walks the buffer through L2 (ld.global.cg), timed between two grid-wide barriers. A
// single block would measure one SM's latency-bound walk, not what a GPU-filling context loses
// refilling L2. control[0..1]: switched, stop (written by thread 0 before the barrier).
__global__ void walk_kernel(const float4* buffer, size_t count, unsigned long long duration_ns,
                            unsigned long long threshold_ns, unsigned long long watch_ns, unsigned long long* log,
                            unsigned capacity, unsigned long long* meta, volatile int* control, float* sink) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  const bool leader = grid.thread_rank() == 0;
  const size_t first = grid.thread_rank();
  const size_t stride = grid.size();
  const unsigned long long start = globaltimer_ns();
  unsigned long long walk_begin = 0;
  unsigned walks = 0;
  float sum = 0.f;
  for (;;) {
    if (leader) {
      const unsigned long long t0 = globaltimer_ns();
      unsigned long long previous = t0;
      int seen = 0;
      for (;;) {
        const unsigned long long now = globaltimer_ns();
        if (now - previous > threshold_ns) seen = 1;
        previous = now;
        if (now - t0 >= watch_ns) break;
      }
      control[0] = seen;
      control[1] = previous - start >= duration_ns;
      walk_begin = globaltimer_ns();
    }
    grid.sync();
    if (control[1] != 0) break;
    for (size_t i = first; i < count; i += stride) {
      const float4 v = __ldcg(buffer + i);
      sum += v.x + v.y + v.z + v.w;
    }
    grid.sync();
    if (leader) {
      const unsigned long long end = globaltimer_ns();
      if (walks < capacity) {
        log[3 * walks] = walk_begin;
        log[3 * walks + 1] = end;
        log[3 * walks + 2] = static_cast<unsigned long long>(control[0]);
      }
      ++walks;
    }
  }
  if (sum == -1.f) sink[0] = sum;  // never true for the zero-filled buffer; keeps the loads
  if (leader) meta[0] = walks;
}

__global__ void thrash_kernel(float* buffer, size_t count, unsigned long long duration_ns) {
  const unsigned long long begin = globaltimer_ns();
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  while (globaltimer_ns() - begin < duration_ns) {
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
      buffer[i] = buffer[i] * 0.5f + 1.f;
    }
  }
}

}  // namespace

ProbeLog run_timeslice_probe(int device, std::int64_t duration_ns, std::int64_t threshold_ns) {
  const cudaDeviceProp prop = use_device(device);
  DeviceBuffer<unsigned long long> gaps(2 * static_cast<std::size_t>(kGapCapacity));
  DeviceBuffer<unsigned long long> meta(3);
  probe_kernel<<<prop.multiProcessorCount, 32>>>(static_cast<unsigned long long>(duration_ns),
                                                 static_cast<unsigned long long>(threshold_ns), gaps.get(),
                                                 kGapCapacity, meta.get());
  SHARESIM_CHECK_LAUNCH();
  SHARESIM_CUDA(cudaDeviceSynchronize());
  unsigned long long header[3] = {0, 0, 0};
  SHARESIM_CUDA(cudaMemcpy(header, meta.get(), sizeof header, cudaMemcpyDeviceToHost));
  ProbeLog log;
  log.window_begin = static_cast<std::int64_t>(header[1]);
  log.window_end = static_cast<std::int64_t>(header[2]);
  const unsigned long long kept = header[0] < kGapCapacity ? header[0] : kGapCapacity;
  log.gaps_lost = static_cast<std::int64_t>(header[0] - kept);
  std::vector<unsigned long long> raw(2 * kept);
  if (kept > 0) {
    SHARESIM_CUDA(cudaMemcpy(raw.data(), gaps.get(), raw.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  }
  log.gaps.assign(raw.begin(), raw.end());
  return log;
}

WalkLog run_cache_walk(int device, std::int64_t duration_ns, std::int64_t threshold_ns, std::int64_t buffer_bytes) {
  const cudaDeviceProp prop = use_device(device);
  if (prop.cooperativeLaunch == 0)
    throw GpuError("the cache-refill walk needs cooperative launch, which the device lacks");
  constexpr unsigned kCapacity = 1u << 16;
  constexpr int kThreads = 1024;
  DeviceBuffer<float4> buffer(static_cast<std::size_t>(buffer_bytes) / sizeof(float4));
  SHARESIM_CUDA(cudaMemset(buffer.get(), 0, buffer.bytes()));
  DeviceBuffer<unsigned long long> log(3 * static_cast<std::size_t>(kCapacity));
  DeviceBuffer<unsigned long long> meta(1);
  DeviceBuffer<int> control(2);
  SHARESIM_CUDA(cudaMemset(control.get(), 0, control.bytes()));
  DeviceBuffer<float> sink(1);
  // Every block must be resident for the grid barrier: as many per SM as fit, at most 2.
  int per_sm = 0;
  SHARESIM_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, walk_kernel, kThreads, 0));
  if (per_sm < 1) throw GpuError("the cache-refill walk kernel cannot be resident on an SM");
  const dim3 grid(static_cast<unsigned>(prop.multiProcessorCount * std::min(per_sm, 2)));
  const float4* buffer_ptr = buffer.get();
  std::size_t count = buffer.size();
  unsigned long long duration = static_cast<unsigned long long>(duration_ns);
  unsigned long long threshold = static_cast<unsigned long long>(threshold_ns);
  unsigned long long watch = 200000;
  unsigned long long* log_ptr = log.get();
  unsigned capacity = kCapacity;
  unsigned long long* meta_ptr = meta.get();
  volatile int* control_ptr = control.get();
  float* sink_ptr = sink.get();
  void* args[] = {&buffer_ptr, &count,    &duration, &threshold,   &watch,
                  &log_ptr,    &capacity, &meta_ptr, &control_ptr, &sink_ptr};
  SHARESIM_CUDA(
      cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(walk_kernel), grid, dim3(kThreads), args, 0, nullptr));
  SHARESIM_CHECK_LAUNCH();
  SHARESIM_CUDA(cudaDeviceSynchronize());
  unsigned long long walks = 0;
  SHARESIM_CUDA(cudaMemcpy(&walks, meta.get(), sizeof walks, cudaMemcpyDeviceToHost));
  const unsigned long long kept = walks < kCapacity ? walks : kCapacity;
  std::vector<unsigned long long> raw(3 * kept);
  if (kept > 0) {
    SHARESIM_CUDA(cudaMemcpy(raw.data(), log.get(), raw.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  }
  WalkLog out;
  out.walks.assign(raw.begin(), raw.end());
  return out;
}

void run_cache_thrash(int device, std::int64_t duration_ns) {
  const cudaDeviceProp prop = use_device(device);
  DeviceBuffer<float> buffer(4 * static_cast<std::size_t>(prop.l2CacheSize) / sizeof(float));
  SHARESIM_CUDA(cudaMemset(buffer.get(), 0, buffer.bytes()));
  thrash_kernel<<<prop.multiProcessorCount * 2, 256>>>(buffer.get(), buffer.size(),
                                                       static_cast<unsigned long long>(duration_ns));
  SHARESIM_CHECK_LAUNCH();
  SHARESIM_CUDA(cudaDeviceSynchronize());
}

}  // namespace sharesim::calib::gpu
