#include "core/runtime/device.h"

#include <algorithm>
#include <cstddef>
#include <map>
#include <mutex>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/render/render.h"

namespace tr {
namespace {

std::vector<DeviceEntry>& entries() {
  static std::vector<DeviceEntry> e;
  return e;
}

struct Opened {
  std::unique_ptr<Device> device;
  std::string error;  // why it could not open
};

std::map<std::string, Opened>& opened() {
  static std::map<std::string, Opened> m;
  return m;
}

Opened& open(const std::string& name) {
  static std::mutex mu;
  std::lock_guard lock(mu);
  const DeviceName id = parse_device_name(name);
  const std::string canon = device_name(id);
  auto it = opened().find(canon);
  if (it != opened().end()) return it->second;
  Opened o;
  const auto e = std::find_if(entries().begin(), entries().end(), [&](const DeviceEntry& d) { return d.name == id.kind; });
  if (e == entries().end()) {
    std::string known;
    for (const DeviceEntry& d : entries()) known += (known.empty() ? "" : ", ") + d.name;
    o.error = fmt::format("unknown device '{}' (devices: {})", name, known);
  } else {
    try {
      o.device = e->open(id.index);
    } catch (const Error& err) {
      o.error = err.what();
    }
  }
  return opened().emplace(canon, std::move(o)).first->second;
}

}  // namespace

void register_device(DeviceEntry entry) {
  auto& e = entries();
  if (std::none_of(e.begin(), e.end(), [&](const DeviceEntry& d) { return d.name == entry.name; }))
    e.push_back(std::move(entry));
}

const std::vector<DeviceEntry>& registered_devices() { return entries(); }

bool cores_combine(const std::string& name) {
  const std::string kind = parse_device_name(name).kind;
  return std::any_of(entries().begin(), entries().end(), [&](const DeviceEntry& d) { return d.name == kind && d.cores_combine; });
}

Device& device(const std::string& name) {
  Opened& o = open(name);
  if (!o.device) throw Error("device", o.error);
  return *o.device;
}

std::string device_status(const std::string& name) { return open(name).error; }


std::vector<BufferRef> zeroed_buffers(Device& dev, const std::vector<std::pair<DType, int64_t>>& sizes) {
  std::vector<BufferRef> out;
  for (const auto& [t, n] : sizes) {
    out.push_back(dev.alloc(t, n));
    const std::vector<std::byte> zeros(out.back()->nbytes());
    dev.copyin(*out.back(), zeros.data());
  }
  return out;
}

std::vector<const Buffer*> pointers(const std::vector<BufferRef>& bufs) {
  std::vector<const Buffer*> out;
  for (const BufferRef& b : bufs) out.push_back(b.get());
  return out;
}

std::string Device::render(const UOpProgram& program) const { return tr::render(backend(), program); }

std::string Device::hardware() const {
  return fmt::format("{} ({})\n{}", parse_device_name(name()).kind, backend(), target().str());
}

std::unique_ptr<LaunchGraph> Device::graph(const std::vector<Program*>&) { return nullptr; }

}  // namespace tr
