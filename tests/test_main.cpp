// Every suite runs with the devices registered, as the program does.
#include <gtest/gtest.h>

#include "devices/registry.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  tr::register_devices();
  return RUN_ALL_TESTS();
}
