#pragma once
// A table of the one live object of each distinct node, shared by the lazy graph and the kernel AST.
// Entries hold weak pointers, so a node dies with its last user; expired entries are swept once the
// table has doubled, so it holds what is alive and little more.
#include <algorithm>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace tr {

template <typename Node>
class InternTable {
 public:
  // The live node with this hash for which same(node) holds, else the one make() returns, remembered.
  template <typename Same, typename Make>
  std::shared_ptr<Node> find_or_make(size_t hash, const Same& same, const Make& make) {
    const std::lock_guard lock(mutex_);
    const auto [begin, end] = table_.equal_range(hash);
    for (auto it = begin; it != end; ++it)
      if (std::shared_ptr<Node> live = it->second.lock(); live && same(*live)) return live;
    std::shared_ptr<Node> made = make();
    table_.emplace(hash, made);
    if (table_.size() >= sweep_at_) {
      std::erase_if(table_, [](const auto& entry) { return entry.second.expired(); });
      sweep_at_ = std::max<size_t>(kMinSweep, 2 * table_.size());
    }
    return made;
  }

 private:
  static constexpr size_t kMinSweep = 1024;
  std::mutex mutex_;
  std::unordered_multimap<size_t, std::weak_ptr<Node>> table_;
  size_t sweep_at_ = kMinSweep;
};

}  // namespace tr
