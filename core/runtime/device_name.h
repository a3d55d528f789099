#pragma once
// A device's name: its kind (CPU, LLVM, OPENCL, CUDA, NV, ...) and which instance of that kind, as
// tinygrad spells it: "CPU" is instance 0, "CPU:1" a second CPU with buffers of its own.
#include <string>
#include <vector>

namespace tr {

struct DeviceName {
  std::string kind;  // the registry's name: "CPU", "OPENCL"
  int index = 0;     // the N of KIND:N
};

// "cpu:1" -> {CPU, 1}, "gpu" -> {OPENCL, 0}; an index that is not a whole number throws tr::Error("device").
DeviceName parse_device_name(const std::string& name);
// The name a device and its buffers go by: "CPU", "CPU:1" ("CPU:0" is "CPU").
std::string device_name(const DeviceName& d);
std::string canonical_device(const std::string& name);  // "cpu" -> "CPU", "gpu"/"cl" -> "OPENCL", "cpu:0" -> "CPU"
// A tensor sharded over several devices (core/tensor/multi.h) goes by their names as a tuple:
// "(CPU, CPU:1)". multi_devices reads such a name back; for one device's name it returns nothing.
std::string multi_device_name(const std::vector<std::string>& devices);
std::vector<std::string> multi_devices(const std::string& name);

}  // namespace tr
