// acl/acl_tdt_queue.h: queue attributes, queues, shared buffers, routes —
// exact codes, data byte for byte, blocking, timeouts, forwarding.
#include <atomic>
#include <cstring>
#include <thread>
#include <unistd.h>

#include "tdt_test_util.h"

using tdttest::MsSince;
using tdttest::TdtTest;

namespace {

uint32_t MakeQueue(const char* name, uint32_t depth) {
  acltdtQueueAttr* attr = acltdtCreateQueueAttr();
  if (name != nullptr) EXPECT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof(const char*), &name), 0);
  EXPECT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof depth, &depth), 0);
  uint32_t qid = 0xFFFFFFFFu;
  EXPECT_EQ(acltdtCreateQueue(attr, &qid), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueueAttr(attr), ACL_SUCCESS);
  return qid;
}

int32_t Int(uint32_t qid, int32_t timeout, aclError* rc) {
  int32_t v = -1;
  size_t got = 0;
  *rc = acltdtDequeueData(qid, &v, sizeof v, &got, nullptr, 0, timeout);
  return v;
}

aclError PutInt(uint32_t qid, int32_t v, int32_t timeout) {
  return acltdtEnqueueData(qid, &v, sizeof v, nullptr, 0, timeout, 0);
}

}  // namespace

// The simple-queue sample (S48) and the attribute rules.
TEST_F(TdtTest, QueueAttributes) {
  acltdtQueueAttr* attr = acltdtCreateQueueAttr();
  ASSERT_NE(attr, nullptr);
  const char* name = nullptr;
  size_t ret = 0;
  uint32_t depth = 0;
  ASSERT_EQ(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof name, &ret, &name), ACL_SUCCESS);
  EXPECT_EQ(ret, sizeof name);
  EXPECT_STREQ(name, "");
  ASSERT_EQ(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof depth, &ret, &depth), ACL_SUCCESS);
  EXPECT_EQ(ret, 4u);
  EXPECT_EQ(depth, 8u);

  const char* want = "simple_queue";
  ASSERT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof(const char*), &want), ACL_SUCCESS);
  uint32_t four = 4;
  ASSERT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof four, &four), ACL_SUCCESS);
  ASSERT_EQ(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof name, &ret, &name), ACL_SUCCESS);
  EXPECT_STREQ(name, "simple_queue");
  EXPECT_NE(name, want);  // the attribute holds its own copy
  ASSERT_EQ(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof depth, &ret, &depth), ACL_SUCCESS);
  EXPECT_EQ(depth, 4u);

  EXPECT_EQ(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, 4, &ret, &name), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 2, &ret, &depth), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, nullptr, &depth), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtGetQueueAttr(nullptr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, &ret, &depth), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 8, &four), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtSetQueueAttr(attr, static_cast<acltdtQueueAttrType>(7), 4, &four), ACL_ERROR_INVALID_PARAM);
  const char* null_name = nullptr;
  EXPECT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof null_name, &null_name), ACL_ERROR_INVALID_PARAM);
  const std::string n128(128, 'q'), n127(127, 'q');
  const char* p128 = n128.c_str();
  const char* p127 = n127.c_str();
  EXPECT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof p128, &p128), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof p127, &p127), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueueAttr(attr), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueueAttr(attr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtDestroyQueueAttr(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(TdtTest, CreateAndDestroyQueues) {
  acltdtQueueAttr* attr = acltdtCreateQueueAttr();
  EXPECT_EQ(acltdtCreateQueue(attr, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtCreateQueue(nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
  uint32_t a = 0, b = 0;
  ASSERT_EQ(acltdtCreateQueue(attr, &a), ACL_SUCCESS);  // unnamed queues may repeat
  ASSERT_EQ(acltdtCreateQueue(attr, &b), ACL_SUCCESS);
  EXPECT_NE(a, b);
  const char* name = "dup";
  ASSERT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof name, &name), ACL_SUCCESS);
  uint32_t c = 0, d = 0;
  ASSERT_EQ(acltdtCreateQueue(attr, &c), ACL_SUCCESS);
  EXPECT_EQ(acltdtCreateQueue(attr, &d), ACL_ERROR_INVALID_PARAM);  // a name in use
  EXPECT_NE(tdttest::ErrMsg().find("already exists"), std::string::npos);
  uint32_t one = 1, big = 8193;
  ASSERT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, &one), ACL_SUCCESS);
  EXPECT_EQ(acltdtCreateQueue(attr, &d), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, &big), ACL_SUCCESS);
  EXPECT_EQ(acltdtCreateQueue(attr, &d), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtDestroyQueue(a), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueue(a), ACL_ERROR_INVALID_QUEUE_ID);
  EXPECT_EQ(acltdtDestroyQueue(b), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueue(c), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueue(12345), ACL_ERROR_INVALID_QUEUE_ID);
  EXPECT_EQ(acltdtDestroyQueueAttr(attr), ACL_SUCCESS);
}

TEST_F(TdtTest, CreateQueueNeedsACurrentDevice) {
  ASSERT_EQ(aclrtResetDeviceForce(0), ACL_SUCCESS);
  acltdtQueueAttr* attr = acltdtCreateQueueAttr();
  uint32_t q = 0;
  EXPECT_EQ(acltdtCreateQueue(attr, &q), ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_EQ(acltdtDestroyQueueAttr(attr), ACL_SUCCESS);
}

TEST_F(TdtTest, EnqueueDequeueDataWithUserData) {
  const uint32_t q = MakeQueue("data_queue", 2);
  const char payload[] = "hello, queue";
  uint8_t user[96];
  for (int i = 0; i < 96; ++i) user[i] = static_cast<uint8_t>(i * 3);
  EXPECT_EQ(acltdtEnqueueData(q, payload, sizeof payload, user, 96, -1, 0), ACL_SUCCESS);
  EXPECT_EQ(acltdtEnqueueData(q, payload, sizeof payload, user, 97, 0, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtEnqueueData(q, nullptr, 4, nullptr, 0, 0, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(PutInt(q, 42, 0), ACL_SUCCESS);
  EXPECT_EQ(PutInt(q, 43, 0), ACL_ERROR_RT_QUEUE_FULL);
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(PutInt(q, 43, 50), ACL_ERROR_RT_QUEUE_FULL);
  EXPECT_GE(MsSince(t0), 45.0);
  EXPECT_EQ(PutInt(12345, 1, 0), ACL_ERROR_INVALID_QUEUE_ID);

  // Too small a buffer: the data stays queued.
  char small[4];
  size_t got = 0;
  EXPECT_EQ(acltdtDequeueData(q, small, sizeof small, &got, nullptr, 0, 0), ACL_ERROR_INVALID_PARAM);
  char out[64] = {};
  uint8_t uout[96] = {};
  ASSERT_EQ(acltdtDequeueData(q, out, sizeof out, &got, uout, 96, 0), ACL_SUCCESS);
  EXPECT_EQ(got, sizeof payload);
  EXPECT_STREQ(out, payload);
  EXPECT_EQ(std::memcmp(uout, user, 96), 0);
  EXPECT_EQ(acltdtDequeueData(q, out, sizeof out, nullptr, nullptr, 0, 0), ACL_ERROR_INVALID_PARAM);
  aclError rc;
  EXPECT_EQ(Int(q, 0, &rc), 42);
  EXPECT_EQ(rc, ACL_SUCCESS);
  (void)Int(q, 0, &rc);
  EXPECT_EQ(rc, ACL_ERROR_RT_QUEUE_EMPTY);
  t0 = std::chrono::steady_clock::now();
  (void)Int(q, 40, &rc);
  EXPECT_EQ(rc, ACL_ERROR_RT_QUEUE_EMPTY);
  EXPECT_GE(MsSince(t0), 35.0);
  EXPECT_EQ(acltdtEnqueueData(q, payload, 4, nullptr, 0, -5, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtDestroyQueue(q), ACL_SUCCESS);
}

TEST_F(TdtTest, SharedBuffers) {
  acltdtBuf buf = nullptr;
  EXPECT_EQ(acltdtAllocBuf(0, ACL_TDT_NORMAL_MEM, &buf), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtAllocBuf(16, 5, &buf), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtAllocBuf(16, ACL_TDT_NORMAL_MEM, nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(acltdtAllocBuf(64, ACL_TDT_NORMAL_MEM, &buf), ACL_SUCCESS);
  void* data = nullptr;
  size_t size = 0, len = 0;
  ASSERT_EQ(acltdtGetBufData(buf, &data, &size), ACL_SUCCESS);
  ASSERT_NE(data, nullptr);
  EXPECT_EQ(size, 64u);
  EXPECT_EQ(acltdtGetBufDataLen(buf, &len), ACL_SUCCESS);
  EXPECT_EQ(len, 64u);
  EXPECT_EQ(acltdtSetBufDataLen(buf, 65), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtSetBufDataLen(buf, 10), ACL_SUCCESS);
  EXPECT_EQ(acltdtGetBufDataLen(buf, &len), ACL_SUCCESS);
  EXPECT_EQ(len, 10u);
  std::memcpy(data, "0123456789", 10);

  const uint32_t tag[2] = {0xCAFEu, 0xBEEFu};
  EXPECT_EQ(acltdtSetBufUserData(buf, tag, sizeof tag, 88), ACL_SUCCESS);
  EXPECT_EQ(acltdtSetBufUserData(buf, tag, sizeof tag, 89), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtSetBufUserData(buf, tag, 97, 0), ACL_ERROR_INVALID_PARAM);
  uint32_t back[2] = {};
  EXPECT_EQ(acltdtGetBufUserData(buf, back, sizeof back, 88), ACL_SUCCESS);
  EXPECT_EQ(back[0], 0xCAFEu);
  EXPECT_EQ(back[1], 0xBEEFu);
  EXPECT_EQ(acltdtGetBufUserData(buf, back, 8, 90), ACL_ERROR_INVALID_PARAM);

  // Reference copies share the data area.
  acltdtBuf ref = nullptr;
  ASSERT_EQ(acltdtCopyBufRef(buf, &ref), ACL_SUCCESS);
  void* rdata = nullptr;
  ASSERT_EQ(acltdtGetBufData(ref, &rdata, &size), ACL_SUCCESS);
  EXPECT_EQ(rdata, data);
  EXPECT_EQ(acltdtFreeBuf(ref), ACL_SUCCESS);
  EXPECT_EQ(acltdtFreeBuf(ref), ACL_ERROR_INVALID_PARAM);

  // Enqueue hands the buffer to the queue; dequeue hands it back.
  const uint32_t q = MakeQueue(nullptr, 2);
  ASSERT_EQ(acltdtEnqueue(q, buf, 0), ACL_SUCCESS);
  EXPECT_EQ(acltdtGetBufDataLen(buf, &len), ACL_ERROR_INVALID_PARAM);  // no longer the program's
  acltdtBuf out = nullptr;
  ASSERT_EQ(acltdtDequeue(q, &out, 0), ACL_SUCCESS);
  EXPECT_EQ(out, buf);
  ASSERT_EQ(acltdtGetBufData(out, &data, &size), ACL_SUCCESS);
  EXPECT_EQ(std::memcmp(data, "0123456789", 10), 0);
  EXPECT_EQ(acltdtDequeue(q, &out, 0), ACL_ERROR_RT_QUEUE_EMPTY);
  EXPECT_EQ(acltdtFreeBuf(buf), ACL_SUCCESS);
  EXPECT_EQ(acltdtEnqueue(q, buf, 0), ACL_ERROR_INVALID_PARAM);  // freed
  EXPECT_EQ(acltdtFreeBuf(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtDestroyQueue(q), ACL_SUCCESS);
}

TEST_F(TdtTest, BufferChains) {
  acltdtBuf head = nullptr, b1 = nullptr, b2 = nullptr;
  ASSERT_EQ(acltdtAllocBuf(3, ACL_TDT_NORMAL_MEM, &head), ACL_SUCCESS);
  ASSERT_EQ(acltdtAllocBuf(2, ACL_TDT_NORMAL_MEM, &b1), ACL_SUCCESS);
  ASSERT_EQ(acltdtAllocBuf(4, ACL_TDT_NORMAL_MEM, &b2), ACL_SUCCESS);
  void* p = nullptr;
  size_t n = 0;
  acltdtGetBufData(head, &p, &n);
  std::memcpy(p, "abc", 3);
  acltdtGetBufData(b1, &p, &n);
  std::memcpy(p, "de", 2);
  acltdtGetBufData(b2, &p, &n);
  std::memcpy(p, "fghi", 4);
  EXPECT_EQ(acltdtAppendBufChain(head, head), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(acltdtAppendBufChain(head, b1), ACL_SUCCESS);
  ASSERT_EQ(acltdtAppendBufChain(head, b2), ACL_SUCCESS);
  EXPECT_EQ(acltdtAppendBufChain(head, b1), ACL_ERROR_INVALID_PARAM);  // already in a chain
  uint32_t num = 0;
  ASSERT_EQ(acltdtGetBufChainNum(head, &num), ACL_SUCCESS);
  EXPECT_EQ(num, 3u);
  acltdtBuf got = nullptr;
  EXPECT_EQ(acltdtGetBufFromChain(head, 0, &got), ACL_SUCCESS);
  EXPECT_EQ(got, head);
  EXPECT_EQ(acltdtGetBufFromChain(head, 2, &got), ACL_SUCCESS);
  EXPECT_EQ(got, b2);
  EXPECT_EQ(acltdtGetBufFromChain(head, 3, &got), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtFreeBuf(b1), ACL_ERROR_INVALID_PARAM);  // a chain member: free the head
  // A chain travels as one queue entry; DequeueData concatenates it.
  const uint32_t q = MakeQueue(nullptr, 2);
  ASSERT_EQ(acltdtEnqueue(q, head, -1), ACL_SUCCESS);
  char out[16] = {};
  size_t ret = 0;
  ASSERT_EQ(acltdtDequeueData(q, out, sizeof out, &ret, nullptr, 0, -1), ACL_SUCCESS);
  EXPECT_EQ(ret, 9u);
  EXPECT_EQ(std::string(out, ret), "abcdefghi");
  EXPECT_EQ(acltdtDestroyQueue(q), ACL_SUCCESS);
}

// The queue-route sample (S49) plus forwarding, back-pressure and cycles.
TEST_F(TdtTest, RoutesBindQueryForwardUnbind) {
  const uint32_t src = MakeQueue("route_src_queue", 4);
  const uint32_t dst = MakeQueue("route_dst_queue", 2);
  acltdtQueueRoute* route = acltdtCreateQueueRoute(src, dst);
  ASSERT_NE(route, nullptr);
  int32_t status = -1;
  size_t ret = 0;
  ASSERT_EQ(acltdtGetQueueRouteParam(route, ACL_TDT_QUEUE_ROUTE_STATUS_INT32, 4, &ret, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_TDT_QUEUE_ROUTE_UNBIND);
  acltdtQueueRouteList* list = acltdtCreateQueueRouteList();
  ASSERT_EQ(acltdtAddQueueRoute(list, route), ACL_SUCCESS);
  EXPECT_EQ(acltdtGetQueueRouteNum(list), 1u);
  ASSERT_EQ(acltdtBindQueueRoutes(list), ACL_SUCCESS);

  acltdtQueueRouteQueryInfo* info = acltdtCreateQueueRouteQueryInfo();
  acltdtQueueRouteList* found = acltdtCreateQueueRouteList();
  EXPECT_EQ(acltdtQueryQueueRoutes(info, found), ACL_ERROR_INVALID_PARAM);  // no mode yet
  acltdtQueueRouteQueryMode mode = ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST;
  ASSERT_EQ(acltdtSetQueueRouteQueryInfo(info, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof mode, &mode), 0);
  ASSERT_EQ(acltdtSetQueueRouteQueryInfo(info, ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32, sizeof src, &src), 0);
  EXPECT_EQ(acltdtQueryQueueRoutes(info, found), ACL_ERROR_INVALID_PARAM);  // no destination id yet
  ASSERT_EQ(acltdtSetQueueRouteQueryInfo(info, ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32, sizeof dst, &dst), 0);
  int bad_mode = 7;
  EXPECT_EQ(acltdtSetQueueRouteQueryInfo(info, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, 4, &bad_mode),
            ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(acltdtQueryQueueRoutes(info, found), ACL_SUCCESS);
  ASSERT_EQ(acltdtGetQueueRouteNum(found), 1u);
  acltdtQueueRoute* scratch = acltdtCreateQueueRoute(0, 0);
  ASSERT_EQ(acltdtGetQueueRoute(found, 0, scratch), ACL_SUCCESS);
  EXPECT_EQ(acltdtGetQueueRoute(found, 1, scratch), ACL_ERROR_INVALID_PARAM);
  uint32_t s = 0, d = 0;
  ASSERT_EQ(acltdtGetQueueRouteParam(scratch, ACL_TDT_QUEUE_ROUTE_SRC_UINT32, 4, &ret, &s), 0);
  ASSERT_EQ(acltdtGetQueueRouteParam(scratch, ACL_TDT_QUEUE_ROUTE_DST_UINT32, 4, &ret, &d), 0);
  ASSERT_EQ(acltdtGetQueueRouteParam(scratch, ACL_TDT_QUEUE_ROUTE_STATUS_INT32, 4, &ret, &status), 0);
  EXPECT_EQ(ret, 4u);
  EXPECT_EQ(s, src);
  EXPECT_EQ(d, dst);
  EXPECT_EQ(status, ACL_TDT_QUEUE_ROUTE_BIND);
  EXPECT_EQ(acltdtGetQueueRouteParam(scratch, ACL_TDT_QUEUE_ROUTE_STATUS_INT32, 2, &ret, &status),
            ACL_ERROR_INVALID_PARAM);
  // Query by source only and by destination only.
  acltdtQueueRouteQueryMode by_src = ACL_TDT_QUEUE_ROUTE_QUERY_SRC;
  ASSERT_EQ(acltdtSetQueueRouteQueryInfo(info, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, 4, &by_src), 0);
  ASSERT_EQ(acltdtQueryQueueRoutes(info, found), ACL_SUCCESS);
  EXPECT_EQ(acltdtGetQueueRouteNum(found), 1u);
  acltdtQueueRouteQueryMode abnormal = ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL;
  ASSERT_EQ(acltdtSetQueueRouteQueryInfo(info, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, 4, &abnormal), 0);
  ASSERT_EQ(acltdtQueryQueueRoutes(info, found), ACL_SUCCESS);
  EXPECT_EQ(acltdtGetQueueRouteNum(found), 0u);

  // Forwarding: data enqueued on src arrives on dst, in order.
  for (int i = 0; i < 2; ++i) ASSERT_EQ(PutInt(src, i, 0), ACL_SUCCESS);
  aclError rc;
  EXPECT_EQ(Int(dst, 0, &rc), 0);
  EXPECT_EQ(rc, ACL_SUCCESS);
  // Back-pressure: dst holds 1 and 2, then 3..6 wait in src (depth 4), then src is full.
  for (int i = 2; i < 7; ++i) ASSERT_EQ(PutInt(src, i, 0), ACL_SUCCESS) << i;
  EXPECT_EQ(PutInt(src, 7, 0), ACL_ERROR_RT_QUEUE_FULL);
  for (int i = 1; i < 7; ++i) {
    EXPECT_EQ(Int(dst, 0, &rc), i);
    EXPECT_EQ(rc, ACL_SUCCESS);
  }
  (void)Int(src, 0, &rc);
  EXPECT_EQ(rc, ACL_ERROR_RT_QUEUE_EMPTY);

  // A bound queue cannot be destroyed; a cycle cannot be bound.
  EXPECT_EQ(acltdtDestroyQueue(src), ACL_ERROR_FAILURE);
  acltdtQueueRoute* back = acltdtCreateQueueRoute(dst, src);
  acltdtQueueRouteList* cyc = acltdtCreateQueueRouteList();
  ASSERT_EQ(acltdtAddQueueRoute(cyc, back), ACL_SUCCESS);
  EXPECT_NE(acltdtBindQueueRoutes(cyc), ACL_SUCCESS);
  ASSERT_EQ(acltdtGetQueueRoute(cyc, 0, scratch), ACL_SUCCESS);
  ASSERT_EQ(acltdtGetQueueRouteParam(scratch, ACL_TDT_QUEUE_ROUTE_STATUS_INT32, 4, &ret, &status), 0);
  EXPECT_EQ(status, ACL_TDT_QUEUE_ROUTE_UNBIND);

  ASSERT_EQ(acltdtUnbindQueueRoutes(list), ACL_SUCCESS);
  EXPECT_NE(acltdtUnbindQueueRoutes(list), ACL_SUCCESS);  // not bound any more
  ASSERT_EQ(PutInt(src, 99, 0), ACL_SUCCESS);  // stays in src now
  EXPECT_EQ(Int(src, 0, &rc), 99);
  ASSERT_EQ(acltdtSetQueueRouteQueryInfo(info, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, 4, &by_src), 0);
  ASSERT_EQ(acltdtQueryQueueRoutes(info, found), ACL_SUCCESS);
  EXPECT_EQ(acltdtGetQueueRouteNum(found), 0u);

  EXPECT_EQ(acltdtDestroyQueueRouteList(cyc), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueueRoute(back), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueueRoute(scratch), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueueRouteList(found), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueueRouteQueryInfo(info), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueueRouteList(list), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueueRoute(route), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueueRoute(route), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtDestroyQueue(src), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueue(dst), ACL_SUCCESS);
}

TEST_F(TdtTest, RouteFanOutAndChains) {
  const uint32_t a = MakeQueue(nullptr, 4), b = MakeQueue(nullptr, 4), c = MakeQueue(nullptr, 4);
  const uint32_t e = MakeQueue(nullptr, 4);
  acltdtQueueRoute* ab = acltdtCreateQueueRoute(a, b);
  acltdtQueueRoute* ac = acltdtCreateQueueRoute(a, c);
  acltdtQueueRoute* ce = acltdtCreateQueueRoute(c, e);
  acltdtQueueRoute* missing = acltdtCreateQueueRoute(a, 4321);
  acltdtQueueRouteList* list = acltdtCreateQueueRouteList();
  acltdtAddQueueRoute(list, ab);
  acltdtAddQueueRoute(list, ac);
  acltdtAddQueueRoute(list, ce);
  acltdtAddQueueRoute(list, missing);
  EXPECT_NE(acltdtBindQueueRoutes(list), ACL_SUCCESS);  // one route names no queue
  acltdtQueueRoute* r = acltdtCreateQueueRoute(0, 0);
  int32_t st = -1;
  size_t ret = 0;
  const int32_t want[4] = {1, 1, 1, 0};
  for (size_t i = 0; i < 4; ++i) {
    ASSERT_EQ(acltdtGetQueueRoute(list, i, r), ACL_SUCCESS);
    ASSERT_EQ(acltdtGetQueueRouteParam(r, ACL_TDT_QUEUE_ROUTE_STATUS_INT32, 4, &ret, &st), ACL_SUCCESS);
    EXPECT_EQ(st, want[i]) << "route " << i;
  }
  ASSERT_EQ(PutInt(a, 5, 0), ACL_SUCCESS);
  aclError rc;
  EXPECT_EQ(Int(b, 0, &rc), 5);
  EXPECT_EQ(rc, ACL_SUCCESS);
  EXPECT_EQ(Int(e, 0, &rc), 5);  // a -> c -> e
  EXPECT_EQ(rc, ACL_SUCCESS);
  (void)Int(c, 0, &rc);
  EXPECT_EQ(rc, ACL_ERROR_RT_QUEUE_EMPTY);
  EXPECT_NE(acltdtUnbindQueueRoutes(list), ACL_SUCCESS);  // the missing one was never bound
  for (uint32_t q : {a, b, c, e}) EXPECT_EQ(acltdtDestroyQueue(q), ACL_SUCCESS);
  for (auto* x : {ab, ac, ce, missing, r}) EXPECT_EQ(acltdtDestroyQueueRoute(x), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueueRouteList(list), ACL_SUCCESS);
}

TEST_F(TdtTest, QueueProducerConsumerThreads) {
  constexpr int kCount = 2000;
  const uint32_t q = MakeQueue("pc_queue", 3);
  std::atomic<int> prc{0};
  std::thread producer([&] {
    for (int i = 0; i < kCount; ++i) {
      const aclError rc = PutInt(q, i, -1);
      if (rc != ACL_SUCCESS && prc == 0) prc = rc;
    }
  });
  int bad = 0;
  for (int i = 0; i < kCount; ++i) {
    aclError rc;
    if (Int(q, 5000, &rc) != i || rc != ACL_SUCCESS) ++bad;
  }
  producer.join();
  EXPECT_EQ(prc.load(), 0);
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(acltdtDestroyQueue(q), ACL_SUCCESS);
}

TEST_F(TdtTest, DestroyWakesWaiters) {
  const uint32_t q = MakeQueue(nullptr, 2);
  std::atomic<int> rc{-1};
  std::thread waiter([&] {
    aclError r;
    (void)Int(q, -1, &r);
    rc = r;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_EQ(rc.load(), -1);  // still waiting
  EXPECT_EQ(acltdtDestroyQueue(q), ACL_SUCCESS);
  waiter.join();
  EXPECT_EQ(rc.load(), ACL_ERROR_INVALID_QUEUE_ID);
}

TEST_F(TdtTest, GrantAndAttach) {
  const uint32_t q = MakeQueue(nullptr, 2);
  uint32_t perm = 0;
  ASSERT_EQ(acltdtAttachQueue(q, 0, &perm), ACL_SUCCESS);
  EXPECT_EQ(perm, static_cast<uint32_t>(ACL_TDT_QUEUE_PERMISSION_MANAGE | ACL_TDT_QUEUE_PERMISSION_DEQUEUE |
                                        ACL_TDT_QUEUE_PERMISSION_ENQUEUE));
  EXPECT_EQ(acltdtAttachQueue(q, 0, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtAttachQueue(777, 0, &perm), ACL_ERROR_INVALID_QUEUE_ID);
  EXPECT_EQ(acltdtGrantQueue(q, static_cast<int32_t>(getpid()) + 1, ACL_TDT_QUEUE_PERMISSION_DEQUEUE, 0), 0);
  EXPECT_EQ(acltdtGrantQueue(q, 1234, 8, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtGrantQueue(q, 1234, 0, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtGrantQueue(q, -1, 2, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtGrantQueue(777, 1234, 2, 0), ACL_ERROR_INVALID_QUEUE_ID);
  EXPECT_EQ(acltdtDestroyQueue(q), ACL_SUCCESS);
}
