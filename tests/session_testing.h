#pragma once
// A session under test: run a program (as if from a file), show an expression's value as the REPL
// would, and catch the error a program ends with.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "repl/parser.h"
#include "repl/session.h"
#include "repl/source_error.h"
#include "repl/value_format.h"

namespace tr::repl::testing {

class SessionTest : public ::testing::Test {
 protected:
  void run(std::string_view src, const std::string& file = "f.tg") {
    const SourceRef source = std::make_shared<const SourceText>(SourceText{file, std::string(src)});
    for (const Stmt& s : parse_program(src)) session.execute(s, source);
  }
  std::string repr(std::string_view expr) { return repr_value(session.evaluate(*parse_expression(expr))); }

  SourceError error(std::string_view src) {
    try {
      run(src);
    } catch (const SourceError& e) {
      return e;
    }
    ADD_FAILURE() << "no error from: " << src;
    return SourceError("", "", {});
  }

  std::vector<std::string> printed;
  Session session{[this](const PrintEvent& e) { printed.push_back(e.text); }};
};

}  // namespace tr::repl::testing
