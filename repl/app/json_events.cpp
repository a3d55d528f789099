#include "repl/app/json_events.h"

#include <cmath>

#include "repl/value_json.h"
#include "viz/stages.h"
#include "viz/timings.h"

namespace tr::repl {
namespace {

Json printed_json(const PrintedValue& p) {
  Json j;
  if (p.array) {
    j["shape"] = p.array->shape;
    j["dtype"] = name(p.array->dtype);
    j["data"] = Json(json_data(*p.array));
  } else {
    j["shape"] = nullptr;
    j["value"] = Json(json_value(p.value));
  }
  return j;
}

// Timings to a precision that means something (a nanosecond), not the binary noise of a double.
double rounded(double x, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(x * scale) / scale;
}

Json dims_json(const std::array<int64_t, 3>& d) { return Json::array({d[0], d[1], d[2]}); }

// {"event": kind, "file": ..., "line": ...}; no location when at is null or has no line.
Json event_json(std::string_view kind, const Location* at) {
  Json j{{"event", kind}};
  if (at && at->line > 0) {
    j["file"] = at->file;
    j["line"] = at->line;
  }
  return j;
}

}  // namespace

Json print_json(const PrintEvent& e, const Location& at) {
  Json j = event_json("print", &at);
  if (e.values.size() == 1) {
    j.update(printed_json(e.values[0]));
  } else {
    Json values = Json::array();
    for (const PrintedValue& p : e.values) values.push_back(printed_json(p));
    j["values"] = std::move(values);
  }
  j["text"] = e.text;
  return j;
}

Json schedule_json(const Realization& r, const Location& at) {
  int kernels = 0;
  for (const ScheduleItem& i : r.schedule) kernels += i.kind == ScheduleItem::Kind::Kernel;
  Json j = event_json("schedule", &at);
  j["kernels"] = kernels;
  j["copies"] = static_cast<int>(r.schedule.size()) - kernels;
  j["ms"] = rounded(r.schedule_ms, 6);
  return j;
}

Json run_json(const RunRecord& r, const Location& at) {
  const RunRates x = rates(r);
  if (r.is_copy) {
    Json j = event_json("copy", &at);
    j["bytes"] = r.copy.bytes;
    j["from"] = r.copy.from;
    j["to"] = r.copy.to;
    j["us"] = rounded(x.seconds * 1e6, 3);
    j["jit"] = r.replayed;
    return j;
  }
  const KernelRecord& k = r.kernel;
  Json j = event_json("kernel", &at);
  j["name"] = k.name;
  j["device"] = k.device;
  j["global"] = dims_json(launch_for(k.program->dims, k.vars).global);
  j["local"] = dims_json(k.program->dims.local);
  j["us"] = rounded(x.seconds * 1e6, 3);
  j["flops"] = k.program->flops;
  j["bytes"] = k.program->bytes;
  j["gflops"] = rounded(x.gflops, 6);
  j["gbs"] = rounded(x.gbs, 6);
  j["cached"] = k.cached;
  j["jit"] = r.replayed;
  if (const std::optional<Spread> again = spread(k.repeats)) {
    j["repeats"] = again->runs;
    j["min_us"] = rounded(again->min * 1e6, 3);
    j["median_us"] = rounded(again->median * 1e6, 3);
  }
  return j;
}

Json source_json(const KernelRecord& k, std::string_view backend, const Location& at) {
  Json j = event_json("source", &at);
  j["kernel"] = k.name;
  j["backend"] = backend;
  j["text"] = backend_source(k, backend);
  return j;
}

Json assert_json(const Location& at, const Diagnostic* failure) {
  Json j = event_json("assert", &at);
  j["ok"] = failure == nullptr;
  if (failure) {
    j["col"] = failure->span.col;
    j["message"] = failure->message;
  }
  return j;
}

Json error_json(const Diagnostic& d) {
  Json j = event_json("error", nullptr);
  if (d.span.line > 0) {
    j["file"] = d.file;
    j["line"] = d.span.line;
    j["col"] = d.span.col;
  }
  j["kind"] = d.kind;
  j["message"] = d.message;
  if (!d.called_from.empty()) j["called_from"] = d.called_from;
  return j;
}

namespace {

Json peak_json(const Peak& p, std::string_view unit, double scale) {
  Json j;
  j[unit] = p.value ? Json(rounded(*p.value * scale, 6)) : Json(nullptr);
  j["source"] = p.source;
  return j;
}

Json or_null(const std::optional<double>& x, double scale, int decimals) {
  return x ? Json(rounded(*x * scale, decimals)) : Json(nullptr);
}

}  // namespace

Json roofline_json(const Roofline& r, std::string_view svg_file, const Location& at) {
  Json j = event_json("roofline", &at);
  Json devices = Json::array();
  for (const DevicePeaks& p : r.peaks) {
    Json compute = Json::object();
    for (const auto& [dtype, peak] : p.compute) compute[std::string(name(dtype))] = peak_json(peak, "gflops", 1e-9);
    devices.push_back({{"device", p.device},
                       {"measured", p.measured},
                       {"kept", p.kept},
                       {"kept_in", r.kept_where.empty() ? Json(nullptr) : Json(r.kept_where)},
                       {"bandwidth", peak_json(p.bandwidth, "gbs", 1e-9)},
                       {"compute", std::move(compute)},
                       {"tensor_cores", peak_json(p.tensor_cores, "gflops", 1e-9)},
                       {"launch", peak_json(p.launch, "us", 1e6)}});
  }
  j["peaks"] = std::move(devices);
  Json kernels = Json::array();
  for (const RooflinePoint& p : r.points) {
    const KernelFigures& k = p.kernel;
    kernels.push_back({{"k", k.k},
                       {"name", k.name},
                       {"device", k.device},
                       {"dtype", name(k.dtype)},
                       {"tensor_cores", k.tensor_cores},
                       {"flops", static_cast<int64_t>(k.flops)},
                       {"bytes", static_cast<int64_t>(k.bytes)},
                       {"us", rounded(k.seconds * 1e6, 3)},
                       {"intensity", rounded(p.intensity, 6)},
                       {"gflops", rounded(p.flops_per_s / 1e9, 6)},
                       {"gbs", rounded(p.bytes_per_s / 1e9, 6)},
                       {"roof_gflops", or_null(p.roof, 1e-9, 6)},
                       {"percent", or_null(p.percent, 1, 3)},
                       {"bound", bound_name(p.bound)},
                       {"note", p.note}});
  }
  j["kernels"] = std::move(kernels);
  if (!svg_file.empty()) j["svg"] = svg_file;
  return j;
}

Json output_json(std::string_view command, std::string_view text, const Location& at) {
  Json j = event_json("output", &at);
  j["command"] = command;
  j["text"] = text;
  return j;
}

Json summary_json(const RunTotals& t) {
  Json j = event_json("summary", nullptr);
  j["kernels"] = t.kernels;
  j["gflops"] = t.seconds > 0 ? rounded(static_cast<double>(t.flops) / t.seconds / 1e9, 6) : 0.0;
  j["gbs"] = t.seconds > 0 ? rounded(static_cast<double>(t.bytes) / t.seconds / 1e9, 6) : 0.0;
  j["ms"] = rounded(t.seconds * 1e3, 6);
  return j;
}

}  // namespace tr::repl
