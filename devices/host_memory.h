#pragma once
// Devices whose buffers live in host memory (CPU, LLVM, the Metal shim): aligned allocations and
// memcpy for copies.
#include <memory>
#include <string>

#include "core/buffer_pool.h"
#include "core/device.h"

namespace tr {

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
