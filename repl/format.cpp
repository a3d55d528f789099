#include "repl/format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "repl/float_text.h"

namespace tr::repl {
namespace {

// numpy's print options, at their defaults.
constexpr int kLineWidth = 75;
constexpr int64_t kThreshold = 1000;
constexpr int64_t kEdgeItems = 3;
constexpr int kPrecision = 8;  // the most fractional digits numpy shows (floatmode "maxprec")

int as_size(size_t n) { return static_cast<int>(n); }

// dragon4_positional as numpy calls it: unique digits, at most kPrecision after the point.
PositionalParts numpy_positional(double v, DType t) {
  const Decimal d = shortest_decimal(v, t);
  PositionalParts p = positional_parts(d);
  if (p.frac_part.size() > kPrecision) p = positional_parts(rounded_decimal(v, d.exponent + 1 + kPrecision));
  if (d.negative) p.int_part.insert(0, "-");
  return p;
}

struct ScientificParts {
  std::string int_part, frac_part;
  int exponent;
};

// dragon4_scientific as numpy calls it: unique digits, at most kPrecision after the point, and at
// least min_frac of them, the extra ones being the value's exact digits rather than zeros.
ScientificParts numpy_scientific(double v, DType t, int min_frac = 0) {
  Decimal d = shortest_decimal(v, t);
  if (d.digits.size() > kPrecision + 1) d = rounded_decimal(v, kPrecision + 1);
  if (as_size(d.digits.size()) < min_frac + 1) d = rounded_decimal(v, min_frac + 1);
  return {(d.negative ? "-" : "") + d.digits.substr(0, 1), d.digits.substr(1), d.exponent};
}

int exponent_digits(int e) { return std::max(2, as_size(fmt::format("{}", std::abs(e)).size())); }

// numpy's FloatingFormat: one layout for every element shown, chosen from all of them.
class FloatFormat {
 public:
  FloatFormat(DType t, const std::vector<double>& shown) : t_(t) {
    std::vector<double> finite;
    for (double v : shown) {
      if (std::isfinite(v)) finite.push_back(v);
    }
    choose_notation(finite);
    for (double v : finite) {
      if (scientific_) {
        const ScientificParts p = numpy_scientific(v, t_);
        pad_left_ = std::max(pad_left_, as_size(p.int_part.size()));
        precision_ = std::max(precision_, as_size(p.frac_part.size()));
        exp_digits_ = std::max(exp_digits_, exponent_digits(p.exponent));
        pad_right_ = exp_digits_ + 2 + precision_;
      } else {
        const PositionalParts p = numpy_positional(v, t_);
        pad_left_ = std::max(pad_left_, as_size(p.int_part.size()));
        pad_right_ = std::max(pad_right_, as_size(p.frac_part.size()));
      }
    }
    if (finite.size() != shown.size()) {  // room for "nan", "inf" and "-inf"
      const bool neg_inf = std::any_of(shown.begin(), shown.end(), [](double v) { return std::isinf(v) && v < 0; });
      pad_left_ = std::max({pad_left_, 3 - (pad_right_ + 1), 3 + neg_inf - (pad_right_ + 1)});
    }
  }

  std::string operator()(double v) const {
    if (!std::isfinite(v)) {
      const std::string_view text = std::isnan(v) ? "nan" : v < 0 ? "-inf" : "inf";
      return fmt::format("{:>{}}", text, pad_left_ + pad_right_ + 1);
    }
    if (scientific_) {
      const ScientificParts p = numpy_scientific(v, t_, precision_);
      return fmt::format("{:>{}}.{:0<{}}e{}{:0{}d}", p.int_part, pad_left_, p.frac_part, precision_,
                         p.exponent < 0 ? '-' : '+', std::abs(p.exponent), exp_digits_);
    }
    const PositionalParts p = numpy_positional(v, t_);
    return fmt::format("{:>{}}.{:<{}}", p.int_part, pad_left_, p.frac_part, pad_right_);
  }

 private:
  // numpy's rule, with its thresholds read at the dtype's precision as numpy 2 compares them; the
  // upper one is 1e3 for half, 1e6 for float and 1e8 for double (10 to the dtype's decimal precision).
  void choose_notation(const std::vector<double>& finite) {
    double lo = INFINITY, hi = 0;
    for (double v : finite) {
      if (v == 0) continue;
      lo = std::min(lo, std::fabs(v));
      hi = std::max(hi, std::fabs(v));
    }
    if (hi == 0) return;
    const double upper = t_ == DType::Float16 ? 1e3 : t_ == DType::Float32 ? 1e6 : 1e8;
    scientific_ = hi >= upper || lo < round_to(t_, 1e-4) || round_to(t_, hi / lo) > 1000.0;
  }

  DType t_;
  bool scientific_ = false;
  int pad_left_ = 0, pad_right_ = 0, precision_ = 0, exp_digits_ = 0;
};

using ElementFormat = std::function<std::string(const ConstValue&)>;

ElementFormat element_format(DType t, const std::vector<ConstValue>& shown) {
  if (t == DType::Bool) {
    // " True" lines up with "False"
    return [](const ConstValue& v) { return as_int(v) ? std::string(" True") : std::string("False"); };
  }
  if (is_float(t)) {
    std::vector<double> doubles;
    for (const ConstValue& v : shown) doubles.push_back(as_double(v));
    return [f = FloatFormat(numpy_float(t), doubles)](const ConstValue& v) { return f(as_double(v)); };
  }
  int width = 0;
  const auto text = [t](const ConstValue& v) { return format_scalar(v, t); };
  for (const ConstValue& v : shown) width = std::max(width, as_size(text(v).size()));
  return [width, text](const ConstValue& v) { return fmt::format("{:>{}}", text(v), width); };
}

// numpy's _formatArray: nested brackets with a hanging indent, rows wrapped at the line width.
class ArrayLayout {
 public:
  explicit ArrayLayout(const HostArray& a)
      : a_(a), strides_(contiguous_strides(a.shape)), summarize_(prod(a.shape) > kThreshold) {
    std::vector<ConstValue> shown;
    collect_shown(0, 0, shown);
    format_ = element_format(a.dtype, shown);
  }

  std::string text() const { return nest(0, 0, " ", kLineWidth); }

 private:
  bool summarized(size_t axis) const { return summarize_ && 2 * kEdgeItems < a_.shape[axis]; }

  // The indices along an axis that are printed: all, or the edge items around "...".
  std::vector<int64_t> shown_indices(size_t axis) const {
    const int64_t n = a_.shape[axis];
    std::vector<int64_t> out;
    for (int64_t i = 0; i < n; i++) {
      if (!summarized(axis) || i < kEdgeItems || i >= n - kEdgeItems) out.push_back(i);
    }
    return out;
  }

  void collect_shown(size_t axis, int64_t offset, std::vector<ConstValue>& out) const {
    if (axis == a_.shape.size()) {
      out.push_back(a_.values[static_cast<size_t>(offset)]);
      return;
    }
    for (int64_t i : shown_indices(axis)) collect_shown(axis + 1, offset + i * strides_[axis], out);
  }

  // numpy's _extendLine: wrap before a word that would pass the width, unless the line holds nothing yet.
  static void extend_line(std::string& s, std::string& line, const std::string& word, int width,
                          const std::string& indent) {
    if (as_size(line.size() + word.size()) > width && line.size() > indent.size()) {
      s += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
      line = indent;
    }
    line += word;
  }

  std::string nest(size_t axis, int64_t offset, const std::string& indent, int width) const {
    if (axis == a_.shape.size()) return format_(a_.values[static_cast<size_t>(offset)]);
    const std::vector<int64_t> indices = shown_indices(axis);
    const bool summary = summarized(axis);
    const auto child = [&](int64_t i) { return nest(axis + 1, offset + i * strides_[axis], indent + " ", width - 1); };
    std::string s;
    if (axis + 1 == a_.shape.size()) {
      std::string line = indent;
      for (size_t k = 0; k < indices.size(); k++) {
        if (summary && k == static_cast<size_t>(kEdgeItems)) {
          extend_line(s, line, "...", width - 1, indent);
          line += " ";
        }
        extend_line(s, line, child(indices[k]), width - 1, indent);
        if (k + 1 < indices.size()) line += " ";
      }
      s += line;
    } else {
      const std::string separator(a_.shape.size() - axis - 1, '\n');
      for (size_t k = 0; k < indices.size(); k++) {
        if (summary && k == static_cast<size_t>(kEdgeItems)) s += indent + "..." + separator;
        s += indent + child(indices[k]) + (k + 1 < indices.size() ? separator : "");
      }
    }
    return "[" + s.substr(indent.size()) + "]";
  }

  const HostArray& a_;
  Shape strides_;
  bool summarize_;
  ElementFormat format_;
};

}  // namespace

std::string format_scalar(const ConstValue& v, DType t) {
  if (t == DType::Bool) return as_int(v) ? "True" : "False";
  if (is_float(t)) return python_float(as_double(v), numpy_float(t));
  // a uint64 holds its value in the int64's bits
  return t == DType::UInt64 ? fmt::format("{}", static_cast<uint64_t>(as_int(v))) : fmt::format("{}", as_int(v));
}

std::string format_array(const HostArray& a) {
  if (a.shape.empty()) return format_scalar(a.values.at(0), a.dtype);
  if (prod(a.shape) == 0) return "[]";
  return ArrayLayout(a).text();
}

}  // namespace tr::repl
