// tinyrepl: see program.h; usage in cli.cpp.
#include <unistd.h>

#include <iostream>
#include <string>
#include <vector>

#include "devices/registry.h"
#include "repl/app/ctrl_c.h"
#include "repl/app/program.h"

int main(int argc, char** argv) {
  tr::register_devices();
  tr::repl::catch_ctrl_c();
  const std::vector<std::string> args(argv + 1, argv + argc);
  return tr::repl::run_program(args, std::cin, std::cout, std::cerr, isatty(STDIN_FILENO) != 0);
}
