#include "harness/isolate/shared_heartbeat.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>
#include <stdexcept>

namespace kbench {

namespace {

HeartbeatSlot* map_slot(const std::string& path, bool create) {
  const int fd = ::open(path.c_str(), create ? O_RDWR | O_CREAT | O_TRUNC : O_RDWR, 0600);
  if (fd < 0) throw std::runtime_error("heartbeat file '" + path + "': " + std::strerror(errno));
  if (create && ::ftruncate(fd, sizeof(HeartbeatSlot)) != 0) {
    const int error = errno;
    ::close(fd);
    throw std::runtime_error("heartbeat file '" + path + "': " + std::strerror(error));
  }
  void* memory = ::mmap(nullptr, sizeof(HeartbeatSlot), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  const int error = errno;
  ::close(fd);  // the mapping stays valid
  if (memory == MAP_FAILED) throw std::runtime_error("heartbeat file '" + path + "': " + std::strerror(error));
  // The file is zeroed by ftruncate; the creator constructs the slot once, the worker uses it.
  return create ? new (memory) HeartbeatSlot() : static_cast<HeartbeatSlot*>(memory);
}

}  // namespace

SharedHeartbeat SharedHeartbeat::create(const std::string& path) { return SharedHeartbeat(map_slot(path, true)); }

SharedHeartbeat SharedHeartbeat::open(const std::string& path) { return SharedHeartbeat(map_slot(path, false)); }

SharedHeartbeat::SharedHeartbeat(SharedHeartbeat&& other) noexcept : slot_(other.slot_) { other.slot_ = nullptr; }

SharedHeartbeat::~SharedHeartbeat() {
  if (slot_ != nullptr) ::munmap(slot_, sizeof(HeartbeatSlot));
}

}  // namespace kbench
