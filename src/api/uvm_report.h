// The unified-memory report (counters as text) and its SIMNPU_UVM_REPORT hook.
#ifndef SIMNPU_API_UVM_REPORT_H_
#define SIMNPU_API_UVM_REPORT_H_

#include <string>

namespace simnpu::api {
std::string UvmReportText();
// Writes the report once per process to the file named by SIMNPU_UVM_REPORT
// ("-" = stderr); called by aclFinalize and at process exit.
void WriteUvmReportIfRequested();
}  // namespace simnpu::api

#endif  // SIMNPU_API_UVM_REPORT_H_
