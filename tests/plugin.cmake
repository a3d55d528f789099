# The device suites and the :device load test open the example plug-in from the build tree.
foreach(name backend_devices_test backend_uops_test backend_random_test cli_meta_test device_instances_test)
  target_compile_definitions(${name} PRIVATE TINYREPL_CPU_PLUGIN="$<TARGET_FILE:tinyrepl_cpu_plugin>")
  add_dependencies(${name} tinyrepl_cpu_plugin)
endforeach()
