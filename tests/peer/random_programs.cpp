// Writes the random programs FIRST..LAST of tests/random_program.h, made only of values tinygrad 0.14
// defines, as DIR/random_SEED.tg: the peer check runs each under tinyrepl and under tinygrad.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "devices/registry.h"
#include "tests/random_program.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s FIRST LAST DIR\n", argv[0]);
    return 2;
  }
  tr::register_devices();
  const std::filesystem::path dir = argv[3];
  std::filesystem::create_directories(dir);
  for (int seed = std::atoi(argv[1]); seed <= std::atoi(argv[2]); seed++) {
    tr::testing::Generator gen(seed, "CPU", tr::testing::Values::DefinedByTinygrad);
    gen.build();
    std::ofstream(dir / fmt::format("random_{}.tg", seed)) << fmt::format("# random program {}\n", seed) << gen.text();
  }
  return 0;
}
