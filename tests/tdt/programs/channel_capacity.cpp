// The channel-capacity flow (S47): capacity 2; the third non-blocking send
// finds the channel full (207014).
#include <vector>

#include "2_advanced_features/tdt_common_utils.h"
#include "acl/acl.h"
#include "utils.h"

int main() {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
  acltdtChannelHandle* ch = acltdtCreateChannelWithCapacity(0, "capacity_tdt_channel", 2);
  if (ch == nullptr) {
    WARN_LOG("channel not available");
    return 0;
  }
  std::vector<float> a{1, 2}, b{3, 4}, c{5, 6};
  acltdtDataset* d1 = tdt::CreateFloatDataset(a);
  acltdtDataset* d2 = tdt::CreateFloatDataset(b);
  acltdtDataset* d3 = tdt::CreateFloatDataset(c);
  if (!tdt::CheckNotNull(d1) || !tdt::CheckNotNull(d2) || !tdt::CheckNotNull(d3)) return 1;
  size_t sliceNum = 9, sliceId = 9;
  if (acltdtGetSliceInfoFromItem(acltdtGetDataItem(d1, 0), &sliceNum, &sliceId) != ACL_SUCCESS) return 1;
  INFO_LOG("Slice info: num=%zu id=%zu, dataset name=\"%s\"", sliceNum, sliceId, acltdtGetDatasetName(d1));
  if (acltdtSendTensor(ch, d1, 1000) != ACL_SUCCESS) return 1;
  size_t size = 0;
  acltdtQueryChannelSize(ch, &size);
  INFO_LOG("Channel size after send #1: %zu", size);
  aclError ret = acltdtSendTensor(ch, d2, 0);
  if (ret == ACL_SUCCESS) {
    acltdtQueryChannelSize(ch, &size);
    INFO_LOG("Channel size after send #2: %zu", size);
    ret = acltdtSendTensor(ch, d3, 0);
    INFO_LOG("Send #3 on a full channel returned %d", static_cast<int>(ret));
  } else if (ret != ACL_ERROR_RT_QUEUE_FULL) {
    return 1;
  }
  acltdtCleanChannel(ch);
  acltdtStopChannel(ch);
  acltdtDestroyChannel(ch);
  tdt::DestroyDatasetAndItems(d1);
  tdt::DestroyDatasetAndItems(d2);
  tdt::DestroyDatasetAndItems(d3);
  aclrtResetDevice(0);
  aclFinalize();
  INFO_LOG("channel capacity sample run successfully");
  return 0;
}
