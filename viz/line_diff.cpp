#include "viz/line_diff.h"

#include <sstream>
#include <vector>

#include <dtl/dtl.hpp>
#include <fmt/format.h>

namespace tr {
namespace {

std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> out;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    out.emplace_back(text.substr(0, end));
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
  }
  return out;
}

}  // namespace

LineDiff unified_diff(std::string_view a, std::string_view b, std::string_view a_label, std::string_view b_label) {
  dtl::Diff<std::string> diff(lines_of(a), lines_of(b));
  diff.compose();
  LineDiff out;
  for (const auto& [line, info] : diff.getSes().getSequence()) {
    out.removed += info.type == dtl::SES_DELETE;
    out.added += info.type == dtl::SES_ADD;
  }
  if (out.removed + out.added == 0) return out;
  diff.composeUnifiedHunks();
  std::ostringstream hunks;
  diff.printUnifiedFormat(hunks);
  out.text = fmt::format("--- {}\n+++ {}\n{}", a_label, b_label, hunks.str());
  return out;
}

}  // namespace tr
