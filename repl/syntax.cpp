#include "repl/syntax.h"

#include <fmt/format.h>

#include <type_traits>

namespace tr::repl {

std::string_view spelling(UnaryOp op) {
  switch (op) {
    case UnaryOp::Neg: return "-";
    case UnaryOp::Pos: return "+";
    case UnaryOp::Not: return "not";
    case UnaryOp::Invert: return "~";
  }
  return "?";
}

std::string_view spelling(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add: return "+";
    case BinaryOp::Sub: return "-";
    case BinaryOp::Mul: return "*";
    case BinaryOp::Div: return "/";
    case BinaryOp::FloorDiv: return "//";
    case BinaryOp::Mod: return "%";
    case BinaryOp::MatMul: return "@";
    case BinaryOp::Pow: return "**";
    case BinaryOp::BitAnd: return "&";
    case BinaryOp::BitOr: return "|";
    case BinaryOp::BitXor: return "^";
    case BinaryOp::LShift: return "<<";
    case BinaryOp::RShift: return ">>";
  }
  return "?";
}

std::string_view spelling(CompareOp op) {
  switch (op) {
    case CompareOp::Lt: return "<";
    case CompareOp::Le: return "<=";
    case CompareOp::Gt: return ">";
    case CompareOp::Ge: return ">=";
    case CompareOp::Eq: return "==";
    case CompareOp::Ne: return "!=";
    case CompareOp::Is: return "is";
    case CompareOp::IsNot: return "is not";
    case CompareOp::In: return "in";
    case CompareOp::NotIn: return "not in";
  }
  return "?";
}

std::string_view spelling(LogicOp op) { return op == LogicOp::And ? "and" : "or"; }

namespace {

std::string literal_sexpr(const Literal& lit) {
  struct {
    std::string operator()(NoneLiteral) const { return "None"; }
    std::string operator()(bool b) const { return b ? "True" : "False"; }
    std::string operator()(int64_t i) const { return fmt::format("{}", i); }
    std::string operator()(double d) const {
      const std::string s = fmt::format("{}", d);
      // keeps a whole float distinguishable from an int in a dump
      return s.find_first_of(".en") == std::string::npos ? s + ".0" : s;
    }
    std::string operator()(const std::string& s) const { return fmt::format("{:?}", s); }
  } visitor;
  return std::visit(visitor, lit.value);
}

std::string join(const std::vector<ExprRef>& items) {
  std::string out;
  for (const ExprRef& e : items) out += " " + (e ? to_sexpr(*e) : "_");
  return out;
}

}  // namespace

std::vector<const Expr*> children(const Expr& e) {
  std::vector<const Expr*> out;
  const auto add = [&](const ExprRef& c) {
    if (c) out.push_back(c.get());
  };
  const auto add_all = [&](const std::vector<ExprRef>& cs) {
    for (const ExprRef& c : cs) add(c);
  };
  std::visit(
      [&](const auto& n) {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, Unary>) add(n.operand);
        if constexpr (std::is_same_v<T, Binary> || std::is_same_v<T, Logic>) add(n.lhs), add(n.rhs);
        if constexpr (std::is_same_v<T, Comparison>) {
          add(n.first);
          for (const CompareLink& l : n.links) add(l.rhs);
        }
        if constexpr (std::is_same_v<T, Call>) {
          add(n.callee);
          add_all(n.args);
          for (const KeywordArg& k : n.keywords) add(k.value);
        }
        if constexpr (std::is_same_v<T, Attribute>) add(n.object);
        if constexpr (std::is_same_v<T, Subscript>) add(n.object), add_all(n.indices);
        if constexpr (std::is_same_v<T, SliceExpr>) add(n.start), add(n.stop), add(n.step);
        if constexpr (std::is_same_v<T, ListExpr> || std::is_same_v<T, TupleExpr>) add_all(n.items);
        if constexpr (std::is_same_v<T, Starred>) add(n.value);
        if constexpr (std::is_same_v<T, Help>) add(n.target);
        if constexpr (std::is_same_v<T, DictExpr>)
          for (const DictEntry& d : n.entries) add(d.key), add(d.value);
        if constexpr (std::is_same_v<T, IfExpr>) add(n.test), add(n.body), add(n.orelse);
        if constexpr (std::is_same_v<T, Comprehension>) {
          add(n.element);
          for (const CompFor& c : n.clauses) {
            add(c.target);
            add(c.iterable);
            add_all(c.conditions);
          }
        }
      },
      e.node);
  return out;
}

namespace {

// "(a b=2 *rest c **kw)"
std::string params_sexpr(const Def& d) {
  std::string out;
  for (const DefParam& p : d.params) {
    out += out.empty() ? "" : " ";
    if (p.kind == DefParamKind::VarArgs) out += "*";
    if (p.kind == DefParamKind::VarKeywords) out += "**";
    out += p.name;
    if (p.default_value) out += "=" + to_sexpr(*p.default_value);
  }
  return "(" + out + ")";
}

}  // namespace

std::string to_sexpr(const Expr& e) {
  struct Printer {
    std::string operator()(const Literal& n) const { return literal_sexpr(n); }
    std::string operator()(const EllipsisLiteral&) const { return "..."; }
    std::string operator()(const Name& n) const { return n.id; }
    std::string operator()(const Unary& n) const {
      return fmt::format("({} {})", spelling(n.op), to_sexpr(*n.operand));
    }
    std::string operator()(const Binary& n) const {
      return fmt::format("({} {} {})", spelling(n.op), to_sexpr(*n.lhs), to_sexpr(*n.rhs));
    }
    std::string operator()(const Logic& n) const {
      return fmt::format("({} {} {})", spelling(n.op), to_sexpr(*n.lhs), to_sexpr(*n.rhs));
    }
    std::string operator()(const Comparison& n) const {
      if (n.links.size() == 1) {
        return fmt::format("({} {} {})", spelling(n.links[0].op), to_sexpr(*n.first), to_sexpr(*n.links[0].rhs));
      }
      std::string out = "(chain " + to_sexpr(*n.first);
      for (const CompareLink& l : n.links) out += fmt::format(" {} {}", spelling(l.op), to_sexpr(*l.rhs));
      return out + ")";
    }
    std::string operator()(const Call& n) const {
      std::string out = "(call " + to_sexpr(*n.callee) + join(n.args);
      for (const KeywordArg& k : n.keywords) {
        out += k.name.empty() ? " **" + to_sexpr(*k.value) : fmt::format(" {}={}", k.name, to_sexpr(*k.value));
      }
      return out + ")";
    }
    std::string operator()(const Starred& n) const { return "*" + to_sexpr(*n.value); }
    std::string operator()(const DictExpr& n) const {
      std::string out = "(dict";
      for (const DictEntry& d : n.entries) out += fmt::format(" {}:{}", to_sexpr(*d.key), to_sexpr(*d.value));
      return out + ")";
    }
    std::string operator()(const IfExpr& n) const {
      return fmt::format("(if {} {} {})", to_sexpr(*n.test), to_sexpr(*n.body), to_sexpr(*n.orelse));
    }
    std::string operator()(const Comprehension& n) const {
      std::string out = fmt::format("({} {}", n.kind == CompKind::List ? "listcomp" : "tuplecomp", to_sexpr(*n.element));
      for (const CompFor& c : n.clauses) {
        out += fmt::format(" for {} {}", to_sexpr(*c.target), to_sexpr(*c.iterable));
        for (const ExprRef& e : c.conditions) out += " if " + to_sexpr(*e);
      }
      return out + ")";
    }
    std::string operator()(const Lambda& n) const {
      const Return& r = std::get<Return>((*n.def->body)[0].node);
      return fmt::format("(lambda {} {})", params_sexpr(*n.def), to_sexpr(*r.value));
    }
    std::string operator()(const Help& n) const { return fmt::format("(? {})", to_sexpr(*n.target)); }
    std::string operator()(const Attribute& n) const { return fmt::format("(. {} {})", to_sexpr(*n.object), n.name); }
    std::string operator()(const Subscript& n) const {
      return fmt::format("([] {}{})", to_sexpr(*n.object), join(n.indices));
    }
    std::string operator()(const SliceExpr& n) const { return fmt::format("(:{})", join({n.start, n.stop, n.step})); }
    std::string operator()(const ListExpr& n) const { return fmt::format("(list{})", join(n.items)); }
    std::string operator()(const TupleExpr& n) const { return fmt::format("(tuple{})", join(n.items)); }
  } visitor;
  return std::visit(visitor, e.node);
}

namespace {

std::string block_sexpr(const Block& b) {
  std::string out;
  for (const Stmt& s : *b) out += (out.empty() ? "" : "; ") + to_sexpr(s);
  return "{" + out + "}";
}

}  // namespace

Span text_start(const Stmt& s) {
  const auto* def = std::get_if<std::shared_ptr<const Def>>(&s.node);
  return def ? (*def)->start : s.span;
}

std::string to_sexpr(const Stmt& s) {
  struct {
    std::string operator()(const Assign& n) const {
      std::string out = "(=";
      for (const ExprRef& t : n.targets) out += " " + to_sexpr(*t);
      return out + " " + to_sexpr(*n.value) + ")";
    }
    std::string operator()(const AugAssign& n) const {
      return fmt::format("({}= {} {})", spelling(n.op), to_sexpr(*n.target), to_sexpr(*n.value));
    }
    std::string operator()(const If& n) const {
      std::string out = "(if";
      for (const IfBranch& b : n.branches) out += " " + to_sexpr(*b.test) + " " + block_sexpr(b.body);
      if (n.else_body) out += " else " + block_sexpr(n.else_body);
      return out + ")";
    }
    std::string operator()(const While& n) const {
      return fmt::format("(while {} {})", to_sexpr(*n.test), block_sexpr(n.body));
    }
    std::string operator()(const For& n) const {
      return fmt::format("(for {} {} {})", to_sexpr(*n.target), to_sexpr(*n.iterable), block_sexpr(n.body));
    }
    std::string operator()(const std::shared_ptr<const Def>& n) const {
      std::string out = "(def";
      for (const ExprRef& d : n->decorators) out += " @" + to_sexpr(*d);
      return out + " " + n->name + " " + params_sexpr(*n) + " " + block_sexpr(n->body) + ")";
    }
    std::string operator()(const Declare& n) const {
      std::string out = n.kind == Declaration::Global ? "(global" : "(nonlocal";
      for (const std::string& name : n.names) out += " " + name;
      return out + ")";
    }
    std::string operator()(const With& n) const {
      return fmt::format("(with {}{} {})", to_sexpr(*n.context), n.target ? " as " + to_sexpr(*n.target) : "",
                         block_sexpr(n.body));
    }
    std::string operator()(const Return& n) const { return n.value ? "(return " + to_sexpr(*n.value) + ")" : "(return)"; }
    std::string operator()(const Break&) const { return "(break)"; }
    std::string operator()(const Continue&) const { return "(continue)"; }
    std::string operator()(const Pass&) const { return "(pass)"; }
    std::string operator()(const ExprStmt& n) const { return to_sexpr(*n.expr); }
    std::string operator()(const Assert& n) const {
      return fmt::format("(assert {}{})", to_sexpr(*n.test), n.message ? " " + to_sexpr(*n.message) : "");
    }
    std::string operator()(const Meta& n) const {
      std::string out = "(meta " + n.name;
      for (const std::string& a : n.args) out += " " + a;
      return out + ")";
    }
  } visitor;
  return std::visit(visitor, s.node);
}

}  // namespace tr::repl
