// IPC memory across processes (aclrtIpcMem*), peer access, eight devices.
// Each case runs in its own process (gtest_discover_tests) with its own
// shared-memory directory; ipc_peer (IPC_PEER_PATH) is the other process.
#include <dirent.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "acl/acl.h"
#include "ipc/ipc_child.h"
#include "ipc/ipc_fixture.h"

using simnpu_test::AllBytes;
using simnpu_test::AllocFilled;
using simnpu_test::Child;
using simnpu_test::IpcShmDir;

namespace {

// Names in the directory that belong to neither this process nor the registry.
std::vector<std::string> ForeignObjects() {
  std::vector<std::string> out;
  const std::string mine = "p" + std::to_string(getpid()) + "-";
  if (DIR* d = opendir(IpcShmDir().c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n == "." || n == ".." || n == "registry" || n == "registry.lock" || n.rfind(mine, 0) == 0) continue;
      out.push_back(n);
    }
    closedir(d);
  }
  return out;
}

std::string Peer() { return IPC_PEER_PATH; }

class IpcMemoryTest : public simnpu_test::IpcTest {};

TEST_F(IpcMemoryTest, DirectoryAndObjectsArePrivateToTheUser) {
  void* p = AllocFilled(4096, 1);
  struct stat st;
  ASSERT_EQ(stat(IpcShmDir().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  int objects = 0;
  DIR* d = opendir(IpcShmDir().c_str());
  ASSERT_NE(d, nullptr);
  while (dirent* e = readdir(d)) {
    std::string n = e->d_name;
    if (n == "." || n == "..") continue;
    ASSERT_EQ(stat((IpcShmDir() + "/" + n).c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u) << n;
    ++objects;
  }
  closedir(d);
  EXPECT_GE(objects, 3);  // registry, our lock, at least one device chunk
  aclrtFree(p);
}

TEST_F(IpcMemoryTest, ImportWithoutPidSeesAndWritesTheSamePages) {
  const size_t size = 6u << 20;  // a run of three chunks
  void* p = AllocFilled(size, 0x11);
  char key[65] = {0};
  ASSERT_EQ(aclrtIpcMemGetExportKey(p, size, key, sizeof key, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION),
            ACL_SUCCESS);
  EXPECT_GE(std::strlen(key), 4u);
  EXPECT_LE(std::strlen(key), 64u);
  Child c({Peer(), "import", std::to_string(size), "17", "0"});
  ASSERT_EQ(c.Line().rfind("pid ", 0), 0u);
  c.Send(key);
  EXPECT_EQ(c.Line(), "rc 0");
  EXPECT_EQ(c.Line(), "data ok");
  EXPECT_EQ(c.Line(), "rc 0");  // memset 0x5A through the imported address
  EXPECT_EQ(c.Line(), "rc 0");  // close
  EXPECT_EQ(c.Wait(), 0);
  EXPECT_TRUE(AllBytes(p, size, 0x5A));  // the importer wrote our pages
  EXPECT_EQ(aclrtIpcMemClose(key), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
  EXPECT_EQ(ForeignObjects(), std::vector<std::string>{});
}

TEST_F(IpcMemoryTest, SmallAllocationInsideASlabChunk) {
  void* pad = AllocFilled(4096, 0x01);
  void* p = AllocFilled(1000, 0x22);
  char key[65] = {0};
  ASSERT_EQ(aclrtIpcMemGetExportKey(p, 1000, key, 65, 1), ACL_SUCCESS);
  Child c({Peer(), "import", "1000", "34", "1"});  // importer on device 1
  c.Line();
  c.Send(key);
  EXPECT_EQ(c.Line(), "rc 0");
  EXPECT_EQ(c.Line(), "data ok");
  EXPECT_EQ(c.Line(), "rc 0");
  EXPECT_EQ(c.Line(), "rc 0");
  EXPECT_EQ(c.Wait(), 0);
  EXPECT_TRUE(AllBytes(p, 1000, 0x5A));
  EXPECT_TRUE(AllBytes(pad, 4096, 0x01));  // the neighbour was not touched
  aclrtIpcMemClose(key);
  aclrtFree(p);
  aclrtFree(pad);
}

TEST_F(IpcMemoryTest, WhitelistIsEnforced) {
  const size_t size = 2u << 20;
  void* p = AllocFilled(size, 0x33);
  char key[65] = {0};
  ASSERT_EQ(aclrtIpcMemGetExportKey(p, size, key, 65, ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT), ACL_SUCCESS);
  Child c({Peer(), "import-retry", std::to_string(size), "51", "0"});
  std::string pidline = c.Line();
  ASSERT_EQ(pidline.rfind("pid ", 0), 0u);
  int32_t pid = std::atoi(pidline.c_str() + 4);
  EXPECT_EQ(pid, c.pid());
  c.Send(key);
  EXPECT_EQ(c.Line(), "rc 207006");  // ACL_ERROR_RT_NO_PERMISSION: not on the whitelist
  int32_t other = pid + 100000;
  ASSERT_EQ(aclrtIpcMemSetImportPid(key, &other, 1), ACL_SUCCESS);
  ASSERT_EQ(aclrtIpcMemSetImportPid(key, &pid, 1), ACL_SUCCESS);
  c.Send("go");
  EXPECT_EQ(c.Line(), "rc 0");
  EXPECT_EQ(c.Line(), "data ok");
  EXPECT_EQ(c.Line(), "rc 0");
  EXPECT_EQ(c.Line(), "rc 0");
  EXPECT_EQ(c.Wait(), 0);
  EXPECT_TRUE(AllBytes(p, size, 0x5A));
  aclrtIpcMemClose(key);
  aclrtFree(p);
}

TEST_F(IpcMemoryTest, ArgumentChecksAndForgedKeys) {
  void* p = AllocFilled(4096, 0);
  char key[65] = {0};
  void* out = nullptr;
  EXPECT_EQ(aclrtIpcMemGetExportKey(nullptr, 4096, key, 65, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtIpcMemGetExportKey(p, 4096, nullptr, 65, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtIpcMemGetExportKey(p, 0, key, 65, 0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtIpcMemGetExportKey(p, 4096, key, 0, 0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtIpcMemGetExportKey(p, 4096, key, 65, 2), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtIpcMemGetExportKey(p, 4096, key, 8, 0), ACL_ERROR_RT_PARAM_INVALID);  // too small for the key
  EXPECT_EQ(aclrtIpcMemGetExportKey(p, 8192, key, 65, 0), ACL_ERROR_RT_PARAM_INVALID);  // past the allocation
  int host = 0;
  EXPECT_EQ(aclrtIpcMemGetExportKey(&host, 4, key, 65, 0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtIpcMemImportByKey(nullptr, "abcd", 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtIpcMemImportByKey(&out, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtIpcMemImportByKey(&out, "abcd", 2), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtIpcMemImportByKey(&out, "snpm0000deadbeefdeadbeef", 0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtIpcMemImportByKey(&out, "", 0), ACL_ERROR_RT_PARAM_INVALID);
  char longkey[80];
  std::memset(longkey, 'k', sizeof longkey);  // no NUL within 65 bytes
  EXPECT_EQ(aclrtIpcMemImportByKey(&out, longkey, 0), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtIpcMemGetExportKey(p, 4096, key, 65, 1), ACL_SUCCESS);
  std::string truncated(key, std::strlen(key) - 1);
  EXPECT_EQ(aclrtIpcMemImportByKey(&out, truncated.c_str(), 0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtIpcMemImportByKey(&out, key, 0), ACL_ERROR_RT_PARAM_INVALID);  // own export
  EXPECT_EQ(out, nullptr);
  int32_t pid = 1;
  EXPECT_EQ(aclrtIpcMemSetImportPid(nullptr, &pid, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtIpcMemSetImportPid(key, nullptr, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtIpcMemSetImportPid(key, &pid, 0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtIpcMemSetImportPid("snpmnotmine", &pid, 1), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtIpcMemClose(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtIpcMemClose(key), ACL_SUCCESS);
  EXPECT_EQ(aclrtIpcMemClose(key), ACL_ERROR_RT_PARAM_INVALID);  // already closed
  int32_t tgid = 0;
  EXPECT_EQ(aclrtDeviceGetBareTgid(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDeviceGetBareTgid(&tgid), ACL_SUCCESS);
  EXPECT_EQ(tgid, getpid());
  EXPECT_NE(std::strlen(aclGetRecentErrMsg()), 0u);
  aclrtFree(p);
}

TEST_F(IpcMemoryTest, StaleKeyAfterExporterClosedOrFreed) {
  void* p = AllocFilled(4096, 7);
  char key[65] = {0};
  ASSERT_EQ(aclrtIpcMemGetExportKey(p, 4096, key, 65, 1), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(p), ACL_SUCCESS);  // the export ends with its allocation
  Child c({Peer(), "import", "4096", "7", "0"});
  c.Line();
  c.Send(key);
  EXPECT_EQ(c.Line(), "rc 107000");
  EXPECT_EQ(c.Wait(), 0);
}

TEST_F(IpcMemoryTest, ImporterKeepsValidMemoryWhenExporterFreesOrIsKilled) {
  const size_t size = 4u << 20;
  for (int kill_it = 0; kill_it < 2; ++kill_it) {
    Child ex({Peer(), "export", std::to_string(size), "99", "0", "1"});
    std::string kl = ex.Line();
    ASSERT_EQ(kl.rfind("key ", 0), 0u) << kl;
    std::string key = kl.substr(4);
    void* q = nullptr;
    ASSERT_EQ(aclrtIpcMemImportByKey(&q, key.c_str(), 0), ACL_SUCCESS);
    EXPECT_TRUE(AllBytes(q, size, 99));
    ASSERT_EQ(aclrtMemset(q, size, 0x5A, size), ACL_SUCCESS);
    ex.Send("check");
    EXPECT_EQ(ex.Line(), "data ok");  // the exporter sees our write
    if (kill_it) {
      ex.Kill();
      EXPECT_EQ(ex.Wait(), -9);
    } else {
      ex.Send("free");
      EXPECT_EQ(ex.Line(), "rc 0");
    }
    // Our mapping keeps the pages: readable, writable, same bytes.
    EXPECT_TRUE(AllBytes(q, size, 0x5A));
    ASSERT_EQ(aclrtMemset(q, size, 0x21, size), ACL_SUCCESS);
    EXPECT_TRUE(AllBytes(q, size, 0x21));
    // The key is dead for new imports.
    void* r = nullptr;
    EXPECT_EQ(aclrtIpcMemImportByKey(&r, key.c_str(), 0), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(aclrtIpcMemClose(key.c_str()), ACL_SUCCESS);
    if (!kill_it) {
      ex.Send("exit");
      EXPECT_EQ(ex.Wait(), 0);
    }
  }
  // The killed exporter's objects are reclaimed by the next process that starts.
  Child next({Peer(), "dev-work", "0"});
  EXPECT_EQ(next.Line(), "ok 0");
  next.CloseInput();
  EXPECT_EQ(next.Wait(), 0);
  EXPECT_EQ(ForeignObjects(), std::vector<std::string>{});
}

TEST_F(IpcMemoryTest, KeyOverASocketOnly) {
  const size_t size = 2u << 20;
  void* p = AllocFilled(size, 0x44);
  char key[65] = {0};
  ASSERT_EQ(aclrtIpcMemGetExportKey(p, size, key, 65, 1), ACL_SUCCESS);
  int sv[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
  Child c({Peer(), "sock-import", std::to_string(sv[1]), std::to_string(size), "68"}, sv[1]);
  close(sv[1]);
  ASSERT_EQ(write(sv[0], key, std::strlen(key)), static_cast<ssize_t>(std::strlen(key)));  // no NUL, as samples do
  char reply[8] = {0};
  ASSERT_GT(read(sv[0], reply, sizeof reply - 1), 0);
  EXPECT_STREQ(reply, "ok");
  EXPECT_EQ(c.Wait(), 0);
  close(sv[0]);
  EXPECT_TRUE(AllBytes(p, size, 0x5A));
  aclrtIpcMemClose(key);
  aclrtFree(p);
}

TEST_F(IpcMemoryTest, EightProcessesOnEightDevices) {
  uint32_t n = 0;
  ASSERT_EQ(aclrtGetDeviceCount(&n), ACL_SUCCESS);
  ASSERT_EQ(n, 8u);
  std::vector<std::unique_ptr<Child>> kids;
  for (int d = 0; d < 8; ++d) kids.push_back(std::make_unique<Child>(std::vector<std::string>{Peer(), "dev-work", std::to_string(d)}));
  for (int d = 0; d < 8; ++d) EXPECT_EQ(kids[d]->Line(), "ok " + std::to_string(d));
  for (auto& k : kids) k->CloseInput();
  for (auto& k : kids) EXPECT_EQ(k->Wait(), 0);
  EXPECT_EQ(ForeignObjects(), std::vector<std::string>{});
}

TEST_F(IpcMemoryTest, SmiListsTheProcessesHoldingEachDevice) {
  Child holder({Peer(), "dev-work", "5"});
  ASSERT_EQ(holder.Line(), "ok 5");
  std::string out;
  FILE* f = popen((std::string(SMI_PATH) + " --json").c_str(), "r");
  ASSERT_NE(f, nullptr);
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, f)) out.append(buf, n);
  EXPECT_EQ(pclose(f), 0);
  const std::string me = "{\"pid\": " + std::to_string(holder.pid()) + ", \"name\": \"ipc_peer\", \"memory\": 10485760}";
  EXPECT_NE(out.find(me), std::string::npos) << out;  // 8 MiB in 2 MiB chunks + a slab chunk
  EXPECT_NE(out.find("\"id\": 7"), std::string::npos);
  holder.CloseInput();
  EXPECT_EQ(holder.Wait(), 0);
}

TEST_F(IpcMemoryTest, PeerAccess) {
  int32_t can = -1;
  EXPECT_EQ(aclrtDeviceCanAccessPeer(&can, 0, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDeviceCanAccessPeer(nullptr, 0, 1), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtDeviceCanAccessPeer(&can, 0, 8), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtDeviceCanAccessPeer(&can, 0, 7), ACL_SUCCESS);
  EXPECT_EQ(can, 1);
  EXPECT_EQ(aclrtDeviceEnablePeerAccess(1, 1), ACL_ERROR_FEATURE_UNSUPPORTED);
  EXPECT_EQ(aclrtDeviceEnablePeerAccess(0, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDeviceEnablePeerAccess(9, 0), ACL_ERROR_RT_INVALID_DEVICEID);
  int32_t st = -1;
  EXPECT_EQ(aclrtDevicePeerAccessStatus(0, 1, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDevicePeerAccessStatus(0, 1, &st), ACL_SUCCESS);
  EXPECT_EQ(st, 0);
  EXPECT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtDevicePeerAccessStatus(0, 1, &st), ACL_SUCCESS);
  EXPECT_EQ(st, 1);
  EXPECT_EQ(aclrtDevicePeerAccessStatus(1, 0, &st), ACL_SUCCESS);
  EXPECT_EQ(st, 0);  // one direction only
  // S09's flow: copy device 0 -> device 1 with peer access enabled.
  const size_t size = 1u << 20;
  void* a = AllocFilled(size, 0x6B);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  EXPECT_EQ(aclrtDeviceEnablePeerAccess(0, 0), ACL_SUCCESS);
  void* b = nullptr;
  ASSERT_EQ(aclrtMalloc(&b, size, ACL_MEM_MALLOC_HUGE_FIRST_P2P), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(b, size, a, size, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
  EXPECT_TRUE(AllBytes(b, size, 0x6B));
  EXPECT_EQ(aclrtDeviceDisablePeerAccess(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtDevicePeerAccessStatus(1, 0, &st), ACL_SUCCESS);
  EXPECT_EQ(st, 0);
  aclrtFree(b);
  aclrtResetDeviceForce(1);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtFree(a);
}

}  // namespace
