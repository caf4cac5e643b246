#include "syntax/text.h"

#include <fmt/format.h>

namespace polemos::syntax {

std::optional<Utf8Error> validateUtf8(std::string_view text) {
  uint32_t line = 1;
  uint32_t col = 0;
  size_t i = 0;
  const size_t n = text.size();
  while (i < n) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (c == '\n') {
        ++line;
        col = 0;
      } else {
        ++col;
      }
      ++i;
      continue;
    }
    size_t len = 0;
    char32_t cp = 0;
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
      cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      cp = c & 0x07;
    } else {
      // 0x80..0xC1 (a continuation byte or an overlong two-byte lead) or 0xF5..0xFF.
      return Utf8Error{i, c, line, col};
    }
    // A truncated sequence, or one whose continuation bytes are missing: the lead byte is the
    // first byte that cannot be read.
    for (size_t k = 1; k < len; ++k) {
      if (i + k >= n) return Utf8Error{i, c, line, col};
      const unsigned char cc = static_cast<unsigned char>(text[i + k]);
      if ((cc & 0xC0) != 0x80) return Utf8Error{i, c, line, col};
      cp = (cp << 6) | (cc & 0x3F);
    }
    // Overlong forms, surrogates and code points past U+10FFFF: the lead byte is to blame.
    if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF)) {
      return Utf8Error{i, c, line, col};
    }
    ++col;
    i += len;
  }
  return std::nullopt;
}

char32_t decodeUtf8(std::string_view text, size_t& i) {
  const unsigned char c = static_cast<unsigned char>(text[i]);
  if (c < 0x80) {
    ++i;
    return c;
  }
  size_t len = (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (len == 0 || i + len > text.size()) {
    ++i;
    return 0xFFFD;
  }
  char32_t cp = c & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
  for (size_t k = 1; k < len; ++k) {
    const unsigned char cc = static_cast<unsigned char>(text[i + k]);
    if ((cc & 0xC0) != 0x80) {
      ++i;
      return 0xFFFD;
    }
    cp = (cp << 6) | (cc & 0x3F);
  }
  i += len;
  return cp;
}

void appendUtf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

size_t codePointCount(std::string_view text) {
  size_t n = 0;
  for (char ch : text) {
    if ((static_cast<unsigned char>(ch) & 0xC0) != 0x80) ++n;
  }
  return n;
}

IntValue parseInt(std::string_view digits, bool negative) {
  // Accumulate the magnitude in an unsigned 64-bit value; the negative range is one larger.
  constexpr uint64_t kMaxPositive = static_cast<uint64_t>(INT64_MAX);
  const uint64_t limit = negative ? kMaxPositive + 1 : kMaxPositive;
  if (digits.empty()) return {};
  uint64_t v = 0;
  bool overflow = false;
  for (char ch : digits) {
    if (ch < '0' || ch > '9') return {};
    const uint64_t d = static_cast<uint64_t>(ch - '0');
    if (!overflow && v > (limit - d) / 10) overflow = true;
    if (!overflow) v = v * 10 + d;
  }
  if (overflow) return IntValue{0, true};
  if (negative) {
    return IntValue{v == kMaxPositive + 1 ? INT64_MIN : -static_cast<int64_t>(v), false};
  }
  return IntValue{static_cast<int64_t>(v), false};
}

OddsValue parseOdds(std::string_view text) {
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos) return {};
  IntValue a = parseInt(text.substr(0, colon));
  IntValue b = parseInt(text.substr(colon + 1));
  return OddsValue{a.value, b.value, a.overflow || b.overflow};
}

DiceValue parseDice(std::string_view text) {
  const size_t d = text.find('d');
  if (d == std::string_view::npos) return DiceValue{1, std::string(text), false};
  DiceValue out;
  out.die = std::string(text.substr(d));
  if (d > 0) {
    IntValue n = parseInt(text.substr(0, d));
    out.count = n.value;
    out.overflow = n.overflow;
  }
  return out;
}

Unescaped unescapeString(std::string_view text) {
  Unescaped out;
  out.value.reserve(text.size());
  size_t i = (!text.empty() && text.front() == '"') ? 1 : 0;
  size_t cpIndex = i;  // code-point offset of text[i] within `text`
  while (i < text.size()) {
    if (text[i] == '"') break;  // the closing quote
    if (text[i] != '\\' || i + 1 >= text.size()) {
      const size_t start = i;
      decodeUtf8(text, i);
      out.value.append(text.substr(start, i - start));
      ++cpIndex;
      continue;
    }
    const size_t escStart = cpIndex;
    ++i;
    const size_t start = i;
    const char32_t c = decodeUtf8(text, i);
    cpIndex += 2;
    switch (c) {
      case '"':
        out.value += '"';
        break;
      case '\\':
        out.value += '\\';
        break;
      case 'n':
        out.value += '\n';
        break;
      case 't':
        out.value += '\t';
        break;
      default:
        if (!out.badEscape) {
          out.badEscape = escStart;
          out.badEscapeChar = c;
        }
        out.value.append(text.substr(start, i - start));
        break;
    }
  }
  return out;
}

std::string codePointName(char32_t cp) {
  return fmt::format("U+{:04X}", static_cast<uint32_t>(cp));
}

std::string quoteForMessage(std::string_view text, size_t maxCodePoints) {
  std::string out = "'";
  size_t i = 0;
  size_t count = 0;
  while (i < text.size()) {
    if (count == maxCodePoints) {
      out += "...";
      break;
    }
    const size_t start = i;
    const char32_t c = decodeUtf8(text, i);
    if (c < 0x20 || c == 0x7F || (c >= 0x80 && c < 0xA0)) {
      out += c == '\n' ? "\\n" : c == '\t' ? "\\t" : codePointName(c);
    } else {
      out.append(text.substr(start, i - start));
    }
    ++count;
  }
  out += "'";
  return out;
}

std::string citationText(std::string tokenText) {
  static constexpr std::string_view kSection = "\u00A7";  // §
  if (tokenText.compare(0, kSection.size(), kSection) == 0) tokenText.erase(0, kSection.size());
  return tokenText;
}

}  // namespace polemos::syntax
