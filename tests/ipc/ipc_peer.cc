// ipc_peer: the other process of the multi-process tests (ipc_*_test.cc).
// One role per run, chosen by argv[1]; talks to the test over stdin/stdout
// lines (or a socket fd), prints "rc <code>" lines the test checks exactly.
//
//   import SIZE BYTE DEV        prints "pid N", reads a key line, imports it
//                               (flags 0), checks every byte == BYTE, fills
//                               it with 0x5A, closes; prints "rc ..." lines
//   import-retry SIZE BYTE DEV  as import, but a failed first import waits
//                               for a "go" line and tries once more
//   export SIZE BYTE DEV FLAGS  allocates, fills with BYTE, exports, prints
//                               "key K"; then on "free" frees (prints
//                               "freed"), on "exit" returns, EOF exits
//   sock-import FD SIZE BYTE    reads the key from socket FD, imports, checks,
//                               fills 0x5A, closes, sends "ok"/"bad" back
//   event-consumer              reads an event handle (128 hex digits), opens
//                               it, waits on it in a stream ("waiting", then
//                               "released" once the wait is satisfied); on
//                               "record" records it itself, synchronises and
//                               prints "status S"
//   notify-peer MODE            MODE pid: prints "pid N" first. Reads a notify
//                               key, imports it ("rc ..."; with pid mode a
//                               failed import waits for "go" and retries);
//                               then each "go" line records it once
//                               ("recorded"); "exit" ends
//   pingpong N                  creates notify B, prints "key K", reads the
//                               key of A, imports it; N times: waits B,
//                               records A
//   vmm-import BYTE              prints "pid N", reads a shareable handle
//                               (decimal); imports it ("rc ..."; a failure
//                               waits for "go" and retries), reserves, maps,
//                               checks every byte == BYTE, fills 0x5A, unmaps,
//                               releases, frees ("rc ..." each)
//   dev-work DEV                 sets device DEV, allocates 8 MiB, fills with
//                               DEV+1, copies back and checks; prints "ok DEV"
//   import-hold SIZE             reads a key line, imports it (flags 0) and
//                               keeps it: "fill B" memsets it with B, "close"
//                               closes it ("rc ..." each); EOF exits
//   event-rules DEV              on device DEV: reads an event handle (as
//                               event-consumer), opens it and prints "rc ..."
//                               for the open, then "peer S" (peer access
//                               status DEV -> 0 and 0 -> DEV, "11" both on),
//                               then "rc ..." for aclrtResetEvent, aclrtQueryEvent,
//                               aclrtEventGetTimestamp, aclrtEventElapsedTime
//                               (with an ordinary event), aclrtQueryEventStatus,
//                               aclrtDestroyEvent
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"

namespace {

std::string ReadLine() {
  std::string s;
  int c;
  while ((c = std::getchar()) != EOF && c != '\n') s.push_back(static_cast<char>(c));
  return s;
}

void Say(const std::string& s) {
  std::printf("%s\n", s.c_str());
  std::fflush(stdout);
}

bool CheckBytes(void* dev, size_t size, int byte) {
  std::vector<unsigned char> host(size);
  if (aclrtMemcpy(host.data(), size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) return false;
  for (size_t i = 0; i < size; ++i)
    if (host[i] != static_cast<unsigned char>(byte)) return false;
  return true;
}

int Import(size_t size, int byte, int dev, bool retry) {
  int32_t pid = 0;
  aclrtDeviceGetBareTgid(&pid);
  Say("pid " + std::to_string(pid));
  std::string key = ReadLine();
  void* p = nullptr;
  aclError rc = aclrtIpcMemImportByKey(&p, key.c_str(), 0);
  Say("rc " + std::to_string(rc));
  if (rc != ACL_SUCCESS && retry) {
    if (ReadLine() != "go") return 3;
    rc = aclrtIpcMemImportByKey(&p, key.c_str(), 0);
    Say("rc " + std::to_string(rc));
  }
  if (rc != ACL_SUCCESS) return 0;
  Say(CheckBytes(p, size, byte) ? "data ok" : "data bad");
  Say("rc " + std::to_string(aclrtMemset(p, size, 0x5A, size)));
  Say("rc " + std::to_string(aclrtIpcMemClose(key.c_str())));
  (void)dev;
  return 0;
}

int Export(size_t size, int byte, uint64_t flags) {
  void* p = nullptr;
  if (aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 4;
  aclrtMemset(p, size, byte, size);
  char key[65] = {0};
  aclError rc = aclrtIpcMemGetExportKey(p, size, key, sizeof key, flags);
  if (rc != ACL_SUCCESS) {
    Say("rc " + std::to_string(rc));
    return 5;
  }
  Say(std::string("key ") + key);
  for (;;) {
    std::string cmd = ReadLine();
    if (cmd == "free") {
      Say("rc " + std::to_string(aclrtFree(p)));
      p = nullptr;
    } else if (cmd.rfind("pid ", 0) == 0) {
      int32_t pid = std::atoi(cmd.c_str() + 4);
      Say("rc " + std::to_string(aclrtIpcMemSetImportPid(key, &pid, 1)));
    } else if (cmd == "check") {
      Say(CheckBytes(p, size, 0x5A) ? "data ok" : "data bad");
    } else {
      break;  // "exit" or EOF
    }
  }
  if (p) {
    aclrtIpcMemClose(key);
    aclrtFree(p);
  }
  return 0;
}

int SockImport(int fd, size_t size, int byte) {
  char key[128] = {0};
  ssize_t n = read(fd, key, sizeof key - 1);
  if (n <= 0) return 6;
  key[n] = '\0';
  void* p = nullptr;
  bool ok = aclrtIpcMemImportByKey(&p, key, 0) == ACL_SUCCESS && CheckBytes(p, size, byte) &&
            aclrtMemset(p, size, 0x5A, size) == ACL_SUCCESS && aclrtIpcMemClose(key) == ACL_SUCCESS;
  const char* reply = ok ? "ok" : "bad";
  if (write(fd, reply, std::strlen(reply)) < 0) return 7;
  return ok ? 0 : 8;
}

int EventConsumer() {
  std::string hex = ReadLine();
  aclrtIpcEventHandle h;
  std::memset(&h, 0xEE, sizeof h);  // garbage beyond the first 8 bytes is allowed
  for (size_t i = 0; i < 8 && 2 * i + 1 < hex.size(); ++i)
    h.reserved[i] = static_cast<char>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
  aclrtEvent ev = nullptr;
  aclError rc = aclrtIpcOpenEventHandle(h, &ev);
  Say("rc " + std::to_string(rc));
  if (rc != ACL_SUCCESS) return 0;
  aclrtStream s = nullptr;
  aclrtCreateStream(&s);
  Say("rc " + std::to_string(aclrtStreamWaitEvent(s, ev)));
  Say("waiting");
  Say("rc " + std::to_string(aclrtSynchronizeStream(s)));
  Say("released");
  if (ReadLine() != "record") return 3;
  Say("rc " + std::to_string(aclrtRecordEvent(ev, s)));
  Say("rc " + std::to_string(aclrtSynchronizeEvent(ev)));
  aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  aclrtQueryEventStatus(ev, &st);
  Say("status " + std::to_string(static_cast<int>(st)));
  Say("rc " + std::to_string(aclrtDestroyEvent(ev)));
  aclrtDestroyStream(s);
  return 0;
}

int ImportHold(size_t size) {
  std::string key = ReadLine();
  void* p = nullptr;
  aclError rc = aclrtIpcMemImportByKey(&p, key.c_str(), 0);
  Say("rc " + std::to_string(rc));
  if (rc != ACL_SUCCESS) return 0;
  for (;;) {
    std::string cmd = ReadLine();
    if (cmd.rfind("fill ", 0) == 0) {
      Say("rc " + std::to_string(aclrtMemset(p, size, std::atoi(cmd.c_str() + 5), size)));
    } else if (cmd == "close") {
      Say("rc " + std::to_string(aclrtIpcMemClose(key.c_str())));
    } else {
      break;
    }
  }
  return 0;
}

aclrtIpcEventHandle HandleFromHex(const std::string& hex) {
  aclrtIpcEventHandle h;
  std::memset(&h, 0xEE, sizeof h);
  for (size_t i = 0; i < 8 && 2 * i + 1 < hex.size(); ++i)
    h.reserved[i] = static_cast<char>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
  return h;
}

int EventRules() {
  aclrtIpcEventHandle h = HandleFromHex(ReadLine());
  aclrtEvent ev = nullptr;
  aclError rc = aclrtIpcOpenEventHandle(h, &ev);
  Say("rc " + std::to_string(rc));
  if (rc != ACL_SUCCESS) return 0;
  int32_t cur = 0, to = -1, from = -1;
  aclrtGetDevice(&cur);
  if (cur != 0) {
    aclrtDevicePeerAccessStatus(cur, 0, &to);
    aclrtDevicePeerAccessStatus(0, cur, &from);
  }
  Say("peer " + std::to_string(to) + std::to_string(from));
  aclrtStream s = nullptr;
  aclrtCreateStream(&s);
  aclrtEvent plain = nullptr;
  aclrtCreateEvent(&plain);
  aclrtRecordEvent(plain, s);
  aclrtSynchronizeStream(s);
  Say("rc " + std::to_string(aclrtResetEvent(ev, s)));
  aclrtEventStatus es = ACL_EVENT_STATUS_RESERVED;
  Say("rc " + std::to_string(aclrtQueryEvent(ev, &es)));
  uint64_t ts = 0;
  Say("rc " + std::to_string(aclrtEventGetTimestamp(ev, &ts)));
  float ms = 0;
  Say("rc " + std::to_string(aclrtEventElapsedTime(&ms, plain, ev)));
  aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  Say("rc " + std::to_string(aclrtQueryEventStatus(ev, &st)));
  Say("rc " + std::to_string(aclrtDestroyEvent(ev)));
  aclrtDestroyEvent(plain);
  aclrtDestroyStream(s);
  return 0;
}

int NotifyPeer(bool pid_mode) {
  if (pid_mode) {
    int32_t pid = 0;
    aclrtDeviceGetBareTgid(&pid);
    Say("pid " + std::to_string(pid));
  }
  std::string key = ReadLine();
  aclrtNotify n = nullptr;
  aclError rc = aclrtNotifyImportByKey(&n, key.c_str(), 0);
  Say("rc " + std::to_string(rc));
  if (rc != ACL_SUCCESS && pid_mode) {
    if (ReadLine() != "go") return 3;
    rc = aclrtNotifyImportByKey(&n, key.c_str(), 0);
    Say("rc " + std::to_string(rc));
  }
  if (rc != ACL_SUCCESS) return 0;
  aclrtStream s = nullptr;
  aclrtCreateStream(&s);
  while (ReadLine() == "go") {
    usleep(100000);
    aclrtRecordNotify(n, s);
    aclrtSynchronizeStream(s);
    Say("recorded");
  }
  aclrtDestroyNotify(n);
  aclrtDestroyStream(s);
  return 0;
}

int PingPong(int rounds) {
  aclrtNotify mine = nullptr, theirs = nullptr;
  aclrtCreateNotify(&mine, 0);
  char key[65] = {0};
  if (aclrtNotifyGetExportKey(mine, key, sizeof key, ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION) != ACL_SUCCESS)
    return 3;
  Say(std::string("key ") + key);
  std::string other = ReadLine();
  if (aclrtNotifyImportByKey(&theirs, other.c_str(), 0) != ACL_SUCCESS) return 4;
  aclrtStream s = nullptr;
  aclrtCreateStream(&s);
  for (int i = 0; i < rounds; ++i) {
    aclrtWaitAndResetNotify(mine, s, 0);
    aclrtRecordNotify(theirs, s);
  }
  if (aclrtSynchronizeStream(s) != ACL_SUCCESS) return 5;
  aclrtDestroyStream(s);
  aclrtDestroyNotify(theirs);
  aclrtDestroyNotify(mine);
  return 0;
}

int VmmImport(int byte) {
  int32_t pid = 0;
  aclrtDeviceGetBareTgid(&pid);
  Say("pid " + std::to_string(pid));
  uint64_t sh = std::strtoull(ReadLine().c_str(), nullptr, 10);
  aclrtDrvMemHandle h = nullptr;
  aclError rc = aclrtMemImportFromShareableHandle(sh, 0, &h);
  Say("rc " + std::to_string(rc));
  if (rc != ACL_SUCCESS) {
    if (ReadLine() != "go") return 3;
    rc = aclrtMemImportFromShareableHandle(sh, 0, &h);
    Say("rc " + std::to_string(rc));
    if (rc != ACL_SUCCESS) return 0;
  }
  aclrtPhysicalMemProp prop;
  std::memset(&prop, 0, sizeof prop);
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  prop.memAttr = ACL_HBM_MEM_NORMAL;
  size_t g = 0;
  aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g);
  void* va = nullptr;
  Say("rc " + std::to_string(aclrtReserveMemAddress(&va, g, 0, nullptr, 0)));
  Say("rc " + std::to_string(aclrtMapMem(va, g, 0, h, 0)));
  aclrtMemAccessDesc d;
  std::memset(&d, 0, sizeof d);
  d.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
  d.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  Say("rc " + std::to_string(aclrtMemSetAccess(va, g, &d, 1)));
  Say(CheckBytes(va, g, byte) ? "data ok" : "data bad");
  Say("rc " + std::to_string(aclrtMemset(va, g, 0x5A, g)));
  Say("rc " + std::to_string(aclrtUnmapMem(va)));
  Say("rc " + std::to_string(aclrtReleaseMemAddress(va)));
  Say("rc " + std::to_string(aclrtFreePhysical(h)));
  return 0;
}

int DevWork(int dev) {
  const size_t size = 8u << 20;
  void* p = nullptr;
  if (aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 9;
  if (aclrtMemset(p, size, dev + 1, size) != ACL_SUCCESS) return 10;
  if (!CheckBytes(p, size, dev + 1)) return 11;
  Say("ok " + std::to_string(dev));
  ReadLine();  // hold the device until the test says so
  aclrtFree(p);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const std::string role = argv[1];
  auto arg = [&](int i) { return i < argc ? std::strtoull(argv[i], nullptr, 0) : 0ull; };
  if (aclInit(nullptr) != ACL_SUCCESS) return 20;
  int dev = 0;
  if (role == "import" || role == "import-retry") dev = static_cast<int>(arg(4));
  if (role == "export") dev = static_cast<int>(arg(4));
  if (role == "dev-work") dev = static_cast<int>(arg(2));
  if (role == "event-rules") dev = static_cast<int>(arg(2));
  if (aclrtSetDevice(dev) != ACL_SUCCESS) return 21;
  int rc = 2;
  if (role == "import") rc = Import(arg(2), static_cast<int>(arg(3)), dev, false);
  else if (role == "import-retry") rc = Import(arg(2), static_cast<int>(arg(3)), dev, true);
  else if (role == "export") rc = Export(arg(2), static_cast<int>(arg(3)), arg(5));
  else if (role == "sock-import") rc = SockImport(static_cast<int>(arg(2)), arg(3), static_cast<int>(arg(4)));
  else if (role == "dev-work") rc = DevWork(dev);
  else if (role == "vmm-import") rc = VmmImport(static_cast<int>(arg(2)));
  else if (role == "event-consumer") rc = EventConsumer();
  else if (role == "notify-peer") rc = NotifyPeer(argc > 2 && std::string(argv[2]) == "pid");
  else if (role == "pingpong") rc = PingPong(static_cast<int>(arg(2)));
  else if (role == "import-hold") rc = ImportHold(arg(2));
  else if (role == "event-rules") rc = EventRules();
  aclrtResetDeviceForce(dev);
  aclFinalize();
  return rc;
}
