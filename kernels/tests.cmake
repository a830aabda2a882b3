# ctests of kernels/ (included from tests/CMakeLists.txt):
#   kernels_compiled   fails when nvcc was found but the CUDA kernels were not built (AUTO/ON);
#                      reported as skipped when SHARESIM_CUDA=OFF or there is no nvcc
#   calibrate_cli      sharesim-calibrate's command line: the no-GPU exit path (code 3, one
#                      line), bad input (code 2), fit determinism, profile checks
if(SHARESIM_CUDA_BUILT)
  set(_sharesim_cuda_lib $<TARGET_FILE:sharesim_kernels_cuda>)
else()
  set(_sharesim_cuda_lib "")
endif()
add_test(NAME kernels_compiled
         COMMAND ${CMAKE_COMMAND} -DNVCC_FOUND=${SHARESIM_NVCC_FOUND} -DCUDA_BUILT=${SHARESIM_CUDA_BUILT}
                 -DCUDA_CHOICE=${SHARESIM_CUDA} -DCUDA_LIBRARY=${_sharesim_cuda_lib}
                 -DCUDA_ARCHITECTURES=${SHARESIM_CUDA_ARCHITECTURES}
                 -P ${PROJECT_SOURCE_DIR}/kernels/check_kernels_compiled.cmake)
set_tests_properties(kernels_compiled PROPERTIES SKIP_REGULAR_EXPRESSION "kernels_compiled: skipped")
add_test(NAME calibrate_cli
         COMMAND bash ${PROJECT_SOURCE_DIR}/tests/cli/calibrate_test.sh $<TARGET_FILE:sharesim-calibrate>
                 ${PROJECT_SOURCE_DIR})
