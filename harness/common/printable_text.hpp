#pragma once
/// Input text made safe to echo in a message: a file name or a JSON string value may hold
/// control characters (a newline that forges a second message line, an escape sequence that
/// rewrites the terminal). Host-only.

#include <string>
#include <string_view>

namespace kbench {

/// `text` with every control character written as an escape: \n, \t, \r, \e, other C0 bytes and
/// DEL as \xHH, the C1 controls U+0080..U+009F (UTF-8 C2 80..C2 9F) as \u00HH. Everything else,
/// including other UTF-8, is kept; printable text comes back unchanged.
std::string printable(std::string_view text);

}  // namespace kbench
