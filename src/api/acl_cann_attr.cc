// aclGetCannAttributeList / aclGetCannAttribute: which optional CANN
// capabilities this install offers, from <arch>-linux/data/ascendcl_config/
// swFeatureList.json (format documented in install/README.md) and the
// runtime version in share/info/runtime/version.info.
#include <fstream>
#include <mutex>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/api_common.h"
#include "api/install_paths.h"
#include "sim/soc.h"

using namespace simnpu;

namespace {

struct AttrTable {
  int error = 0;          // 0, or the code every call returns
  std::string why;
  std::vector<aclCannAttr> available;  // in file order
  std::vector<std::pair<aclCannAttr, bool>> all;
};

int VersionKey(const std::string& v) {
  int major = 0, minor = 0;
  std::sscanf(v.c_str(), "%d.%d", &major, &minor);
  return 1000 * major + 10 * minor;
}

const AttrTable& Table() {
  static AttrTable t = [] {
    AttrTable x;
    std::string path = api::FindConfigFile("swFeatureList.json");
    std::string version, why;
    if (!api::ReadPackageVersion("runtime", &version, &why)) {
      x.error = ACL_ERROR_INTERNAL_ERROR;
      x.why = "the runtime version is unknown: " + why;
      return x;
    }
    if (path.empty()) {
      x.error = ACL_ERROR_INTERNAL_ERROR;
      x.why = "swFeatureList.json was not found next to libacl_rt.so";
      return x;
    }
    std::ifstream f(path);
    nlohmann::json j = nlohmann::json::parse(f, nullptr, false);
    if (j.is_discarded() || !j.is_object() || j.value("format", "") != "simnpu-swFeatureList" ||
        j.value("formatVersion", 0) > 1 || !j.contains("features") || !j["features"].is_array()) {
      x.error = ACL_ERROR_INTERNAL_ERROR;
      x.why = path + " is not a feature list this runtime understands";
      return x;
    }
    const int rt = VersionKey(version);
    const sim::SocInfo* soc = sim::CurrentSoc();
    for (const auto& e : j["features"]) {
      if (!e.is_object() || !e.contains("value") || !e["value"].is_number_integer()) continue;
      auto attr = static_cast<aclCannAttr>(e["value"].get<int>());
      bool ok = VersionKey(e.value("minVersion", "99.0")) <= rt;
      std::string spec = e.value("socSpec", "");
      if (!spec.empty()) {
        if (spec == "SoCInfo.support_inf_nan") ok = ok && soc && soc->inf_nan;
        else if (spec == "SoCInfo.support_bf16") ok = ok && soc && soc->bf16;
        else ok = false;
      }
      x.all.push_back({attr, ok});
      if (ok) x.available.push_back(attr);
    }
    return x;
  }();
  return t;
}

}  // namespace

extern "C" {

aclError aclGetCannAttributeList(const aclCannAttr** cannAttrList, size_t* num) {
  ACL_REQUIRE_NOT_NULL(cannAttrList);
  ACL_REQUIRE_NOT_NULL(num);
  const AttrTable& t = Table();
  if (t.error) {
    dfx::ReportErrText(dfx::LogModule::kAscendcl, dfx::ErrCode::EH9999, std::string(__func__) + ": " + t.why);
    return t.error;
  }
  *cannAttrList = t.available.data();
  *num = t.available.size();
  return ACL_SUCCESS;
}

aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t* value) {
  ACL_REQUIRE_NOT_NULL(value);
  const AttrTable& t = Table();
  if (t.error) {
    dfx::ReportErrText(dfx::LogModule::kAscendcl, dfx::ErrCode::EH9999, std::string(__func__) + ": " + t.why);
    return t.error;
  }
  const int wanted = api::RawEnum(cannAttr);
  for (const auto& [attr, ok] : t.all) {
    if (attr == wanted) {
      *value = ok ? 1 : 0;
      return ACL_SUCCESS;
    }
  }
  return api::BadParam(__func__, "cannAttr", std::to_string(wanted), "an attribute of the CANN feature table");
}

}  // extern "C"
