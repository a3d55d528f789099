#pragma once
// BEAM's choices kept between runs, so that a second run of a kernel searches nothing and always gets
// the same opts. The engine does no I/O: the program installs a store (register_devices installs the
// on-disk cache's); without one a choice lasts for the process, in a bounded table.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/opt/opt.h"

namespace tr {

struct ChoiceStore {
  std::function<std::optional<std::string>(const std::string& key)> find;
  std::function<void(const std::string& key, const std::string& text)> keep;
};

void install_choice_store(ChoiceStore store);

// The opts kept for this key; nullopt when none are, or when the kept text does not read as opts.
std::optional<std::vector<Opt>> kept_opts(const std::string& key);
void keep_opts(const std::string& key, const std::vector<Opt>& opts);

// One opt per line, "UPCAST 0 4", and back: what the store holds.
std::string opts_text(const std::vector<Opt>& opts);
std::optional<std::vector<Opt>> read_opts(const std::string& text);

}  // namespace tr
