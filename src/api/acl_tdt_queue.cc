// acl/acl_tdt_queue.h: queue attributes, queues, routes and shared buffers.
// The queues and routes live in tdt::QueueService, the buffers in
// tdt::MbufTable; this file checks arguments and converts.
#include <cstring>
#include <string>

#include "acl/acl_tdt_queue.h"
#include "api/api_common.h"
#include "tdt/codes.h"
#include "tdt/mbuf.h"
#include "tdt/objects.h"
#include "tdt/queue_service.h"

namespace api = simnpu::api;
namespace tdt = simnpu::tdt;
namespace core = simnpu::core;

namespace {

constexpr uint32_t kDefaultDepth = 8;
constexpr uint32_t kPushWorkMode = 1;  // the reference names a "push" default, not its value

aclError NotLive(const char* func, const char* param, const void* p, const char* what) {
  simnpu::dfx::ReportErr(api::LogModule::kAscendcl, api::ErrCode::EH0009,
                         {func, api::Hex(p), param, std::string("not a live ") + what});
  return ACL_ERROR_INVALID_PARAM;
}

aclError CheckTimeout(const char* func, int32_t timeout) {
  if (timeout < -1) return api::BadParam(func, "timeout", std::to_string(timeout), "-1, 0 or a positive number of ms");
  return ACL_SUCCESS;
}

// Copies a small integer parameter of `len` bytes (1..4) into *out.
aclError ReadU32(const char* func, const char* what, size_t len, const void* param, uint32_t* out) {
  if (len == 0 || len > sizeof(uint32_t))
    return api::BadParam(func, "len", std::to_string(len), std::string("1..4 bytes for ") + what);
  uint32_t v = 0;
  std::memcpy(&v, param, len);
  *out = v;
  return ACL_SUCCESS;
}

aclError WriteOut(const char* func, size_t len, size_t* ret, void* param, const void* src, size_t n) {
  if (len < n) return api::BadParam(func, "len", std::to_string(len), "at least " + std::to_string(n) + " bytes");
  std::memcpy(param, src, n);
  *ret = n;
  return ACL_SUCCESS;
}

// The live program-owned buffer behind h, or a 100000 report.
#define TDT_FIND_BUF(var, h)                                               \
  auto var = tdt::MbufTable::Get().Find(h);                                \
  if (!var) return NotLive(__func__, #h, h, "buffer (acltdtAllocBuf / acltdtDequeue / acltdtCopyBufRef)")

}  // namespace

// ---- queue attributes ----

acltdtQueueAttr* acltdtCreateQueueAttr(void) {
  auto a = std::make_unique<tagMemQueueAttr>();
  std::memset(a.get(), 0, sizeof *a);
  a->depth = kDefaultDepth;
  a->workMode = kPushWorkMode;
  return tdt::QueueAttrs().Add(std::move(a));
}

aclError acltdtDestroyQueueAttr(const acltdtQueueAttr* attr) {
  ACL_REQUIRE_NOT_NULL(attr);
  if (!tdt::QueueAttrs().Take(attr)) return NotLive(__func__, "attr", attr, "queue attribute");
  return ACL_SUCCESS;
}

aclError acltdtSetQueueAttr(acltdtQueueAttr* attr, acltdtQueueAttrType type, size_t len, const void* param) {
  ACL_REQUIRE_NOT_NULL(attr);
  ACL_REQUIRE_NOT_NULL(param);
  if (!tdt::QueueAttrs().Has(attr)) return NotLive(__func__, "attr", attr, "queue attribute");
  switch (api::RawEnum(type)) {
    case ACL_TDT_QUEUE_NAME_PTR: {
      if (len != sizeof(const char*))
        return api::BadParam(__func__, "len", std::to_string(len), "sizeof(const char*) for NAME_PTR");
      const char* name = nullptr;
      std::memcpy(&name, param, sizeof name);
      if (name == nullptr) return api::NullParam(__func__, "*param (the queue name)");
      const size_t n = strnlen(name, sizeof attr->name);
      if (n + 1 > sizeof attr->name)
        return api::BadParam(__func__, "param", "(a long name)", "a name of at most 127 characters");
      std::memcpy(attr->name, name, n);
      attr->name[n] = '\0';
      return ACL_SUCCESS;
    }
    case ACL_TDT_QUEUE_DEPTH_UINT32: {
      uint32_t d = 0;
      if (aclError rc = ReadU32(__func__, "DEPTH_UINT32", len, param, &d)) return rc;
      attr->depth = d;
      return ACL_SUCCESS;
    }
    default:
      return api::BadParam(__func__, "type", std::to_string(api::RawEnum(type)), "NAME_PTR (0) or DEPTH_UINT32 (1)");
  }
}

aclError acltdtGetQueueAttr(const acltdtQueueAttr* attr, acltdtQueueAttrType type, size_t len, size_t* paramRetSize,
                            void* param) {
  ACL_REQUIRE_NOT_NULL(attr);
  ACL_REQUIRE_NOT_NULL(paramRetSize);
  ACL_REQUIRE_NOT_NULL(param);
  if (!tdt::QueueAttrs().Has(attr)) return NotLive(__func__, "attr", attr, "queue attribute");
  switch (api::RawEnum(type)) {
    case ACL_TDT_QUEUE_NAME_PTR: {
      const char* name = attr->name;
      return WriteOut(__func__, len, paramRetSize, param, &name, sizeof name);
    }
    case ACL_TDT_QUEUE_DEPTH_UINT32:
      return WriteOut(__func__, len, paramRetSize, param, &attr->depth, sizeof attr->depth);
    default:
      return api::BadParam(__func__, "type", std::to_string(api::RawEnum(type)), "NAME_PTR (0) or DEPTH_UINT32 (1)");
  }
}

// ---- queues ----

aclError acltdtCreateQueue(const acltdtQueueAttr* attr, uint32_t* qid) {
  ACL_REQUIRE_NOT_NULL(attr);
  ACL_REQUIRE_NOT_NULL(qid);
  if (!tdt::QueueAttrs().Has(attr)) return NotLive(__func__, "attr", attr, "queue attribute");
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(__func__, ctx.status());
  const std::string name(attr->name, strnlen(attr->name, sizeof attr->name));
  auto id = tdt::QueueService::Get().Create(name, attr->depth, (*ctx)->device_id(), /*hidden=*/false);
  if (!id.ok()) return api::Fail(__func__, id.status());
  *qid = *id;
  return ACL_SUCCESS;
}

aclError acltdtDestroyQueue(uint32_t qid) {
  ACL_REQUIRE_OK(tdt::QueueService::Get().Destroy(qid));
  return ACL_SUCCESS;
}

aclError acltdtEnqueue(uint32_t qid, acltdtBuf buf, int32_t timeout) {
  ACL_REQUIRE_NOT_NULL(buf);
  if (aclError rc = CheckTimeout(__func__, timeout)) return rc;
  TDT_FIND_BUF(b, buf);
  if (b->head != nullptr)
    return api::BadParam(__func__, "buf", api::Hex(buf), "a chain head (this buffer is appended to another)");
  // The queue takes the buffer only if the enqueue succeeds.
  auto& table = tdt::MbufTable::Get();
  table.Release(buf);
  simnpu::Status st = tdt::QueueService::Get().Enqueue(qid, b, timeout);
  if (!st.ok()) {
    table.Adopt(b);
    return api::Fail(__func__, st);
  }
  return ACL_SUCCESS;
}

aclError acltdtDequeue(uint32_t qid, acltdtBuf* buf, int32_t timeout) {
  ACL_REQUIRE_NOT_NULL(buf);
  if (aclError rc = CheckTimeout(__func__, timeout)) return rc;
  auto b = tdt::QueueService::Get().Dequeue(qid, timeout);
  if (!b.ok()) return api::Fail(__func__, b.status());
  *buf = tdt::MbufTable::Get().Adopt(*b);
  return ACL_SUCCESS;
}

aclError acltdtEnqueueData(uint32_t qid, const void* data, size_t dataSize, const void* userData, size_t userDataSize,
                           int32_t timeout, uint32_t rsv) {
  (void)rsv;  // reserved
  if (data == nullptr && dataSize > 0) return api::NullParam(__func__, "data");
  if (userData == nullptr && userDataSize > 0) return api::NullParam(__func__, "userData");
  if (userDataSize > tdt::kUserDataBytes)
    return api::BadParam(__func__, "userDataSize", std::to_string(userDataSize), "at most 96 bytes");
  if (aclError rc = CheckTimeout(__func__, timeout)) return rc;
  auto b = tdt::MakeMbuf(dataSize);
  if (dataSize) std::memcpy(b->data(), data, dataSize);
  if (userDataSize) std::memcpy(b->user, userData, userDataSize);
  ACL_REQUIRE_OK(tdt::QueueService::Get().Enqueue(qid, std::move(b), timeout));
  return ACL_SUCCESS;
}

aclError acltdtDequeueData(uint32_t qid, void* data, size_t dataSize, size_t* retDataSize, void* userData,
                           size_t userDataSize, int32_t timeout) {
  ACL_REQUIRE_NOT_NULL(retDataSize);
  if (data == nullptr && dataSize > 0) return api::NullParam(__func__, "data");
  if (userData == nullptr && userDataSize > 0) return api::NullParam(__func__, "userData");
  if (userDataSize > tdt::kUserDataBytes)
    return api::BadParam(__func__, "userDataSize", std::to_string(userDataSize), "at most 96 bytes");
  if (aclError rc = CheckTimeout(__func__, timeout)) return rc;
  auto got = tdt::QueueService::Get().Dequeue(qid, timeout, dataSize);
  if (!got.ok()) return api::Fail(__func__, got.status());
  const tdt::Mbuf& b = **got;
  uint8_t* out = static_cast<uint8_t*>(data);
  size_t n = 0;
  auto append = [&](const tdt::Mbuf& m) {
    if (m.data_len) std::memcpy(out + n, m.area->data(), m.data_len);
    n += m.data_len;
  };
  append(b);
  for (auto& c : b.chain) append(*c);
  if (userDataSize) std::memcpy(userData, b.user, userDataSize);
  *retDataSize = n;
  return ACL_SUCCESS;
}

aclError acltdtGrantQueue(uint32_t qid, int32_t pid, uint32_t permission, int32_t timeout) {
  if (aclError rc = CheckTimeout(__func__, timeout)) return rc;
  ACL_REQUIRE_OK(tdt::QueueService::Get().Grant(qid, pid, permission));
  return ACL_SUCCESS;
}

aclError acltdtAttachQueue(uint32_t qid, int32_t timeout, uint32_t* permission) {
  ACL_REQUIRE_NOT_NULL(permission);
  if (aclError rc = CheckTimeout(__func__, timeout)) return rc;
  auto p = tdt::QueueService::Get().Attach(qid);
  if (!p.ok()) return api::Fail(__func__, p.status());
  *permission = *p;
  return ACL_SUCCESS;
}

// ---- routes ----

acltdtQueueRoute* acltdtCreateQueueRoute(uint32_t srcId, uint32_t dstId) {
  auto r = std::make_unique<acltdtQueueRoute>();
  r->src = srcId;
  r->dst = dstId;
  r->status = ACL_TDT_QUEUE_ROUTE_UNBIND;
  return tdt::Routes().Add(std::move(r));
}

aclError acltdtDestroyQueueRoute(const acltdtQueueRoute* route) {
  ACL_REQUIRE_NOT_NULL(route);
  if (!tdt::Routes().Take(route)) return NotLive(__func__, "route", route, "queue route");
  return ACL_SUCCESS;
}

aclError acltdtGetQueueRouteParam(const acltdtQueueRoute* route, acltdtQueueRouteParamType type, size_t len,
                                  size_t* paramRetSize, void* param) {
  ACL_REQUIRE_NOT_NULL(route);
  ACL_REQUIRE_NOT_NULL(paramRetSize);
  ACL_REQUIRE_NOT_NULL(param);
  if (!tdt::Routes().Has(route)) return NotLive(__func__, "route", route, "queue route");
  switch (api::RawEnum(type)) {
    case ACL_TDT_QUEUE_ROUTE_SRC_UINT32: return WriteOut(__func__, len, paramRetSize, param, &route->src, 4);
    case ACL_TDT_QUEUE_ROUTE_DST_UINT32: return WriteOut(__func__, len, paramRetSize, param, &route->dst, 4);
    case ACL_TDT_QUEUE_ROUTE_STATUS_INT32: return WriteOut(__func__, len, paramRetSize, param, &route->status, 4);
    default:
      return api::BadParam(__func__, "type", std::to_string(api::RawEnum(type)),
                           "SRC_UINT32 (0), DST_UINT32 (1) or STATUS_INT32 (2)");
  }
}

acltdtQueueRouteList* acltdtCreateQueueRouteList(void) {
  return tdt::RouteLists().Add(std::make_unique<acltdtQueueRouteList>());
}

aclError acltdtDestroyQueueRouteList(const acltdtQueueRouteList* routeList) {
  ACL_REQUIRE_NOT_NULL(routeList);
  if (!tdt::RouteLists().Take(routeList)) return NotLive(__func__, "routeList", routeList, "route list");
  return ACL_SUCCESS;
}

aclError acltdtAddQueueRoute(acltdtQueueRouteList* routeList, const acltdtQueueRoute* route) {
  ACL_REQUIRE_NOT_NULL(routeList);
  ACL_REQUIRE_NOT_NULL(route);
  if (!tdt::RouteLists().Has(routeList)) return NotLive(__func__, "routeList", routeList, "route list");
  if (!tdt::Routes().Has(route)) return NotLive(__func__, "route", route, "queue route");
  routeList->routes.push_back(*route);
  return ACL_SUCCESS;
}

aclError acltdtGetQueueRoute(const acltdtQueueRouteList* routeList, size_t index, acltdtQueueRoute* route) {
  ACL_REQUIRE_NOT_NULL(routeList);
  ACL_REQUIRE_NOT_NULL(route);
  if (!tdt::RouteLists().Has(routeList)) return NotLive(__func__, "routeList", routeList, "route list");
  if (!tdt::Routes().Has(route)) return NotLive(__func__, "route", route, "queue route");
  if (index >= routeList->routes.size())
    return api::BadParam(__func__, "index", std::to_string(index),
                         "less than the list's " + std::to_string(routeList->routes.size()) + " routes");
  *route = routeList->routes[index];
  return ACL_SUCCESS;
}

size_t acltdtGetQueueRouteNum(const acltdtQueueRouteList* routeList) {
  if (routeList == nullptr || !tdt::RouteLists().Has(routeList)) return 0;
  return routeList->routes.size();
}

namespace {

// Binds or unbinds every route of the list; success only if all succeed.
aclError ForEachRoute(const char* func, acltdtQueueRouteList* list, bool bind) {
  simnpu::Status first;
  for (acltdtQueueRoute& r : list->routes) {
    int32_t status = r.status;
    simnpu::Status st = bind ? tdt::QueueService::Get().Bind(r.src, r.dst, &status)
                             : tdt::QueueService::Get().Unbind(r.src, r.dst, &status);
    r.status = status;
    if (!st.ok() && first.ok()) first = st;
  }
  if (first.ok()) return ACL_SUCCESS;
  return api::Fail(func, first);
}

}  // namespace

aclError acltdtBindQueueRoutes(acltdtQueueRouteList* qRouteList) {
  ACL_REQUIRE_NOT_NULL(qRouteList);
  if (!tdt::RouteLists().Has(qRouteList)) return NotLive(__func__, "qRouteList", qRouteList, "route list");
  return ForEachRoute(__func__, qRouteList, true);
}

aclError acltdtUnbindQueueRoutes(acltdtQueueRouteList* qRouteList) {
  ACL_REQUIRE_NOT_NULL(qRouteList);
  if (!tdt::RouteLists().Has(qRouteList)) return NotLive(__func__, "qRouteList", qRouteList, "route list");
  return ForEachRoute(__func__, qRouteList, false);
}

acltdtQueueRouteQueryInfo* acltdtCreateQueueRouteQueryInfo(void) {
  return tdt::RouteQueries().Add(std::make_unique<acltdtQueueRouteQueryInfo>());
}

aclError acltdtDestroyQueueRouteQueryInfo(const acltdtQueueRouteQueryInfo* info) {
  ACL_REQUIRE_NOT_NULL(info);
  if (!tdt::RouteQueries().Take(info)) return NotLive(__func__, "info", info, "route query info");
  return ACL_SUCCESS;
}

aclError acltdtSetQueueRouteQueryInfo(acltdtQueueRouteQueryInfo* param, acltdtQueueRouteQueryInfoParamType type,
                                      size_t len, const void* value) {
  ACL_REQUIRE_NOT_NULL(param);
  ACL_REQUIRE_NOT_NULL(value);
  if (!tdt::RouteQueries().Has(param)) return NotLive(__func__, "param", param, "route query info");
  uint32_t v = 0;
  switch (api::RawEnum(type)) {
    case ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM: {
      if (aclError rc = ReadU32(__func__, "MODE_ENUM", len, value, &v)) return rc;
      const int mode = static_cast<int>(v);
      if (mode != ACL_TDT_QUEUE_ROUTE_QUERY_SRC && mode != ACL_TDT_QUEUE_ROUTE_QUERY_DST &&
          mode != ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST && mode != ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL)
        return api::BadParam(__func__, "value", std::to_string(mode), "an acltdtQueueRouteQueryMode (0, 1, 2, 100)");
      param->mode = mode;
      return ACL_SUCCESS;
    }
    case ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32:
      if (aclError rc = ReadU32(__func__, "SRC_ID_UINT32", len, value, &v)) return rc;
      param->src = v;
      param->has_src = true;
      return ACL_SUCCESS;
    case ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32:
      if (aclError rc = ReadU32(__func__, "DST_ID_UINT32", len, value, &v)) return rc;
      param->dst = v;
      param->has_dst = true;
      return ACL_SUCCESS;
    default:
      return api::BadParam(__func__, "type", std::to_string(api::RawEnum(type)),
                           "MODE_ENUM (0), SRC_ID_UINT32 (1) or DST_ID_UINT32 (2)");
  }
}

aclError acltdtQueryQueueRoutes(const acltdtQueueRouteQueryInfo* queryInfo, acltdtQueueRouteList* qRouteList) {
  ACL_REQUIRE_NOT_NULL(queryInfo);
  ACL_REQUIRE_NOT_NULL(qRouteList);
  if (!tdt::RouteQueries().Has(queryInfo)) return NotLive(__func__, "queryInfo", queryInfo, "route query info");
  if (!tdt::RouteLists().Has(qRouteList)) return NotLive(__func__, "qRouteList", qRouteList, "route list");
  const int mode = queryInfo->mode;
  if (mode < 0) return api::BadParam(__func__, "queryInfo", "(no mode)", "a query info with MODE_ENUM set");
  if ((mode == ACL_TDT_QUEUE_ROUTE_QUERY_SRC || mode == ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST) && !queryInfo->has_src)
    return api::BadParam(__func__, "queryInfo", "(no source id)", "SRC_ID_UINT32 set for this mode");
  if ((mode == ACL_TDT_QUEUE_ROUTE_QUERY_DST || mode == ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST) && !queryInfo->has_dst)
    return api::BadParam(__func__, "queryInfo", "(no destination id)", "DST_ID_UINT32 set for this mode");
  qRouteList->routes.clear();
  for (const tdt::RouteState& r : tdt::QueueService::Get().Query(mode, queryInfo->src, queryInfo->dst)) {
    acltdtQueueRoute q;
    q.src = r.src;
    q.dst = r.dst;
    q.status = r.status;
    qRouteList->routes.push_back(q);
  }
  return ACL_SUCCESS;
}

// ---- shared buffers ----

aclError acltdtAllocBuf(size_t size, uint32_t type, acltdtBuf* buf) {
  ACL_REQUIRE_NOT_NULL(buf);
  if (size == 0) return api::BadParam(__func__, "size", "0", "a positive number of bytes");
  if (type != ACL_TDT_NORMAL_MEM && type != ACL_TDT_DVPP_MEM)
    return api::BadParam(__func__, "type", std::to_string(type), "ACL_TDT_NORMAL_MEM (0) or ACL_TDT_DVPP_MEM (1)");
  *buf = tdt::MbufTable::Get().Adopt(tdt::MakeMbuf(size));
  return ACL_SUCCESS;
}

aclError acltdtFreeBuf(acltdtBuf buf) {
  ACL_REQUIRE_NOT_NULL(buf);
  TDT_FIND_BUF(b, buf);
  if (b->head != nullptr)
    return api::BadParam(__func__, "buf", api::Hex(buf),
                         "a buffer that is not appended to a chain (free the chain's head)");
  tdt::MbufTable::Get().Release(buf);
  return ACL_SUCCESS;
}

aclError acltdtGetBufData(const acltdtBuf buf, void** dataPtr, size_t* size) {
  ACL_REQUIRE_NOT_NULL(buf);
  ACL_REQUIRE_NOT_NULL(dataPtr);
  ACL_REQUIRE_NOT_NULL(size);
  TDT_FIND_BUF(b, buf);
  *dataPtr = b->data();
  *size = b->capacity();
  return ACL_SUCCESS;
}

aclError acltdtSetBufDataLen(acltdtBuf buf, size_t len) {
  ACL_REQUIRE_NOT_NULL(buf);
  TDT_FIND_BUF(b, buf);
  if (len > b->capacity())
    return api::BadParam(__func__, "len", std::to_string(len),
                         "at most the buffer's " + std::to_string(b->capacity()) + " bytes");
  b->data_len = len;
  return ACL_SUCCESS;
}

aclError acltdtGetBufDataLen(acltdtBuf buf, size_t* len) {
  ACL_REQUIRE_NOT_NULL(buf);
  ACL_REQUIRE_NOT_NULL(len);
  TDT_FIND_BUF(b, buf);
  *len = b->data_len;
  return ACL_SUCCESS;
}

aclError acltdtAppendBufChain(acltdtBuf headBuf, acltdtBuf buf) {
  ACL_REQUIRE_NOT_NULL(headBuf);
  ACL_REQUIRE_NOT_NULL(buf);
  TDT_FIND_BUF(head, headBuf);
  TDT_FIND_BUF(b, buf);
  if (head == b) return api::BadParam(__func__, "buf", api::Hex(buf), "a buffer other than the chain head");
  if (head->head != nullptr)
    return api::BadParam(__func__, "headBuf", api::Hex(headBuf), "a chain head (it is appended to another buffer)");
  if (b->head != nullptr || !b->chain.empty())
    return api::BadParam(__func__, "buf", api::Hex(buf), "a single buffer (not in a chain, no chain of its own)");
  if (head->chain.size() + 1 >= tdt::kMaxChainBuffers)
    return api::BadParam(__func__, "headBuf", api::Hex(headBuf), "a chain of fewer than 128 buffers");
  b->head = head.get();
  head->chain.push_back(b);
  return ACL_SUCCESS;
}

aclError acltdtGetBufChainNum(acltdtBuf headBuf, uint32_t* num) {
  ACL_REQUIRE_NOT_NULL(headBuf);
  ACL_REQUIRE_NOT_NULL(num);
  TDT_FIND_BUF(head, headBuf);
  *num = static_cast<uint32_t>(head->chain.size() + 1);
  return ACL_SUCCESS;
}

aclError acltdtGetBufFromChain(acltdtBuf headBuf, uint32_t index, acltdtBuf* buf) {
  ACL_REQUIRE_NOT_NULL(headBuf);
  ACL_REQUIRE_NOT_NULL(buf);
  TDT_FIND_BUF(head, headBuf);
  if (index > head->chain.size())
    return api::BadParam(__func__, "index", std::to_string(index),
                         "less than the chain's " + std::to_string(head->chain.size() + 1) + " buffers");
  *buf = index == 0 ? head.get() : head->chain[index - 1].get();
  return ACL_SUCCESS;
}

aclError acltdtGetBufUserData(const acltdtBuf buf, void* dataPtr, size_t size, size_t offset) {
  ACL_REQUIRE_NOT_NULL(buf);
  ACL_REQUIRE_NOT_NULL(dataPtr);
  TDT_FIND_BUF(b, buf);
  if (size > tdt::kUserDataBytes || offset > tdt::kUserDataBytes || size + offset > tdt::kUserDataBytes)
    return api::BadParam(__func__, "size", std::to_string(size) + " at offset " + std::to_string(offset),
                         "offset + size <= 96");
  if (size) std::memcpy(dataPtr, b->user + offset, size);
  return ACL_SUCCESS;
}

aclError acltdtSetBufUserData(acltdtBuf buf, const void* dataPtr, size_t size, size_t offset) {
  ACL_REQUIRE_NOT_NULL(buf);
  ACL_REQUIRE_NOT_NULL(dataPtr);
  TDT_FIND_BUF(b, buf);
  if (size > tdt::kUserDataBytes || offset > tdt::kUserDataBytes || size + offset > tdt::kUserDataBytes)
    return api::BadParam(__func__, "size", std::to_string(size) + " at offset " + std::to_string(offset),
                         "offset + size <= 96");
  if (size) std::memcpy(b->user + offset, dataPtr, size);
  return ACL_SUCCESS;
}

aclError acltdtCopyBufRef(const acltdtBuf buf, acltdtBuf* newBuf) {
  ACL_REQUIRE_NOT_NULL(buf);
  ACL_REQUIRE_NOT_NULL(newBuf);
  TDT_FIND_BUF(b, buf);
  if (!b->chain.empty() || b->head != nullptr)
    return api::BadParam(__func__, "buf", api::Hex(buf), "a buffer that is not part of a chain");
  auto c = std::make_shared<tdt::Mbuf>();
  c->area = b->area;  // same data area
  c->data_len = b->data_len;
  std::memcpy(c->user, b->user, sizeof c->user);
  *newBuf = tdt::MbufTable::Get().Adopt(c);
  return ACL_SUCCESS;
}
