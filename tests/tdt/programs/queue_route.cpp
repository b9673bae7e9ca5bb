// The queue-route flow (S49): two queues, one route, bind, query, read the
// route back, unbind, destroy.
#include "2_advanced_features/tdt_common_utils.h"
#include "acl/acl.h"
#include "acl/acl_tdt_queue.h"
#include "utils.h"

namespace {

aclError CreateQueue(const char* name, uint32_t* qid) {
  acltdtQueueAttr* attr = acltdtCreateQueueAttr();
  uint32_t depth = 4;
  acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof(const char*), &name);
  acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof(depth), &depth);
  aclError ret = acltdtCreateQueue(attr, qid);
  if (ret == ACL_ERROR_INVALID_PARAM) {  // a stale queue of the same name: retry unnamed
    acltdtDestroyQueueAttr(attr);
    attr = acltdtCreateQueueAttr();
    acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof(depth), &depth);
    ret = acltdtCreateQueue(attr, qid);
  }
  acltdtDestroyQueueAttr(attr);
  return ret;
}

}  // namespace

int main() {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
  uint32_t src = 0, dst = 0;
  if (CreateQueue("route_src_queue", &src) != ACL_SUCCESS || CreateQueue("route_dst_queue", &dst) != ACL_SUCCESS)
    return 1;
  acltdtQueueRoute* route = acltdtCreateQueueRoute(src, dst);
  acltdtQueueRouteList* list = acltdtCreateQueueRouteList();
  if (acltdtAddQueueRoute(list, route) != ACL_SUCCESS || acltdtBindQueueRoutes(list) != ACL_SUCCESS) return 1;
  acltdtQueueRouteQueryInfo* info = acltdtCreateQueueRouteQueryInfo();
  acltdtQueueRouteQueryMode mode = ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST;
  acltdtSetQueueRouteQueryInfo(info, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof(mode), &mode);
  acltdtSetQueueRouteQueryInfo(info, ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32, sizeof(src), &src);
  acltdtSetQueueRouteQueryInfo(info, ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32, sizeof(dst), &dst);
  acltdtQueueRouteList* found = acltdtCreateQueueRouteList();
  if (acltdtQueryQueueRoutes(info, found) != ACL_SUCCESS) return 1;
  INFO_LOG("Queried route count: %zu", acltdtGetQueueRouteNum(found));
  acltdtQueueRoute* scratch = acltdtCreateQueueRoute(0, 0);
  if (acltdtGetQueueRoute(found, 0, scratch) != ACL_SUCCESS) return 1;
  uint32_t s = 0, d = 0;
  int32_t status = 0;
  size_t ret = 0;
  acltdtGetQueueRouteParam(scratch, ACL_TDT_QUEUE_ROUTE_SRC_UINT32, sizeof(s), &ret, &s);
  acltdtGetQueueRouteParam(scratch, ACL_TDT_QUEUE_ROUTE_DST_UINT32, sizeof(d), &ret, &d);
  acltdtGetQueueRouteParam(scratch, ACL_TDT_QUEUE_ROUTE_STATUS_INT32, sizeof(status), &ret, &status);
  INFO_LOG("Route: src=%u dst=%u status=%d", s, d, status);
  if (acltdtUnbindQueueRoutes(list) != ACL_SUCCESS) return 1;
  acltdtDestroyQueueRoute(scratch);
  acltdtDestroyQueueRouteList(found);
  acltdtDestroyQueueRouteQueryInfo(info);
  acltdtDestroyQueueRouteList(list);
  acltdtDestroyQueueRoute(route);
  if (acltdtDestroyQueue(src) != ACL_SUCCESS || acltdtDestroyQueue(dst) != ACL_SUCCESS) return 1;
  aclrtResetDevice(0);
  aclFinalize();
  INFO_LOG("queue route sample run successfully");
  return 0;
}
