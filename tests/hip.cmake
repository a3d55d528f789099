# The HIP renderer's kernels (random programs, hand-built UOps) compile for an AMD GPU with clang's HIP
# mode against devices/shims/hip's stand-in for ROCm's header (tests/hip_testing.h).
foreach(name backend_random_test backend_uops_test)
  target_compile_definitions(${name} PRIVATE TINYREPL_HIP_INCLUDE="${PROJECT_SOURCE_DIR}/devices/shims/hip")
endforeach()
