#include "harness/common/json_text.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace kbench {

using nlohmann::json;

namespace {

/// A SAX handler that accepts every value and keeps where parsing failed. nlohmann's own
/// exceptions carry no position for some errors (a number too large for a double), so a failed
/// parse is run again through this handler to find the place.
class ErrorLocator final : public nlohmann::json_sax<json> {
 public:
  std::size_t position = 0;  ///< characters read when the error was found (1-based)

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t at, const std::string&, const nlohmann::detail::exception&) override {
    position = at;
    return false;
  }
};

/// nlohmann's message without its "[json.exception.parse_error.101] parse error at line 1,
/// column 2: " prefix (the place is given separately).
std::string what_went_wrong(const std::string& what) {
  std::string text = what;
  if (const std::size_t end = text.find("] "); text.rfind("[json.exception.", 0) == 0 && end != std::string::npos) {
    text.erase(0, end + 2);
  }
  if (text.rfind("parse error", 0) == 0) {
    const std::size_t colon = text.find(": ");
    if (colon != std::string::npos) text.erase(0, colon + 2);
  }
  return text;
}

}  // namespace

json parse_json_text(const std::string& text, const std::string& file) {
  try {
    return json::parse(text);
  } catch (const json::exception& e) {
    ErrorLocator locator;
    json::sax_parse(text, &locator);
    // The place of the last character read (the end of the text for a truncated document).
    const std::size_t index = std::min(std::max<std::size_t>(locator.position, 1) - 1, text.size());
    const std::size_t line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + index, '\n'));
    const std::size_t newline = index == 0 ? std::string::npos : text.rfind('\n', index - 1);
    const std::size_t column = newline == std::string::npos ? index + 1 : index - newline;
    std::string message = what_went_wrong(e.what());
    if (text.compare(index, 3, "NaN") == 0 || text.compare(index, 8, "Infinity") == 0) {
      message += " (NaN and Infinity are not JSON numbers)";
    }
    throw InputError(file + ": not valid JSON at line " + std::to_string(line) + ", column " + std::to_string(column) +
                     ": " + message);
  }
}

json read_json_file(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) throw InputError(path + ": is a folder; expected a JSON file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open for reading");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(path + ": cannot read the file");
  return parse_json_text(text.str(), path);
}

}  // namespace kbench
