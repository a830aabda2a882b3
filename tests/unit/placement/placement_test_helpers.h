#pragma once
// Hand-made nodes, pods and CSV files for the placement tests.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sim/sched/placement/node_view.h"

namespace sharesim::testing {

// A node view over GPUs given by their free milli (the vector must outlive the view).
inline PlacementNodeView node_view(const std::vector<std::int32_t>& gpu_free, std::int64_t cpu_free = 64000,
                                   std::int64_t cpu_total = 64000, int model = 0, std::int64_t memory_free = 262144) {
  PlacementNodeView view;
  view.cpu_free_milli = cpu_free;
  view.cpu_total_milli = cpu_total;
  view.memory_free_mib = memory_free;
  view.gpu_free_milli = gpu_free;
  view.gpu_model = gpu_free.empty() ? -1 : model;
  return view;
}

inline PlacementPodRequest sharing_pod(std::int32_t milli, std::int64_t cpu = 8000) {
  PlacementPodRequest pod;
  pod.cpu_milli = cpu;
  pod.memory_mib = 1024;
  pod.num_gpu = 1;
  pod.gpu_milli = milli;
  return pod;
}

inline PlacementPodRequest whole_gpu_pod(std::int32_t gpus, std::int64_t cpu = 8000) {
  PlacementPodRequest pod = sharing_pod(kMilliPerGpu, cpu);
  pod.num_gpu = gpus;
  return pod;
}

inline PlacementPodRequest cpu_pod(std::int64_t cpu = 8000) {
  PlacementPodRequest pod = sharing_pod(0, cpu);
  pod.num_gpu = 0;
  return pod;
}

// A scratch folder removed at the end of the test.
class TempDir {
 public:
  explicit TempDir(const std::string& name)
      : path_(std::filesystem::temp_directory_path() /
              ("sharesim-placement-" + name + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string file(const std::string& name, const std::string& content) const {
    const std::string p = (path_ / name).string();
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }
  std::string path(const std::string& name = "") const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

inline const char* kPodHeader =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n";
inline const char* kNodeHeader = "sn,cpu_milli,memory_mib,gpu,model\n";

// A pod row with the columns the experiment reads; the rest are plausible constants.
inline std::string pod_row(const std::string& name, std::int64_t cpu, std::int64_t gpus, std::int64_t milli,
                           const std::string& spec = "") {
  return name + "," + std::to_string(cpu) + ",4096," + std::to_string(gpus) + "," + std::to_string(milli) + "," + spec +
         ",LS,Running,0,100,0\n";
}

}  // namespace sharesim::testing
