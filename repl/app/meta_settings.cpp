// :device (and :device load PATH) :render :debug :noopt :online_softmax :beam — the settings the command line also sets.
#include <fmt/format.h>

#include "core/base/context.h"
#include "core/runtime/device.h"
#include "core/render/render.h"
#include "devices/plugin.h"
#include "repl/app/meta_commands.h"
#include "repl/app/settings_input.h"

namespace tr::repl::meta {
Status device(Host& h, const MetaCall& c) {
  if (c.size() >= 1 && c.arg(0) == "load") {
    if (c.size() < 2) c.fail(0, "command", "usage: :device load PATH (the path of a device plug-in, a shared library)");
    const std::string path(c.text(1, c.size()));
    const std::string name = c.checked(1, [&] { return load_device_plugin(path); });
    h.show(c.name(), fmt::format("loaded the device {} from {} (:device {} makes it the default)\n", name, path, name));
    return Status::Ok;
  }
  c.expect(0, 1);
  Settings& s = settings();
  if (c.size() == 1) {
    s.device = c.checked(0, [&] { return usable_device(c.arg(0)); });
    h.show(c.name(), fmt::format("new tensors go to {}\n", s.device));
    return Status::Ok;
  }
  std::string out;
  for (const DeviceEntry& d : registered_devices()) {
    // the default's own instance where it is one (CPU:1), else the kind's first
    const bool is_default = parse_device_name(s.device).kind == d.name;
    const std::string name = is_default ? s.device : d.name;
    const std::string why = device_status(name);
    out += fmt::format("{} {:<8} {}\n", is_default ? "*" : " ", name, why.empty() ? "available" : "unavailable: " + why);
    if (why.empty()) out += tr::device(name).target().str();
  }
  out += "(* the default; :device NAME changes it; every backend renders on any machine: :src K BACKEND)\n";
  h.show(c.name(), out);
  return Status::Ok;
}

Status render(Host& h, const MetaCall& c) {
  Settings& s = settings();
  const std::string_view list = c.text(0, c.size());
  if (list == "none") s.render.clear();
  else if (!list.empty()) s.render = c.checked(0, [&] { return render_list(list); });
  h.show(c.name(), fmt::format("render: {}\nbackends: {}\n",
                               s.render.empty() ? "the device's own" : fmt::format("{}", fmt::join(s.render, ",")),
                               fmt::join(backends(), ", ")));
  return Status::Ok;
}

Status debug(Host& h, const MetaCall& c) {
  c.expect(0, 1);
  if (c.size() == 1) settings().debug = c.checked(0, [&] { return bounded_int(c.arg(0), 0, 6, "the debug level"); });
  h.show(c.name(), fmt::format("debug {}\n", settings().debug));
  return Status::Ok;
}

Status noopt(Host& h, const MetaCall& c) {
  c.expect(0, 1);
  if (c.size() == 1) settings().noopt = c.checked(0, [&] { return switch_value(c.arg(0), ":noopt"); });
  h.show(c.name(), fmt::format("noopt {}\n", settings().noopt ? "on: kernels run without opts"
                                                              : "off: kernels get the default opts"));
  return Status::Ok;
}

Status online_softmax(Host& h, const MetaCall& c) {
  c.expect(0, 1);
  if (c.size() == 1) settings().online_softmax = c.checked(0, [&] { return switch_value(c.arg(0), ":online_softmax"); });
  h.show(c.name(), fmt::format("online_softmax {}\n", settings().online_softmax
                                                       ? "on: attention's softmax and matmul fuse into one kernel"
                                                       : "off: attention is scheduled as tinygrad does"));
  return Status::Ok;
}

Status beam(Host& h, const MetaCall& c) {
  c.expect(0, 1);
  if (c.size() == 1) settings().beam = c.checked(0, [&] { return bounded_int(c.arg(0), 0, 64, "the beam width"); });
  h.show(c.name(), fmt::format("beam {}\n", settings().beam));
  return Status::Ok;
}

Status repeat(Host& h, const MetaCall& c) {
  c.expect(0, 1);
  if (c.size() == 1)
    settings().repeat = c.checked(0, [&] { return bounded_int(c.arg(0), 0, kMaxRepeat, "the number of repeats"); });
  h.show(c.name(), fmt::format("repeat {}\n", settings().repeat));
  return Status::Ok;
}

}  // namespace tr::repl::meta
