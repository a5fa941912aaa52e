#pragma once
/// The version of kbench's plugin API. A plugin records the version it was built against
/// (KBENCH_PLUGIN does this); kbench refuses a plugin of another version, naming both.
///
/// Bump on any change to a public header that alters a struct's layout or a function's meaning.

#define KBENCH_API_VERSION 1
