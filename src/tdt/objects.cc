#include "tdt/objects.h"

namespace simnpu::tdt {

#define SIMNPU_TDT_TABLE(fn, T)             \
  LiveTable<T>& fn() {                      \
    static LiveTable<T>* t = new LiveTable<T>(); \
    return *t;                              \
  }
SIMNPU_TDT_TABLE(Items, acltdtDataItem)
SIMNPU_TDT_TABLE(Datasets, acltdtDataset)
SIMNPU_TDT_TABLE(Channels, acltdtChannelHandle)
SIMNPU_TDT_TABLE(QueueAttrs, tagMemQueueAttr)
SIMNPU_TDT_TABLE(Routes, acltdtQueueRoute)
SIMNPU_TDT_TABLE(RouteLists, acltdtQueueRouteList)
SIMNPU_TDT_TABLE(RouteQueries, acltdtQueueRouteQueryInfo)
#undef SIMNPU_TDT_TABLE

}  // namespace simnpu::tdt
