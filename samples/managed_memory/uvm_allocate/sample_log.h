// Console messages of the sample programs: one line each, on stdout, so
// that run.sh captures everything with a single tee.
#ifndef UVM_SAMPLE_LOG_H
#define UVM_SAMPLE_LOG_H

#include <cstdio>

#define SAMPLE_LOG_LINE(tag, ...)              \
    do {                                       \
        std::fputs(tag, stdout);               \
        std::fprintf(stdout, __VA_ARGS__);     \
        std::fputc('\n', stdout);              \
        std::fflush(stdout);                   \
    } while (0)

#define INFO_LOG(...) SAMPLE_LOG_LINE("[INFO]  ", __VA_ARGS__)
#define WARN_LOG(...) SAMPLE_LOG_LINE("[WARN]  ", __VA_ARGS__)
#define ERROR_LOG(...) SAMPLE_LOG_LINE("[ERROR]  ", __VA_ARGS__)

// Evaluates an ACL call once; on failure prints the call and its code and
// evaluates to false.
#define CHECK_ACL(call) uvm_sample::AclSucceeded((call), #call)

namespace uvm_sample {

inline bool AclSucceeded(int code, const char* text)
{
    if (code == 0) {
        return true;
    }
    ERROR_LOG("%s failed with error code %d", text, code);
    return false;
}

}  // namespace uvm_sample

#endif  // UVM_SAMPLE_LOG_H
