#pragma once
// The GPU hardware catalog (scenarios/hardware/gpus.json): one entry per GPU model, every
// number with its source. Loaded once at start; the JSON text is embedded in the binary
// at build time and may be replaced with --catalog FILE.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sharesim {

struct GpuModel {
  std::string id;                  // catalog key used in scenarios, e.g. "A100-80GB"
  std::string product;             // nvidia-smi / GPU feature discovery name, e.g. "NVIDIA-A100-SXM4-80GB"
  std::string architecture;        // "Ampere", "Hopper", ...
  std::string compute_capability;  // "8.0"
  std::int64_t sm_count = 0;
  std::int64_t memory_mib = 0;            // total as nvidia-smi reports it, not the marketing size
  double dram_bandwidth_gbps = 0;         // GB/s (1e9 bytes/s)
  double fp32_tflops = 0;                 // peak, non-tensor
  double fp16_tensor_tflops = 0;          // dense FP16/BF16 tensor-core peak (0 = no tensor cores)
  bool compute_preemption = false;        // instruction-level compute preemption (Pascal and later)
  bool compute_policy_timeslice = false;  // `nvidia-smi compute-policy --set-timeslice` supported
  std::int64_t mps_max_clients = 0;       // CUDA MPS client limit per device
  bool mig_supported = false;
  std::int64_t mig_max_instances = 0;          // 0 when MIG is unsupported
  double gpu_hour_usd = 0;                     // on-demand price of one GPU-hour; 0 = not in the catalog
  std::map<std::string, std::string> sources;  // field name -> citation
};

class GpuCatalog {
 public:
  // Parses catalog JSON text. Throws InputError (sim/input/input_error.h) naming
  // `origin` (a file path or "<embedded catalog>") and the JSON pointer of the bad field.
  static GpuCatalog parse(std::string_view json_text, const std::string& origin);
  static GpuCatalog load_file(const std::string& path);
  // The catalog compiled into the program from scenarios/hardware/gpus.json.
  static const GpuCatalog& builtin();

  // By catalog id or by GFD product name ("NVIDIA-A100-SXM4-80GB"); nullptr when unknown.
  const GpuModel* find(std::string_view id) const;
  const std::vector<GpuModel>& models() const { return models_; }
  std::vector<std::string> ids() const;

 private:
  std::vector<GpuModel> models_;
};

// "unknown GPU model \"X\"; did you mean \"Y\"? (see `sharesim gpus`)", for any place
// that names a catalog id.
std::string unknown_gpu_model_problem(const std::string& id, const GpuCatalog& catalog);

}  // namespace sharesim
