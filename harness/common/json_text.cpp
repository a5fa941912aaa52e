#include "harness/common/json_text.hpp"

#include "harness/common/printable_text.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <vector>

namespace kbench {

using nlohmann::json;

namespace {

/// Builds the document as nlohmann's own DOM parser does, and checks what that parser lets
/// through: a key given twice in one object (nlohmann keeps the last one silently) and nesting
/// deeper than kMaxJsonDepth. It keeps where parsing failed, for the message: nlohmann's own
/// exceptions carry no position for some errors (a number too large for a double).
class CheckedDomBuilder {
 public:
  using number_integer_t = json::number_integer_t;
  using number_unsigned_t = json::number_unsigned_t;
  using number_float_t = json::number_float_t;
  using string_t = json::string_t;
  using binary_t = json::binary_t;

  explicit CheckedDomBuilder(json& root) : dom_(root, /*allow_exceptions=*/false) {}

  std::size_t error_position = 0;  ///< characters read when a syntax error was found (1-based)
  std::string error_what;          ///< nlohmann's message for it
  std::string problem;             ///< a duplicate key or a nesting too deep: "$.a: key 'b' appears twice ..."

  bool null() { return value_done(dom_.null()); }
  bool boolean(bool v) { return value_done(dom_.boolean(v)); }
  bool number_integer(number_integer_t v) { return value_done(dom_.number_integer(v)); }
  bool number_unsigned(number_unsigned_t v) { return value_done(dom_.number_unsigned(v)); }
  bool number_float(number_float_t v, const string_t& s) { return value_done(dom_.number_float(v, s)); }
  bool string(string_t& v) { return value_done(dom_.string(v)); }
  bool binary(binary_t& v) { return value_done(dom_.binary(v)); }
  bool start_object(std::size_t n) { return open(true) && dom_.start_object(n); }
  bool start_array(std::size_t n) { return open(false) && dom_.start_array(n); }
  bool end_object() { return close(dom_.end_object()); }
  bool end_array() { return close(dom_.end_array()); }
  bool key(string_t& k) {
    Frame& frame = frames_.back();
    if (!frame.keys.insert(k).second) {
      problem = path(frames_.size() - 1) + ": key '" + printable(k) + "' appears twice in one object";
      return false;
    }
    frame.key = k;
    return dom_.key(k);
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) {
    error_position = position;
    error_what = e.what();
    return false;
  }

 private:
  struct Frame {
    bool object = false;
    std::string key;          ///< the member being read (objects)
    std::size_t index = 0;    ///< the element being read (arrays)
    std::set<std::string> keys;
  };

  /// "$.sweeps[0]": where the value being read sits (`levels` = frames_.size()), or the object
  /// being read (`levels` = frames_.size() - 1).
  std::string path(std::size_t levels) const {
    std::string text = "$";
    for (std::size_t i = 0; i < levels; ++i) {
      const Frame& frame = frames_[i];
      text += frame.object ? "." + printable(frame.key) : "[" + std::to_string(frame.index) + "]";
    }
    return text;
  }
  bool open(bool object) {
    if (frames_.size() >= kMaxJsonDepth) {
      problem = path(frames_.size()) + ": arrays and objects nest deeper than " + std::to_string(kMaxJsonDepth) + " levels";
      return false;
    }
    Frame frame;
    frame.object = object;
    frames_.push_back(std::move(frame));
    return true;
  }
  bool close(bool ok) {
    frames_.pop_back();
    return value_done(ok);
  }
  bool value_done(bool ok) {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
    return ok;
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  std::vector<Frame> frames_;
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

/// What kind of file `mode` is, for "is not a regular file (a FIFO)".
std::string file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

/// Closes a file descriptor on every path out.
struct FileDescriptor {
  int fd = -1;
  ~FileDescriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string format_byte_limit(std::uintmax_t bytes) {
  if (bytes % (1ull << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes % (1ull << 10) == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}

json parse_json_text(const std::string& text, const std::string& file) {
  json document;
  CheckedDomBuilder builder(document);
  // nlohmann's lexer takes a NUL byte for the end of the input and ignores what follows it; JSON
  // text holds none (one inside a string must be written \u0000), so the first one is the error.
  const std::size_t nul = text.find('\0');
  bool ok = false;
  if (nul == std::string::npos) {
    try {
      ok = json::sax_parse(text, &builder);
    } catch (const json::exception& e) {  // "excessive array size" and the like
      builder.error_what = e.what();
    }
  } else {
    builder.error_position = nul + 1;
    builder.error_what = "a NUL byte (JSON text holds none; in a string it is written \\u0000)";
  }
  if (ok) return document;
  const std::string name = printable(file);
  if (!builder.problem.empty()) throw InputError(name + ": " + builder.problem);
  // The place of the last character read (the end of the text for a truncated document).
  const std::size_t index = std::min(std::max<std::size_t>(builder.error_position, 1) - 1, text.size());
  const std::size_t line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + index, '\n'));
  const std::size_t newline = index == 0 ? std::string::npos : text.rfind('\n', index - 1);
  const std::size_t column = newline == std::string::npos ? index + 1 : index - newline;
  std::string message = printable(what_went_wrong(builder.error_what));
  if (text.compare(index, 3, "NaN") == 0 || text.compare(index, 8, "Infinity") == 0) {
    message += " (NaN and Infinity are not JSON numbers)";
  }
  throw InputError(name + ": not valid JSON at line " + std::to_string(line) + ", column " + std::to_string(column) +
                   ": " + message);
}

json read_json_file(const std::string& path, std::uintmax_t max_bytes) {
  const std::string name = printable(path);
  const std::string limit = format_byte_limit(max_bytes);
  // Checked before opening: opening a FIFO for reading would wait for a writer.
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) throw InputError(name + ": cannot open for reading");
    throw InputError(name + ": cannot open for reading (" + std::strerror(errno) + ")");
  }
  if (S_ISDIR(info.st_mode)) throw InputError(name + ": is a folder; expected a JSON file");
  if (!S_ISREG(info.st_mode)) throw InputError(name + ": is " + file_kind(info.st_mode) + ", not a regular file; expected a JSON file");
  if (static_cast<std::uintmax_t>(info.st_size) > max_bytes) {
    throw InputError(name + ": is " + std::to_string(info.st_size) + " bytes, more than the " + limit +
                     " kbench reads from such a file");
  }
  // O_NONBLOCK and the second check: the path may have been replaced since stat().
  FileDescriptor file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (file.fd < 0) throw InputError(name + ": cannot open for reading (" + std::strerror(errno) + ")");
  if (::fstat(file.fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    throw InputError(name + ": is not a regular file; expected a JSON file");
  }
  // Read at most one byte past the limit: a file that grows while read is refused, not followed.
  std::string text;
  std::vector<char> buffer(1 << 16);
  for (;;) {
    const ssize_t got = ::read(file.fd, buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw InputError(name + ": cannot read the file (" + std::strerror(errno) + ")");
    if (got == 0) break;
    text.append(buffer.data(), static_cast<std::size_t>(got));
    if (text.size() > max_bytes) throw InputError(name + ": grew past the " + limit + " kbench reads from such a file");
  }
  return parse_json_text(text, path);
}

}  // namespace kbench
