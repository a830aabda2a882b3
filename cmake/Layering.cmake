# sim/ is one static library per folder, each naming the folders it builds on
# (docs/architecture.md "Layers"). sharesim_layer() makes such a library; the check that
# sharesim_check_layers() adds to the build fails it when a file includes a header of a folder
# its library does not depend on, directly or through another (an arrow back up a layer), or
# when the declared dependencies form a cycle. The linker alone would miss both: headers carry
# no symbols, and static libraries may reference each other in a circle.

# sharesim_layer(TARGET FOLDER [DEPENDS LAYER_TARGET... ] [LINKS OTHER_TARGET...])
#   FOLDER is relative to the project root ("sim/cluster"). DEPENDS are other layers;
#   LINKS are third-party libraries (not checked).
function(sharesim_layer target folder)
  cmake_parse_arguments(PARSE_ARGV 2 LAYER "" "" "DEPENDS;LINKS")
  add_library(${target} STATIC)
  target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(${target} PUBLIC ${LAYER_DEPENDS} ${LAYER_LINKS} PRIVATE sharesim_options)
  set_property(GLOBAL APPEND PROPERTY SHARESIM_LAYERS ${target})
  set_property(GLOBAL PROPERTY SHARESIM_LAYER_FOLDER_${target} ${folder})
  set_property(GLOBAL PROPERTY SHARESIM_LAYER_DEPENDS_${target} ${LAYER_DEPENDS})
endfunction()

# The folders a layer may include: its own and those of every layer it depends on, transitively.
function(sharesim_layer_closure target out_folders)
  set(seen "")
  set(todo ${target})
  while(todo)
    list(POP_FRONT todo current)
    if(current IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${current})
    get_property(depends GLOBAL PROPERTY SHARESIM_LAYER_DEPENDS_${current})
    foreach(dependency IN LISTS depends)
      if(dependency STREQUAL target)
        message(FATAL_ERROR "sim/ layers: ${target} depends on itself through ${current} (a cycle)")
      endif()
      list(APPEND todo ${dependency})
    endforeach()
  endwhile()
  set(folders "")
  foreach(layer IN LISTS seen)
    get_property(folder GLOBAL PROPERTY SHARESIM_LAYER_FOLDER_${layer})
    list(APPEND folders ${folder})
  endforeach()
  set(${out_folders} ${folders} PARENT_SCOPE)
endfunction()

# Adds the include check of every layer declared so far to the default build target.
function(sharesim_check_layers)
  get_property(layers GLOBAL PROPERTY SHARESIM_LAYERS)
  set(rules "")
  set(all_files "")
  foreach(layer IN LISTS layers)
    get_property(folder GLOBAL PROPERTY SHARESIM_LAYER_FOLDER_${layer})
    sharesim_layer_closure(${layer} allowed)
    string(REPLACE ";" "," allowed "${allowed}")
    list(APPEND rules "${layer}=${folder}=${allowed}")
    file(GLOB_RECURSE files CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/${folder}/*.h" "${PROJECT_SOURCE_DIR}/${folder}/*.cpp")
    list(APPEND all_files ${files})
  endforeach()
  string(REPLACE ";" "|" rules "${rules}")
  set(stamp "${CMAKE_BINARY_DIR}/sim_layers_checked.stamp")
  add_custom_command(
    OUTPUT "${stamp}"
    COMMAND ${CMAKE_COMMAND} "-DROOT=${PROJECT_SOURCE_DIR}" "-DRULES=${rules}" "-DSTAMP=${stamp}"
            -P "${PROJECT_SOURCE_DIR}/cmake/CheckLayersScript.cmake"
    DEPENDS ${all_files} "${PROJECT_SOURCE_DIR}/cmake/CheckLayersScript.cmake"
    COMMENT "Checking the includes of sim/ against its layers"
    VERBATIM)
  add_custom_target(sharesim_layers_check ALL DEPENDS "${stamp}")
endfunction()
