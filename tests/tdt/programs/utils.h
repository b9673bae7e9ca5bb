// Logging macros in the style the CANN samples use (GNU named variadic
// macros; stdout with a level prefix). Written for simnpu's tests.
#ifndef TDT_TEST_PROGRAMS_UTILS_H
#define TDT_TEST_PROGRAMS_UTILS_H
#include <cstdio>
#define INFO_LOG(fmt, args...) fprintf(stdout, "[INFO]  " fmt "\n", ##args)
#define WARN_LOG(fmt, args...) fprintf(stdout, "[WARN]  " fmt "\n", ##args)
#define ERROR_LOG(fmt, args...) fprintf(stdout, "[ERROR]  " fmt "\n", ##args)
#endif
