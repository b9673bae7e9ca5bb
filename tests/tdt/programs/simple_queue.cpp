// The simple-queue flow (S48): attributes, create, destroy.
#include "2_advanced_features/tdt_common_utils.h"
#include "acl/acl.h"
#include "acl/acl_tdt_queue.h"
#include "utils.h"

int main() {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
  acltdtQueueAttr* attr = acltdtCreateQueueAttr();
  if (attr == nullptr) return 1;
  const char* name = "simple_queue";
  uint32_t depth = 4;
  if (acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof(const char*), &name) != ACL_SUCCESS) return 1;
  if (acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof(uint32_t), &depth) != ACL_SUCCESS) return 1;
  char* gotName = nullptr;
  uint32_t gotDepth = 0;
  size_t retSize = 0;
  if (acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof(gotName), &retSize, &gotName) != ACL_SUCCESS) return 1;
  if (acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof(gotDepth), &retSize, &gotDepth) != ACL_SUCCESS)
    return 1;
  INFO_LOG("QueueAttr name=%s, depth=%u", gotName, gotDepth);
  uint32_t qid = 0;
  if (acltdtCreateQueue(attr, &qid) != ACL_SUCCESS) return 1;
  INFO_LOG("Created queue id=%u", qid);
  if (acltdtDestroyQueue(qid) != ACL_SUCCESS) return 1;
  acltdtDestroyQueueAttr(attr);
  aclrtResetDevice(0);
  aclFinalize();
  INFO_LOG("simple queue sample run successfully");
  return 0;
}
