// Channels on a SOC without the channel API (Atlas inference, 310P): NULL
// with a "not supported" message; queues still work.
#include "tdt_test_util.h"

using tdttest::TdtTest;

TEST_F(TdtTest, ChannelUnsupportedOn310P) {
  EXPECT_EQ(acltdtCreateChannelWithCapacity(0, "c", 2), nullptr);
  EXPECT_NE(tdttest::ErrMsg().find("not supported"), std::string::npos);
  EXPECT_EQ(acltdtCreateChannel(0, "c"), nullptr);
  acltdtQueueAttr* attr = acltdtCreateQueueAttr();
  uint32_t qid = 99;
  EXPECT_EQ(acltdtCreateQueue(attr, &qid), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueue(qid), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueueAttr(attr), ACL_SUCCESS);
}
