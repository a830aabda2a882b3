# embed_text_file(TARGET SYMBOL FILE): compiles FILE's text into TARGET as
#   `std::string_view SYMBOL()` declared in namespace sharesim::embedded.
# Data files (GPU catalog, scenario schema) travel inside the binary, so the program
# works wherever it is copied; the source file stays the one place to edit.
function(embed_text_file target symbol file)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/embedded_${symbol}.cpp")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -DIN=${file} -DOUT=${out} -DSYMBOL=${symbol}
            -P "${PROJECT_SOURCE_DIR}/cmake/EmbedFileScript.cmake"
    DEPENDS "${file}" "${PROJECT_SOURCE_DIR}/cmake/EmbedFileScript.cmake"
    COMMENT "Embedding ${file}")
  # The target may be defined in another directory; with the Makefile generator it only
  # sees custom-command outputs of its own directory, so a custom target here runs the rule.
  add_custom_target(sharesim_embed_${symbol} DEPENDS "${out}")
  add_dependencies(${target} sharesim_embed_${symbol})
  target_sources(${target} PRIVATE "${out}")
endfunction()
