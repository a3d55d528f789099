#include "core/render/source_lines.h"

#include <algorithm>

namespace tr {

void RenderedSource::append(std::string_view more, const std::vector<int>& uops) {
  size_t at = 0;
  while (at < more.size()) {
    const size_t end = more.find('\n', at);
    if (open_) {
      std::vector<int>& line = line_uops.back();
      line.insert(line.end(), uops.begin(), uops.end());
      std::sort(line.begin(), line.end());
      line.erase(std::unique(line.begin(), line.end()), line.end());
    } else {
      line_uops.push_back(uops);
    }
    open_ = end == std::string_view::npos;
    at = open_ ? more.size() : end + 1;
  }
  text += more;
}

void RenderedSource::append(const RenderedSource& more) {
  size_t at = 0;
  for (const std::vector<int>& uops : more.line_uops) {
    const size_t end = std::min(more.text.find('\n', at), more.text.size() - 1);
    append(std::string_view(more.text).substr(at, end + 1 - at), uops);
    at = end + 1;
  }
}

std::vector<int> RenderedSource::lines_of(int uop) const {
  std::vector<int> out;
  for (size_t l = 0; l < line_uops.size(); l++)
    if (std::binary_search(line_uops[l].begin(), line_uops[l].end(), uop)) out.push_back(static_cast<int>(l));
  return out;
}

std::vector<int> InlinedUOps::spelled_by(int i) const {
  std::vector<int> out{i};
  for (const int s : uops_[static_cast<size_t>(i)].srcs) {
    const std::vector<int>& h = held_[static_cast<size_t>(s)];
    out.insert(out.end(), h.begin(), h.end());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace tr
