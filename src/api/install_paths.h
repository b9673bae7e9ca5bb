// Locating files of the install tree the runtime reads: package version.info
// files (aclsysGetVersion*) and the CANN attribute table (aclGetCannAttribute*).
#ifndef SIMNPU_API_INSTALL_PATHS_H_
#define SIMNPU_API_INSTALL_PATHS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace simnpu::api {

// Directory of libacl_rt.so itself (resolved through symlinks), e.g.
// <p>/x86_64-linux/lib64.
std::string LibraryDir();
// Candidate install roots, best first: $ASCEND_HOME_PATH, then the parents of
// LibraryDir() (up to 8 levels).
std::vector<std::string> InstallRootCandidates();

// Reads Version= from <root>/share/info/<pkg>/version.info (also trying the
// '-'/'_' spellings of pkg). false with a reason when not found.
bool ReadPackageVersion(const std::string& pkg, std::string* version, std::string* why);
// "8.5.0" -> 80500000; pre-releases: -alpha.N -300+N, -beta.N -200+N, -rc.N -100+N.
// false (never an exception) for text that is not such a version, a part
// above 999999, or a number that does not fit int32_t.
bool VersionToNumber(const std::string& v, int64_t* out);

// Finds <root>/<arch>-linux/data/ascendcl_config/<name> searching from the
// library's directory upwards (8 levels). Empty if not found.
std::string FindConfigFile(const std::string& name);

}  // namespace simnpu::api

#endif  // SIMNPU_API_INSTALL_PATHS_H_
