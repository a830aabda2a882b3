// Fuzz harness: the openb CSV parser, the same bytes read as a node list and as a pod list.
#include "tests/fuzz/fuzz_input.h"
#include "workloads/openb/openb_csv.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sharesim;
  const std::string path = fuzz::input_file(data, size, ".csv");
  fuzz::refuse_or_accept([&] {
    OpenbNodeReader nodes(path);
    OpenbNodeRow node;
    while (nodes.next(node)) {
    }
  });
  fuzz::refuse_or_accept([&] {
    OpenbPodReader pods(path);
    OpenbPodRow pod;
    while (pods.next(pod)) {
    }
  });
  return 0;
}
