#include "repl/app/settings_input.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include <fmt/format.h>

#include "core/runtime/device.h"
#include "core/base/error.h"
#include "core/render/render.h"

namespace tr::repl {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

std::string usable_device(std::string_view name) {
  const std::string canon = canonical_device(std::string(trimmed(name)));
  const std::string kind = parse_device_name(canon).kind;
  const auto& known = registered_devices();
  if (std::none_of(known.begin(), known.end(), [&](const DeviceEntry& d) { return d.name == kind; })) {
    std::vector<std::string> names;
    for (const DeviceEntry& d : known) names.push_back(d.name);
    fail("device", "unknown device '{}' (devices: {})", name, fmt::join(names, ", "));
  }
  if (const std::string why = device_status(canon); !why.empty())
    fail("device", "device {} is not available: {}", canon, why);
  return canon;
}

std::vector<std::string> render_list(std::string_view list) {
  std::vector<std::string> out;
  while (!list.empty()) {
    const size_t comma = std::min(list.find(','), list.size());
    const std::string name = lower(trimmed(list.substr(0, comma)));
    list.remove_prefix(std::min(comma + 1, list.size()));
    if (name.empty()) continue;
    if (!has_backend(name)) fail("value", "unknown backend '{}' (backends: {})", name, fmt::join(backends(), ", "));
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  }
  return out;
}

int bounded_int(std::string_view text, int lo, int hi, std::string_view what) {
  text = trimmed(text);
  int v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi)
    fail("value", "{} must be a whole number from {} to {}, not '{}'", what, lo, hi, text);
  return v;
}

bool switch_value(std::string_view text, std::string_view what) {
  const std::string t = lower(trimmed(text));
  if (t == "on" || t == "1" || t == "true" || t == "yes") return true;
  if (t == "off" || t == "0" || t == "false" || t == "no") return false;
  fail("value", "{} must be on or off, not '{}'", what, text);
}

}  // namespace tr::repl
