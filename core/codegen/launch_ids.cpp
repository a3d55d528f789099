#include "core/codegen/launch_ids.h"

namespace tr {

std::vector<LaunchId> launch_ids(const Kernel& k, LaunchKind kind, const Target& target) {
  std::vector<size_t> ds;
  for (size_t d = 0; d < k.dims.size(); d++) {
    const DimRole r = k.dims[d].role;
    if (kind == LaunchKind::Global ? r == DimRole::Global : (r == DimRole::Local || r == DimRole::Group)) ds.push_back(d);
  }
  std::vector<LaunchId> ids;
  if (ds.empty()) return ids;
  const size_t folded = ds.size() > 3 ? ds.size() - 2 : 1;
  const size_t count = ds.size() - folded + 1;
  for (size_t i = 0; i < count; i++) {
    LaunchId id{.axis = static_cast<int>(count - 1 - i),
                .dims = i == 0 ? std::vector<size_t>(ds.begin(), ds.begin() + static_cast<std::ptrdiff_t>(folded))
                               : std::vector<size_t>{ds[folded + i - 1]},
                .size = 1};
    for (size_t d : id.dims) id.size *= k.dims[d].size;
    ids.push_back(std::move(id));
  }
  if (kind != LaunchKind::Global) return ids;
  // ids run from the highest axis to x: an id too large for its axis joins x, and those before it
  // move down one axis
  for (size_t i = ids.size() - 1; i-- > 0;) {
    if (ids[i].size <= target.max_groups[static_cast<size_t>(ids[i].axis)]) continue;
    LaunchId& x = ids.back();
    x.dims.insert(x.dims.begin(), ids[i].dims.begin(), ids[i].dims.end());
    x.size *= ids[i].size;
    for (size_t j = 0; j < i; j++) ids[j].axis--;
    ids.erase(ids.begin() + static_cast<std::ptrdiff_t>(i));
  }
  return ids;
}

std::array<int64_t, 3> launch_sizes(const Kernel& k, LaunchKind kind, const Target& target) {
  std::array<int64_t, 3> sizes{1, 1, 1};
  for (const LaunchId& id : launch_ids(k, kind, target)) sizes[static_cast<size_t>(id.axis)] = id.size;
  return sizes;
}

}  // namespace tr
