# Warning and sanitizer options for every sharesim target, kept in one place
# (after the cpp-best-practices cmake_template).
option(SHARESIM_WARNINGS_AS_ERRORS "Treat compiler warnings as errors" OFF)
option(SHARESIM_SANITIZE "Build with address and undefined-behaviour sanitizers" OFF)

add_library(sharesim_options INTERFACE)
target_compile_options(sharesim_options INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
  -Woverloaded-virtual -Wconversion -Wsign-conversion -Wnull-dereference -Wdouble-promotion
  -Wformat=2 -Wimplicit-fallthrough)
# GCC 12 at -O2/-O3 reports impossible -Wrestrict overlaps inside std::string's operator+
# (GCC bug 105329, fixed in GCC 13); it flags correct code, so it is off for GCC 12 only.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(sharesim_options INTERFACE -Wno-restrict)
endif()
if(SHARESIM_WARNINGS_AS_ERRORS)
  target_compile_options(sharesim_options INTERFACE -Werror)
endif()
if(SHARESIM_SANITIZE)
  target_compile_options(sharesim_options INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer
                                                    -fno-sanitize-recover=all)
  target_link_options(sharesim_options INTERFACE -fsanitize=address,undefined)
  # The sanitizer presets build with NDEBUG (RelWithDebInfo); the model's invariants
  # (SHARESIM_ASSERT, sim/core/assert.h) are checked there too.
  target_compile_definitions(sharesim_options INTERFACE SHARESIM_ENABLE_ASSERTS)
  # The sanitizers' instrumentation makes GCC report -Wmaybe-uninitialized inside libstdc++'s
  # <regex> (std::function members of its NFA states; GCC bug 105562), which is not ours.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(sharesim_options INTERFACE -Wno-maybe-uninitialized)
  endif()
endif()
