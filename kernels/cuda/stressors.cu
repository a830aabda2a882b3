// Co-run stressors (docs/calibration.md, "Co-run contention"): five kernels that each stress one
// part of the GPU, relaunched back to back for a fixed wall time. Their throughput alone and
// co-run (streams here; processes and MPS clients run this same code in separate processes).
#include <algorithm>
#include <chrono>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include "kernels/cuda/common.cuh"

namespace sharesim::calib::gpu {

namespace {

enum class Kind { fma, triad, l2, smem, launch };

Kind kind_of(const std::string& name) {
  if (name == "fma") return Kind::fma;
  if (name == "triad") return Kind::triad;
  if (name == "l2") return Kind::l2;
  if (name == "smem") return Kind::smem;
  if (name == "launch") return Kind::launch;
  throw GpuError("unknown stressor \"" + name + "\"");
}

constexpr int kThreads = 256;
constexpr int kFmaChains = 8;

// 8 independent FMA chains per thread: 16 flop per chain step.
__global__ void fma_kernel(float* sink, int iterations, float a, float b) {
  float x[kFmaChains];
#pragma unroll
  for (int c = 0; c < kFmaChains; ++c) x[c] = static_cast<float>(threadIdx.x + c);
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int c = 0; c < kFmaChains; ++c) x[c] = fmaf(x[c], a, b);
  }
  float sum = 0.f;
#pragma unroll
  for (int c = 0; c < kFmaChains; ++c) sum += x[c];
  if (sum == -1.f) sink[0] = sum;
}

// STREAM triad (McCalpin): 12 bytes of DRAM traffic per element.
__global__ void triad_kernel(float* a, const float* b, const float* c, size_t count, float scalar) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    a[i] = b[i] + scalar * c[i];
  }
}

// Repeated reads of a buffer a quarter of L2's size, through L2 only (ld.global.cg).
__global__ void l2_kernel(const float4* buffer, size_t count, int passes, float* sink) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  float sum = 0.f;
  for (int p = 0; p < passes; ++p) {
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
      const float4 v = __ldcg(buffer + i);
      sum += v.x + v.y + v.z + v.w;
    }
  }
  if (sum == -1.f) sink[0] = sum;
}

// Shared-memory read-modify-write, conflict-free: 8 bytes of shared traffic per step.
constexpr int kSmemFloats = 4096;
__global__ void smem_kernel(int iterations, float* sink) {
  __shared__ float tile[kSmemFloats];
  for (int i = threadIdx.x; i < kSmemFloats; i += blockDim.x) tile[i] = static_cast<float>(i);
  __syncthreads();
  int index = threadIdx.x;
  for (int i = 0; i < iterations; ++i) {
    tile[index] = tile[index] * 0.999f + 1.f;
    index = (index + blockDim.x) & (kSmemFloats - 1);
  }
  __syncthreads();
  if (tile[threadIdx.x] == -1.f) sink[0] = 1.f;
}

__global__ void tiny_kernel(int* flag) {
  if (threadIdx.x == 0 && flag[0] == -1) flag[0] = 0;
}

}  // namespace

void launch_fma_kernel(int blocks, cudaStream_t stream, float* sink, int iterations) {
  fma_kernel<<<blocks, kThreads, 0, stream>>>(sink, iterations, 0.999f, 0.001f);
}

const std::vector<std::string>& stressor_names() {
  static const std::vector<std::string> names = {"fma", "triad", "l2", "smem", "launch"};
  return names;
}

std::string stressor_unit(const std::string& name) {
  switch (kind_of(name)) {
    case Kind::fma:
      return "flop/s";
    case Kind::launch:
      return "launch/s";
    default:
      return "byte/s";
  }
}

double stressor_dram_bytes_per_unit(const std::string& name) { return kind_of(name) == Kind::triad ? 1.0 : 0.0; }

struct StressorSet::Impl {
  struct One {
    Kind kind;
    int blocks = 0;
    int iterations = 1;  // fma, l2 (passes), smem
    double units_per_launch = 0;
    float* out = nullptr;  // triad a / sinks
    float* b = nullptr;
    float* c = nullptr;
    size_t count = 0;
    int* flag = nullptr;
  };
  std::vector<One> ones;
  std::vector<void*> allocations;

  void* allocate(size_t bytes) {
    void* p = nullptr;
    SHARESIM_CUDA(cudaMalloc(&p, bytes));
    allocations.push_back(p);
    SHARESIM_CUDA(cudaMemset(p, 0, bytes));
    return p;
  }

  void launch(const One& s, cudaStream_t stream) {
    switch (s.kind) {
      case Kind::fma:
        launch_fma_kernel(s.blocks, stream, s.out, s.iterations);
        break;
      case Kind::triad:
        triad_kernel<<<s.blocks, kThreads, 0, stream>>>(s.out, s.b, s.c, s.count, 3.f);
        break;
      case Kind::l2:
        l2_kernel<<<s.blocks, kThreads, 0, stream>>>(reinterpret_cast<const float4*>(s.b), s.count, s.iterations,
                                                     s.out);
        break;
      case Kind::smem:
        smem_kernel<<<s.blocks, kThreads, 0, stream>>>(s.iterations, s.out);
        break;
      case Kind::launch:
        tiny_kernel<<<1, 32, 0, stream>>>(s.flag);
        break;
    }
    SHARESIM_CHECK_LAUNCH();
  }

  void set_units(One& s) {
    const double threads = static_cast<double>(s.blocks) * kThreads;
    switch (s.kind) {
      case Kind::fma:
        s.units_per_launch = threads * s.iterations * kFmaChains * 2.0;
        break;
      case Kind::triad:
        s.units_per_launch = 12.0 * static_cast<double>(s.count);
        break;
      case Kind::l2:
        s.units_per_launch = 16.0 * static_cast<double>(s.count) * s.iterations;
        break;
      case Kind::smem:
        s.units_per_launch = threads * s.iterations * 8.0;
        break;
      case Kind::launch:
        s.units_per_launch = 1.0;
        break;
    }
  }

  // Scales the iteration count so that one launch takes about 1 ms on the whole GPU.
  void tune(One& s, cudaStream_t stream) {
    if (s.kind == Kind::triad || s.kind == Kind::launch) return;
    Event begin;
    Event end;
    for (int round = 0; round < 3; ++round) {
      launch(s, stream);  // warm-up
      SHARESIM_CUDA(cudaEventRecord(begin.get(), stream));
      launch(s, stream);
      SHARESIM_CUDA(cudaEventRecord(end.get(), stream));
      SHARESIM_CUDA(cudaEventSynchronize(end.get()));
      const double ms = std::max(1e-3, static_cast<double>(elapsed_ms(begin, end)));
      const double scaled = s.iterations * (1.0 / ms);
      s.iterations = static_cast<int>(std::clamp(scaled, 1.0, 1e8));
    }
  }
};

StressorSet::StressorSet(const cudaDeviceProp& prop, const std::vector<std::string>& names) : impl_(new Impl) {
  try {
    Stream tuning;
    for (const std::string& name : names) {
      Impl::One s;
      s.kind = kind_of(name);
      s.blocks = prop.multiProcessorCount * 4;
      s.out = static_cast<float*>(impl_->allocate(sizeof(float) * 16));
      switch (s.kind) {
        case Kind::fma:
          s.iterations = 4096;
          break;
        case Kind::triad: {
          // Arrays 8x L2 each: every element comes from DRAM.
          s.count = std::max<size_t>(size_t{1} << 24, 8 * static_cast<size_t>(prop.l2CacheSize) / sizeof(float));
          s.out = static_cast<float*>(impl_->allocate(s.count * sizeof(float)));
          s.b = static_cast<float*>(impl_->allocate(s.count * sizeof(float)));
          s.c = static_cast<float*>(impl_->allocate(s.count * sizeof(float)));
          break;
        }
        case Kind::l2:
          s.count = static_cast<size_t>(prop.l2CacheSize) / 4 / sizeof(float4);
          s.b = static_cast<float*>(impl_->allocate(s.count * sizeof(float4)));
          s.iterations = 16;
          break;
        case Kind::smem:
          s.iterations = 4096;
          break;
        case Kind::launch:
          s.flag = static_cast<int*>(impl_->allocate(sizeof(int)));
          break;
      }
      impl_->tune(s, tuning.get());
      impl_->set_units(s);
      impl_->ones.push_back(s);
    }
    SHARESIM_CUDA(cudaStreamSynchronize(tuning.get()));
  } catch (...) {
    for (void* p : impl_->allocations) cudaFree(p);
    delete impl_;
    throw;
  }
}

StressorSet::~StressorSet() {
  cudaDeviceSynchronize();
  for (void* p : impl_->allocations) cudaFree(p);
  delete impl_;
}

std::vector<double> StressorSet::measure(const std::vector<cudaStream_t>& streams, double seconds) {
  const std::size_t n = impl_->ones.size();
  if (streams.size() != n) throw GpuError("StressorSet::measure: one stream per stressor expected");
  std::vector<double> throughput(n, 0.0);
  std::vector<std::exception_ptr> errors(n);
  // Each host thread must use the caller's context, which may be a green context's.
  const DriverContextApi& driver = driver_context_api();
  CUcontext context = nullptr;
  check_driver(driver.get_current(&context), "cuCtxGetCurrent");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  auto body = [&](std::size_t i) {
    try {
      check_driver(driver.set_current(context), "cuCtxSetCurrent");
      const Impl::One& s = impl_->ones[i];
      const std::size_t depth = s.kind == Kind::launch ? 256 : 4;
      std::vector<std::unique_ptr<Event>> ring;
      for (std::size_t d = 0; d < depth; ++d) ring.push_back(std::make_unique<Event>(false));
      Event begin;
      Event end;
      SHARESIM_CUDA(cudaEventRecord(begin.get(), streams[i]));
      std::size_t launches = 0;
      while (std::chrono::steady_clock::now() < deadline) {
        Event& slot = *ring[launches % depth];
        if (launches >= depth) SHARESIM_CUDA(cudaEventSynchronize(slot.get()));  // at most `depth` in flight
        impl_->launch(s, streams[i]);
        SHARESIM_CUDA(cudaEventRecord(slot.get(), streams[i]));
        ++launches;
      }
      SHARESIM_CUDA(cudaEventRecord(end.get(), streams[i]));
      SHARESIM_CUDA(cudaEventSynchronize(end.get()));
      const double ms = elapsed_ms(begin, end);
      throughput[i] = ms > 0 ? static_cast<double>(launches) * s.units_per_launch / (ms * 1e-3) : 0.0;
    } catch (...) {
      errors[i] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < n; ++i) threads.emplace_back(body, i);
  for (std::thread& t : threads) t.join();
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  return throughput;
}

std::vector<double> run_stressors(int device, const std::vector<std::string>& names, double seconds) {
  const cudaDeviceProp prop = use_device(device);
  StressorSet set(prop, names);
  std::vector<std::unique_ptr<Stream>> streams;
  std::vector<cudaStream_t> handles;
  for (std::size_t i = 0; i < names.size(); ++i) {
    streams.push_back(std::make_unique<Stream>());
    handles.push_back(streams.back()->get());
  }
  return set.measure(handles, seconds);
}

}  // namespace sharesim::calib::gpu
