// first_touch MIB: three times, allocates MIB MiB (aligned to 2 MiB, madvise(MADV_HUGEPAGE)),
// writes one byte per 4 KiB page (the first touch: every page is fresh to the process), then
// memsets the whole buffer (the pages are mapped by then), and frees it. Prints both times.
// Built with: g++ -O2 first_touch.cpp -o first_touch   (first-touch.log)
#include <sys/mman.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const size_t mb = static_cast<size_t>(atoi(argv[1]));
  const size_t n = mb << 20;
  for (int rep = 0; rep < 3; rep++) {
    char* p = static_cast<char*>(aligned_alloc(2 << 20, n));
    madvise(p, n, MADV_HUGEPAGE);
    auto t0 = std::chrono::steady_clock::now();
    for (size_t i = 0; i < n; i += 4096) p[i] = 1;
    auto t1 = std::chrono::steady_clock::now();
    printf("%zu MiB first touch: %.1f ms (%.0f MB/s)\n", mb, std::chrono::duration<double, std::milli>(t1 - t0).count(),
           mb / std::chrono::duration<double>(t1 - t0).count());
    auto t2 = std::chrono::steady_clock::now();
    memset(p, 2, n);
    auto t3 = std::chrono::steady_clock::now();
    printf("   memset after: %.1f ms\n", std::chrono::duration<double, std::milli>(t3 - t2).count());
    free(p);
  }
}
