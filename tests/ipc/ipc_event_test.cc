// IPC events and IPC notifies across processes: a record in one process
// releases a wait in another, in stream order; whitelists; bad handles.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "acl/acl.h"
#include "ipc/ipc_child.h"
#include "ipc/ipc_fixture.h"

using simnpu_test::Child;
using simnpu_test::EventHandleHex;

namespace {

class IpcEventTest : public simnpu_test::IpcTest {};

TEST_F(IpcEventTest, RecordInOneProcessReleasesAWaitInAnother) {
  aclrtEvent ev = nullptr;
  ASSERT_EQ(aclrtCreateEventExWithFlag(&ev, ACL_EVENT_IPC), ACL_SUCCESS);
  // The producer's record sits behind a local notify wait, so it cannot run yet.
  aclrtNotify gate = nullptr;
  ASSERT_EQ(aclrtCreateNotify(&gate, 0), ACL_SUCCESS);
  aclrtStream blocked = nullptr, other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&blocked), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  ASSERT_EQ(aclrtWaitAndResetNotify(gate, blocked, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(ev, blocked), ACL_SUCCESS);
  aclrtIpcEventHandle h;
  std::memset(&h, 0, sizeof h);
  ASSERT_EQ(aclrtIpcGetEventHandle(ev, &h), ACL_SUCCESS);
  aclrtIpcEventHandle h2;
  std::memset(&h2, 0, sizeof h2);
  ASSERT_EQ(aclrtIpcGetEventHandle(ev, &h2), ACL_SUCCESS);
  EXPECT_EQ(std::memcmp(&h, &h2, sizeof h), 0);  // one event, one handle

  Child c({IPC_PEER_PATH, "event-consumer"});
  c.Send(EventHandleHex(h));
  EXPECT_EQ(c.Line(), "rc 0");   // open
  EXPECT_EQ(c.Line(), "rc 0");   // stream wait
  EXPECT_EQ(c.Line(), "waiting");
  EXPECT_EQ(c.Line(300), "<timeout>");  // our record has not run: the consumer stays blocked
  ASSERT_EQ(aclrtRecordNotify(gate, other), ACL_SUCCESS);
  EXPECT_EQ(c.Line(), "rc 0");   // its synchronize returned
  EXPECT_EQ(c.Line(), "released");
  ASSERT_EQ(aclrtSynchronizeStream(blocked), ACL_SUCCESS);
  c.Send("record");
  EXPECT_EQ(c.Line(), "rc 0");
  EXPECT_EQ(c.Line(), "rc 0");
  EXPECT_EQ(c.Line(), "status 1");  // ACL_EVENT_RECORDED_STATUS_COMPLETE
  EXPECT_EQ(c.Line(), "rc 0");      // destroy
  EXPECT_EQ(c.Wait(), 0);
  // The consumer's record is ours too.
  EXPECT_EQ(aclrtSynchronizeEvent(ev), ACL_SUCCESS);
  aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  EXPECT_EQ(aclrtQueryEventStatus(ev, &st), ACL_SUCCESS);
  EXPECT_EQ(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  EXPECT_EQ(aclrtDestroyEvent(ev), ACL_SUCCESS);
  aclrtDestroyNotify(gate);
  aclrtDestroyStream(blocked);
  aclrtDestroyStream(other);
}

TEST_F(IpcEventTest, EventArgumentChecks) {
  aclrtEvent plain = nullptr, ev = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&plain), ACL_SUCCESS);
  aclrtIpcEventHandle h;
  std::memset(&h, 0, sizeof h);
  EXPECT_EQ(aclrtIpcGetEventHandle(nullptr, &h), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtIpcGetEventHandle(plain, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtIpcGetEventHandle(plain, &h), ACL_ERROR_RT_PARAM_INVALID);  // not an IPC event
  EXPECT_EQ(aclrtCreateEventExWithFlag(&ev, ACL_EVENT_IPC | ACL_EVENT_SYNC), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtIpcOpenEventHandle(h, nullptr), ACL_ERROR_INVALID_PARAM);
  std::memset(&h, 0x7F, sizeof h);  // forged
  EXPECT_EQ(aclrtIpcOpenEventHandle(h, &ev), ACL_ERROR_RT_PARAM_INVALID);
  std::memset(&h, 0, sizeof h);
  EXPECT_EQ(aclrtIpcOpenEventHandle(h, &ev), ACL_ERROR_RT_PARAM_INVALID);
  aclrtDestroyEvent(plain);
}

TEST_F(IpcEventTest, NotifyRecordedByAnotherProcessReleasesOurWait) {
  aclrtNotify n = nullptr;
  ASSERT_EQ(aclrtCreateNotify(&n, 0), ACL_SUCCESS);
  char key[65] = {0};
  ASSERT_EQ(aclrtNotifyGetExportKey(n, key, sizeof key, ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT), ACL_SUCCESS);
  Child c({IPC_PEER_PATH, "notify-peer", "pid"});
  std::string pl = c.Line();
  ASSERT_EQ(pl.rfind("pid ", 0), 0u);
  int32_t pid = std::atoi(pl.c_str() + 4);
  c.Send(key);
  EXPECT_EQ(c.Line(), "rc 207006");  // not whitelisted yet
  ASSERT_EQ(aclrtNotifySetImportPid(n, &pid, 1), ACL_SUCCESS);
  c.Send("go");
  EXPECT_EQ(c.Line(), "rc 0");
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  for (int round = 0; round < 3; ++round) {
    ASSERT_EQ(aclrtWaitAndResetNotify(n, s, 0), ACL_SUCCESS);
    c.Send("go");  // the peer records after 100 ms
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    EXPECT_EQ(c.Line(), "recorded");
  }
  // Reset semantics: the wait consumed the signal; a new wait times out.
  ASSERT_EQ(aclrtWaitAndResetNotify(n, s, 100), ACL_SUCCESS);
  EXPECT_NE(aclrtSynchronizeStream(s), ACL_SUCCESS);
  c.Send("exit");
  EXPECT_EQ(c.Wait(), 0);
  aclrtDestroyStream(s);
  aclrtDestroyNotify(n);
}

TEST_F(IpcEventTest, NotifyArgumentChecks) {
  aclrtNotify n = nullptr, m = nullptr;
  ASSERT_EQ(aclrtCreateNotify(&n, 0), ACL_SUCCESS);
  char key[65] = {0};
  int32_t pid = 1;
  EXPECT_EQ(aclrtNotifyGetExportKey(nullptr, key, 65, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtNotifyGetExportKey(n, nullptr, 65, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtNotifyGetExportKey(n, key, 0, 0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtNotifyGetExportKey(n, key, 65, 1), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtNotifySetImportPid(n, &pid, 1), ACL_ERROR_RT_PARAM_INVALID);  // not exported
  EXPECT_EQ(aclrtNotifySetImportPid(n, nullptr, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtNotifySetImportPid(n, &pid, 0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtNotifyImportByKey(nullptr, "abcd", 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtNotifyImportByKey(&m, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtNotifyImportByKey(&m, "abcd", 4), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtNotifyImportByKey(&m, "snpn0000ffffffffffffffff", 0), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtNotifyGetExportKey(n, key, 65, 2), ACL_SUCCESS);
  EXPECT_EQ(aclrtNotifySetImportPid(n, &pid, 1), ACL_SUCCESS);
  aclrtDestroyNotify(n);
}

}  // namespace
