// The misuse suite (issue 10): one row per (function, bad input) pair, each
// run in a forked child that sets up the state the row names, makes the one
// bad call and reports the code it got, whether a message was queued for
// aclGetRecentErrMsg, and whether the process is still intact (a canary
// allocation unchanged byte for byte, the runtime still copying and
// synchronizing). The parent checks the exact code.
#ifndef SIMNPU_TESTS_MISUSE_MISUSE_H_
#define SIMNPU_TESTS_MISUSE_MISUSE_H_

#include <functional>
#include <string>
#include <vector>

#include "acl/acl.h"

namespace misuse {

// State the child builds before the call (everything of the levels below it).
enum Level {
  kBare,       // nothing: no aclInit, no device
  kInit,       // aclInit(nullptr)
  kDevice,     // + device 0 set, objects of every kind, live and dead (Fx)
  kFinalized,  // kDevice, then every device reset and aclFinalize
};

struct Fx {
  void* dev = nullptr;          // 4 KiB device memory
  void* canary = nullptr;       // 4 KiB device memory filled with 0x5a (checked after the call)
  void* pinned = nullptr;       // 4 KiB from aclrtMallocHost
  void* managed = nullptr;      // 2 MiB managed
  void* freed_dev = nullptr;    // freed device memory
  void* freed_managed = nullptr;
  void* freed_pinned = nullptr;
  aclrtStream stream = nullptr;
  aclrtStream dead_stream = nullptr;
  aclrtEvent event = nullptr;       // recorded and complete
  aclrtEvent dead_event = nullptr;
  aclrtNotify notify = nullptr;
  aclrtNotify dead_notify = nullptr;
  aclrtContext ctx = nullptr;       // the current (primary) context
  aclrtContext dead_ctx = nullptr;
  aclrtBinHandle bin = nullptr;
  aclrtBinHandle dead_bin = nullptr;
  aclrtFuncHandle func = nullptr;   // mu_fill(GM_ADDR z, uint32_t n)
  aclrtFuncHandle dead_func = nullptr;
  aclrtArgsHandle args = nullptr;   // initialised for func, not finalized
  aclDataBuffer* buf = nullptr;
  aclDataBuffer* dead_buf = nullptr;
  aclrtStreamConfigHandle* cfg = nullptr;
  aclrtStreamConfigHandle* dead_cfg = nullptr;
  alignas(64) unsigned char junk[256] = {};  // never a handle of anything
  unsigned char host[8192] = {};             // ordinary program memory
  void* Junk() { return junk; }
};

struct Row {
  std::string name;   // "<function>: <bad input>"
  Level level;
  int expected;       // the exact return value
  std::function<int(Fx&)> call;
  bool message = true;  // a failing row must leave a message (aclGetRecentErrMsg)
};

std::vector<Row> AllRows();
// The families of misuse_rows_ext.cc (IPC, VMM, task graphs, pools, TDT, aclnn).
void ExtRows(std::vector<Row>& rows);

}  // namespace misuse

#endif  // SIMNPU_TESTS_MISUSE_MISUSE_H_
