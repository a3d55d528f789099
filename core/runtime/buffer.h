#pragma once
// Host data (what the user typed, what a device hands back) and device buffers.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/ir/dtype.h"

namespace tr {

// Flat row-major values of one dtype, stored as the device stores them (half as IEEE bits).
struct HostData {
  DType dtype = DType::Float32;
  std::vector<std::byte> bytes;

  HostData() = default;
  HostData(DType t, int64_t n) : dtype(t), bytes(static_cast<size_t>(n) * itemsize(t)) {}
  int64_t size() const { return static_cast<int64_t>(bytes.size()) / itemsize(dtype); }
  ConstValue get(int64_t i) const;
  void set(int64_t i, const ConstValue& v);  // converts v to dtype first
};

// Memory on a device. `mem` is the device's handle (a host pointer for CPU, a cl_mem or CUdeviceptr
// for GPUs); its deleter frees it.
struct Buffer {
  std::string device;
  DType dtype;
  int64_t size;
  std::shared_ptr<void> mem;
  int64_t nbytes() const { return size * itemsize(dtype); }
};
using BufferRef = std::shared_ptr<Buffer>;

// Throws tr::Error("memory") when n elements of t cannot fit in this machine's memory, so that a
// huge tensor fails before anything is allocated.
void check_alloc(int64_t n, DType t);
// The product of dims, throwing tr::Error("memory") instead of overflowing.
int64_t checked_numel(const std::vector<int64_t>& shape);

}  // namespace tr
