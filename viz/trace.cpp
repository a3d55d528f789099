#include "viz/trace.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace tr {

std::string chrome_trace(const std::vector<RunRecord>& runs) {
  nlohmann::json events = nlohmann::json::array();
  for (const RunRecord& r : runs) {
    nlohmann::json e{{"ph", "X"}, {"pid", 1}, {"ts", r.start_us}};
    if (r.is_copy) {
      e["name"] = fmt::format("copy {} -> {}", r.copy.from, r.copy.to);
      e["cat"] = "copy";
      e["tid"] = r.copy.to;
      e["dur"] = r.copy.seconds * 1e6;
      e["args"] = {{"bytes", r.copy.bytes}};
    } else {
      const KernelRecord& k = r.kernel;
      e["name"] = k.name;
      e["cat"] = "kernel";
      e["tid"] = k.device;
      e["dur"] = k.seconds * 1e6;
      e["args"] = {{"flops", k.program->flops}, {"bytes", k.program->bytes}, {"cached", k.cached}, {"reason", *k.reason}};
    }
    e["args"]["jit"] = r.replayed;
    events.push_back(std::move(e));
  }
  return nlohmann::json{{"traceEvents", events}, {"displayTimeUnit", "ms"}}.dump(1);
}

}  // namespace tr
