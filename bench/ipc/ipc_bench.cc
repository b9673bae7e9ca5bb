// simnpu_bench_ipc: cross-process rows (issue 9), each beside its limit
// measured in the same process run:
//   ipc.memcpy.64MiB        host memcpy of 64 MiB (the limit of the copy row)
//   ipc.import.copy.64MiB   aclrtMemcpy D2D from IPC-imported memory (another
//                           process exported it) into local device memory
//   ipc.handoff.thread      round trip of a blocking hand-off between two
//                           threads (mutex + condition variable)
//   ipc.notify.roundtrip    round trip of IPC notifies with another process:
//                           we record theirs, they wait and record ours
// Records as bench/common/bench_common.h prints them. Roles "export" and
// "pingpong" are the other process (this binary re-executed).
#include <unistd.h>

#include <condition_variable>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "bench_common.h"
#include "../../tests/ipc/ipc_child.h"

using namespace simnpu_bench;

namespace {
constexpr size_t kSize = 64u << 20;

std::string ReadLine() {
  std::string s;
  int c;
  while ((c = std::getchar()) != EOF && c != '\n') s.push_back(static_cast<char>(c));
  return s;
}

int Exporter() {
  void* p = nullptr;
  if (aclrtMalloc(&p, kSize, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 3;
  aclrtMemset(p, kSize, 0x42, kSize);
  char key[65] = {0};
  if (aclrtIpcMemGetExportKey(p, kSize, key, 65, 1) != ACL_SUCCESS) return 4;
  std::printf("key %s\n", key);
  std::fflush(stdout);
  ReadLine();
  aclrtIpcMemClose(key);
  aclrtFree(p);
  return 0;
}

int PingPong(int rounds) {
  aclrtNotify mine = nullptr, theirs = nullptr;
  aclrtCreateNotify(&mine, 0);
  char key[65] = {0};
  aclrtNotifyGetExportKey(mine, key, 65, ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION);
  std::printf("key %s\n", key);
  std::fflush(stdout);
  std::string other = ReadLine();
  if (aclrtNotifyImportByKey(&theirs, other.c_str(), 0) != ACL_SUCCESS) return 4;
  aclrtStream s = nullptr;
  aclrtCreateStream(&s);
  for (int i = 0; i < rounds; ++i) {
    aclrtWaitAndResetNotify(mine, s, 0);
    aclrtRecordNotify(theirs, s);
  }
  aclrtSynchronizeStream(s);
  aclrtDestroyStream(s);
  return 0;
}

double ThreadHandoffUs(int rounds) {
  std::mutex m;
  std::condition_variable cv;
  int turn = 0;  // 0: main's turn, 1: peer's
  std::thread peer([&] {
    for (int i = 0; i < rounds; ++i) {
      std::unique_lock<std::mutex> lk(m);
      cv.wait(lk, [&] { return turn == 1; });
      turn = 0;
      cv.notify_all();
    }
  });
  const uint64_t t0 = NowNs();
  for (int i = 0; i < rounds; ++i) {
    std::unique_lock<std::mutex> lk(m);
    turn = 1;
    cv.notify_all();
    cv.wait(lk, [&] { return turn == 0; });
  }
  const uint64_t t1 = NowNs();
  peer.join();
  return (t1 - t0) / 1e3 / rounds;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string role = argc > 1 ? argv[1] : "all";
  int reps = 5;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--reps") == 0) reps = std::atoi(argv[i + 1]);
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) Die("aclInit/aclrtSetDevice");
  if (role == "export") return Exporter();
  if (role == "pingpong") return PingPong(std::atoi(argv[2]));

  // 1. copy from imported memory vs memcpy
  std::vector<double> mc, ic;
  {
    HugeBuffer a(kSize), b(kSize);
    for (int r = 0; r < reps; ++r) {
      const uint64_t t0 = NowNs();
      std::memcpy(b.data(), a.data(), kSize);
      mc.push_back(kSize / 1e9 / ((NowNs() - t0) / 1e9));
      Keep(b.data()[r]);
    }
  }
  {
    simnpu_test::Child ex({argv[0], "export"});
    std::string kl = ex.Line();
    if (kl.rfind("key ", 0) != 0) Die("exporter gave no key");
    void* q = nullptr;
    if (aclrtIpcMemImportByKey(&q, kl.substr(4).c_str(), 0) != ACL_SUCCESS) Die("import");
    void* local = nullptr;
    if (aclrtMalloc(&local, kSize, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) Die("malloc");
    aclrtMemcpy(local, kSize, q, kSize, ACL_MEMCPY_DEVICE_TO_DEVICE);  // warm: pages present
    for (int r = 0; r < reps; ++r) {
      const uint64_t t0 = NowNs();
      aclrtMemcpy(local, kSize, q, kSize, ACL_MEMCPY_DEVICE_TO_DEVICE);
      ic.push_back(kSize / 1e9 / ((NowNs() - t0) / 1e9));
    }
    unsigned char probe = 0;
    aclrtMemcpy(&probe, 1, static_cast<char*>(local) + kSize - 1, 1, ACL_MEMCPY_DEVICE_TO_HOST);
    if (probe != 0x42) EmitError("ipc.import.copy.64MiB", "wrong bytes through the imported mapping");
    aclrtIpcMemClose(kl.substr(4).c_str());
    aclrtFree(local);
    ex.Send("done");
    ex.Wait();
  }
  Emit("ipc.memcpy.64MiB", "GB/s", "host memcpy 64 MiB (same run)", mc);
  Emit("ipc.import.copy.64MiB", "GB/s", "aclrtMemcpy D2D from IPC-imported memory, 64 MiB", ic);

  // 2. cross-process notify round trip vs thread hand-off
  const int rounds = 2000;
  std::vector<double> th, rt;
  for (int r = 0; r < reps; ++r) th.push_back(ThreadHandoffUs(rounds));
  for (int r = 0; r < reps; ++r) {
    aclrtNotify mine = nullptr, theirs = nullptr;
    aclrtCreateNotify(&mine, 0);
    char key[65] = {0};
    aclrtNotifyGetExportKey(mine, key, 65, ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION);
    simnpu_test::Child pp({argv[0], "pingpong", std::to_string(rounds)});
    std::string kl = pp.Line();
    if (kl.rfind("key ", 0) != 0) Die("pingpong gave no key");
    pp.Send(key);
    if (aclrtNotifyImportByKey(&theirs, kl.substr(4).c_str(), 0) != ACL_SUCCESS) Die("notify import");
    aclrtStream s = nullptr;
    aclrtCreateStream(&s);
    const uint64_t t0 = NowNs();
    for (int i = 0; i < rounds; ++i) {
      aclrtRecordNotify(theirs, s);
      aclrtWaitAndResetNotify(mine, s, 0);
    }
    aclrtSynchronizeStream(s);
    rt.push_back((NowNs() - t0) / 1e3 / rounds);
    pp.Wait();
    aclrtDestroyStream(s);
    aclrtDestroyNotify(theirs);
    aclrtDestroyNotify(mine);
  }
  Emit("ipc.handoff.thread", "us", "blocking hand-off between two threads, round trip", th);
  Emit("ipc.notify.roundtrip", "us", "IPC notify round trip with another process", rt);
  aclrtResetDeviceForce(0);
  aclFinalize();
  return 0;
}
