#pragma once
// Running one hand-built or lowered UOp program on a device over buffers given as bytes, for tests
// that check a kernel's values without the realize path choosing its opts.
#include <cstring>
#include <vector>

#include "core/runtime/buffer.h"
#include "core/runtime/device.h"
#include "core/ir/uops.h"

namespace tr::testing {

using Bytes = std::vector<std::vector<std::byte>>;

// Runs p on the device with the given initial contents of each buffer; returns every buffer's
// contents after the run.
inline Bytes run_on(Device& dev, const UOpProgram& p, const Bytes& initial) {
  std::vector<BufferRef> bufs;
  std::vector<const Buffer*> raw;
  for (size_t i = 0; i < p.globals.size(); i++) {
    const int64_t n = static_cast<int64_t>(initial[i].size()) / itemsize(p.globals[i]);
    bufs.push_back(dev.alloc(p.globals[i], n));
    dev.copyin(*bufs.back(), initial[i].data());
    raw.push_back(bufs.back().get());
  }
  bool cached = false;
  dev.compile(p, dev.render(p), cached)->run(raw, p.dims, {});
  Bytes out;
  for (size_t i = 0; i < bufs.size(); i++) {
    out.emplace_back(initial[i].size());
    dev.copyout(out.back().data(), *bufs[i]);
  }
  return out;
}

template <typename T>
inline std::vector<std::byte> bytes(const std::vector<T>& v) {
  std::vector<std::byte> out(v.size() * sizeof(T));
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

inline std::vector<std::byte> typed_bytes(DType t, const std::vector<double>& v) {
  HostData d(t, static_cast<int64_t>(v.size()));
  for (size_t i = 0; i < v.size(); i++)
    d.set(static_cast<int64_t>(i), is_float(t) ? ConstValue{v[i]} : ConstValue{static_cast<int64_t>(v[i])});
  return d.bytes;
}

inline std::vector<double> typed_values(DType t, const std::vector<std::byte>& b) {
  HostData d(t, static_cast<int64_t>(b.size()) / itemsize(t));
  d.bytes = b;
  std::vector<double> out;
  for (int64_t i = 0; i < d.size(); i++) out.push_back(as_double(d.get(i)));
  return out;
}

}  // namespace tr::testing
