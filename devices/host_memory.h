#pragma once
// Devices whose buffers live in host memory (CPU, LLVM, the shims): aligned allocations and memcpy
// for copies.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/runtime/buffer_pool.h"
#include "core/runtime/device.h"

namespace tr {

// A host kernel's arguments as its entry takes them (`void**`): each buffer's memory, then a pointer to
// each Variable's value.
struct HostArgs {
  HostArgs(const std::vector<const Buffer*>& bufs, const std::vector<int32_t>& vars);
  HostArgs(const HostArgs&) = delete;
  HostArgs& operator=(const HostArgs&) = delete;
  std::vector<int32_t> values;
  std::vector<void*> pointers;
};

class HostMemoryDevice : public Device {
 public:
  HostMemoryDevice(std::string name, std::string backend);
  const std::string& name() const override { return name_; }
  const std::string& backend() const override { return backend_; }
  BufferRef alloc(DType dtype, int64_t size) override;
  void copyin(const Buffer& dst, const void* src) override;
  void copyout(void* dst, const Buffer& src) override;

 private:
  std::string name_, backend_;
  std::shared_ptr<BufferPool> pool_;
};

}  // namespace tr
