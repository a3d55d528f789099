#include "core/runtime/device_name.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "core/base/error.h"

namespace tr {

DeviceName parse_device_name(const std::string& name) {
  std::string up = name;
  std::transform(up.begin(), up.end(), up.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  DeviceName d;
  if (const auto colon = up.find(':'); colon != std::string::npos) {
    const std::string_view n = std::string_view(up).substr(colon + 1);
    const auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), d.index);
    if (n.empty() || ec != std::errc() || end != n.data() + n.size() || d.index < 0)
      fail("device", "'{}': the index after ':' must be a whole number from 0 (CPU:1 is a second CPU)", name);
    up.resize(colon);
  }
  if (up == "GPU" || up == "CL") up = "OPENCL";
  if (up == "CLANG" || up == "C") up = "CPU";
  d.kind = std::move(up);
  return d;
}

std::string device_name(const DeviceName& d) { return d.index == 0 ? d.kind : fmt::format("{}:{}", d.kind, d.index); }

std::string canonical_device(const std::string& name) { return device_name(parse_device_name(name)); }

std::string multi_device_name(const std::vector<std::string>& devices) { return fmt::format("({})", fmt::join(devices, ", ")); }

std::vector<std::string> multi_devices(const std::string& name) {
  if (name.size() < 2 || name.front() != '(' || name.back() != ')') return {};
  std::vector<std::string> out;
  size_t at = 1;
  for (size_t comma; (comma = name.find(", ", at)) != std::string::npos; at = comma + 2) out.push_back(name.substr(at, comma - at));
  out.push_back(name.substr(at, name.size() - 1 - at));
  return out;
}

}  // namespace tr
