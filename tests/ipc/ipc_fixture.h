// What the multi-process test binaries of tests/ipc share: a private
// shared-memory directory per test process (SIMNPU_SHM_DIR, removed at
// exit), a fixture that opens device 0 in it, and small helpers (device
// bytes, the text form of an IPC event handle that ipc_peer reads, the
// recent error message).
//
// gtest_discover_tests runs every case in its own process, so one directory
// per process is one directory per case: no case sees another's registry,
// and a case that corrupts its registry on purpose harms nobody.
#ifndef SIMNPU_TESTS_IPC_IPC_FIXTURE_H_
#define SIMNPU_TESTS_IPC_IPC_FIXTURE_H_

#include <dirent.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "acl/acl.h"

namespace simnpu_test {

// This process's shared-memory directory (empty until UsePrivateShmDir).
inline std::string& IpcShmDir() {
  static std::string dir;
  return dir;
}

// Unlinks everything in the directory and the directory. Registered after
// the runtime's own exit handlers, so it runs after them.
inline void RemoveIpcShmDirAtExit() {
  const std::string& dir = IpcShmDir();
  if (dir.empty()) return;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string n = e->d_name;
      if (n != "." && n != "..") unlink((dir + "/" + n).c_str());
    }
    closedir(d);
  }
  rmdir(dir.c_str());
}

// Points SIMNPU_SHM_DIR at /dev/shm/<prefix>-<uid>-<pid>; call it before the
// runtime (or the registry) first reads the variable.
inline void UsePrivateShmDir(const char* prefix = "simnpu-test") {
  IpcShmDir() = std::string("/dev/shm/") + prefix + "-" + std::to_string(getuid()) + "-" + std::to_string(getpid());
  setenv("SIMNPU_SHM_DIR", IpcShmDir().c_str(), 1);
  static bool hooked = false;
  if (!hooked) {
    hooked = true;
    std::atexit(RemoveIpcShmDirAtExit);
  }
}

inline std::string TakeMsg() {
  const char* m = aclGetRecentErrMsg();
  return m ? m : "";
}

// The first 8 bytes of an IPC event handle as 16 hex digits (what ipc_peer reads).
inline std::string EventHandleHex(const aclrtIpcEventHandle& h) {
  std::string s;
  char b[4];
  for (int i = 0; i < 8; ++i) {
    std::snprintf(b, sizeof b, "%02x", static_cast<unsigned char>(h.reserved[i]));
    s += b;
  }
  return s;
}

// Device memory of `size` bytes, every byte `byte`.
inline void* AllocFilled(size_t size, int byte) {
  void* p = nullptr;
  EXPECT_EQ(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemset(p, size, byte, size), ACL_SUCCESS);
  return p;
}

// True when every byte of [dev, dev + size) is `byte`.
inline bool AllBytes(void* dev, size_t size, int byte) {
  std::vector<unsigned char> h(size);
  if (aclrtMemcpy(h.data(), size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) return false;
  for (size_t i = 0; i < size; ++i)
    if (h[i] != static_cast<unsigned char>(byte)) return false;
  return true;
}

// A case with its private directory, aclInit and device 0; TearDown resets
// device 0 by force and finalizes.
class IpcTest : public ::testing::Test {
 protected:
  void SetUp() override {
    UsePrivateShmDir();
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  }
  void TearDown() override {
    aclrtResetDeviceForce(0);
    aclFinalize();
  }
};

}  // namespace simnpu_test

#endif  // SIMNPU_TESTS_IPC_IPC_FIXTURE_H_
