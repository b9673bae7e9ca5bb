// Prints the SoC name the runtime reports (aclrtGetSocName) on one line.
// run.sh builds and runs it to choose SOC_VERSION. No aclInit needed.
#include <cstdio>

#include "acl/acl.h"

int main()
{
    const char* soc = aclrtGetSocName();
    if (soc == nullptr || *soc == '\0') {
        std::fprintf(stderr, "[ERROR]  aclrtGetSocName() returned no SoC name\n");
        return 1;
    }
    std::printf("%s\n", soc);
    return 0;
}
