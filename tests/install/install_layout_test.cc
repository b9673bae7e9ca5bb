// The staged install tree ($SIMNPU_STAGE_DIR): CANN layout (real arch
// directories, relative top-level links), version.info, error_code.json
// against src/dfx/err_codes.def, swFeatureList.json, and one platform ini per
// row of src/sim/soc_table.def with the row's values.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "table_rows.h"

namespace fs = std::filesystem;

namespace {

const std::string kArch = SIMNPU_TEST_ARCH_DIR;

using simnpu::install_data::ErrRow;
using simnpu::install_data::kErrRows;
using simnpu::install_data::kSocRows;
using simnpu::install_data::SocRow;

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// section -> key -> value; ';' and '#' start comment lines.
using Ini = std::map<std::string, std::map<std::string, std::string>>;
Ini ParseIni(const fs::path& p, std::string* error) {
  Ini ini;
  std::ifstream in(p);
  std::string line, section;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty() || line[0] == ';' || line[0] == '#') continue;
    if (line.front() == '[' && line.back() == ']') {
      section = line.substr(1, line.size() - 2);
      continue;
    }
    size_t eq = line.find('=');
    if (eq == std::string::npos || section.empty()) {
      *error = p.string() + ":" + std::to_string(n) + ": bad line '" + line + "'";
      return ini;
    }
    ini[section][line.substr(0, eq)] = line.substr(eq + 1);
  }
  return ini;
}

int CountPlaceholders(const std::string& t) {
  int n = 0;
  for (size_t i = 0; i + 1 < t.size(); ++i) {
    if (t[i] != '%') continue;
    if (t[i + 1] == '%') {
      ++i;
    } else if (t[i + 1] == 's' || t[i + 1] == 'd') {
      ++n;
      ++i;
    }
  }
  return n;
}

class InstallLayout : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* s = std::getenv("SIMNPU_STAGE_DIR");
    ASSERT_TRUE(s && *s) << "SIMNPU_STAGE_DIR is not set";
    p_ = s;
    ASSERT_TRUE(fs::is_directory(p_)) << p_ << " missing: run the stage_install test first";
  }
  fs::path p_;
};

TEST_F(InstallLayout, ArchDirectoriesAreRealDirectories) {
  for (const char* d : {"include", "lib64", "bin", "conf", "data", "tikcpp"}) {
    fs::path dir = p_ / kArch / d;
    EXPECT_TRUE(fs::is_directory(fs::symlink_status(dir))) << dir;
  }
  EXPECT_TRUE(fs::is_directory(fs::symlink_status(p_ / "bin"))) << "<p>/bin must be a real dir";
}

TEST_F(InstallLayout, TopLevelLinksAreRelative) {
  for (const char* d : {"include", "lib64", "conf", "data", "tikcpp"}) {
    fs::path link = p_ / d;
    ASSERT_TRUE(fs::is_symlink(link)) << link;
    EXPECT_EQ(fs::read_symlink(link).string(), kArch + "/" + d) << link;
    EXPECT_TRUE(fs::is_directory(link)) << link << " dangles";
  }
}

TEST_F(InstallLayout, NoAbsoluteSymlinksAnywhere) {
  for (const auto& e : fs::recursive_directory_iterator(p_)) {
    if (e.is_symlink()) {
      EXPECT_TRUE(fs::read_symlink(e.path()).is_relative()) << e.path();
    }
  }
}

TEST_F(InstallLayout, EnvironmentScripts) {
  for (fs::path s : {p_ / "set_env.sh", p_ / "bin" / "setenv.bash"}) {
    EXPECT_TRUE(fs::is_regular_file(s)) << s;
    std::string text = ReadFile(s);
    EXPECT_EQ(text.find(p_.string()), std::string::npos) << s << " embeds the install prefix";
  }
}

TEST_F(InstallLayout, Libraries) {
  EXPECT_TRUE(fs::is_regular_file(p_ / kArch / "lib64" / "libacl_rt.so"));
  EXPECT_TRUE(fs::exists(p_ / "lib64" / "libacl_rt.so"));
  EXPECT_TRUE(fs::exists(p_ / "lib64" / "libascendcl.so"));
}

TEST_F(InstallLayout, AclHeaders) {
  for (const char* h : {"acl.h", "acl_base.h", "acl_base_rt.h", "acl_rt.h", "acl_op.h", "acl_mdl.h",
                        "acl_base_mdl.h", "error_codes/rt_error_codes.h",
                        "error_codes/ge_error_codes.h"})
    EXPECT_TRUE(fs::is_regular_file(p_ / "include" / "acl" / h)) << h;
}

TEST_F(InstallLayout, VersionInfo) {
  fs::path vi = p_ / "share" / "info" / "runtime" / "version.info";
  ASSERT_TRUE(fs::is_regular_file(vi));
  std::stringstream ss(ReadFile(vi));
  std::string line;
  std::vector<std::string> versions;
  bool first = true;
  while (std::getline(ss, line)) {
    if (first) {
      EXPECT_EQ(line, std::string("Version=") + SIMNPU_TEST_CANN_VERSION);
    }
    first = false;
    if (line.rfind("Version=", 0) == 0) versions.push_back(line.substr(8));
    EXPECT_NE(line.find('='), std::string::npos) << line;
  }
  ASSERT_EQ(versions.size(), 1u);
  EXPECT_EQ(versions[0], "8.5.0");
}

TEST_F(InstallLayout, ErrorCodeJsonMatchesTable) {
  fs::path f = p_ / kArch / "conf" / "error_manager" / "error_code.json";
  ASSERT_TRUE(fs::is_regular_file(f));
  EXPECT_TRUE(fs::is_regular_file(p_ / "conf" / "error_manager" / "error_code.json"));
  nlohmann::json doc = nlohmann::json::parse(ReadFile(f));  // throws on bad JSON
  ASSERT_TRUE(doc.contains("error_info_list"));
  const auto& list = doc["error_info_list"];
  ASSERT_TRUE(list.is_array());
  ASSERT_EQ(list.size(), std::size(kErrRows));
  std::set<std::string> codes;
  for (size_t i = 0; i < list.size(); ++i) {
    const auto& e = list[i];
    const ErrRow& r = kErrRows[i];
    for (const char* k : {"errClass", "errTitle", "ErrCode", "ErrMessage", "Arglist"})
      ASSERT_TRUE(e.contains(k) && e[k].is_string()) << r.code << " " << k;
    EXPECT_EQ(e["ErrCode"], r.code);
    EXPECT_EQ(e["errTitle"], r.title);
    EXPECT_EQ(e["ErrMessage"], r.text);
    ASSERT_TRUE(e.contains("suggestion") && e["suggestion"].is_object());
    EXPECT_EQ(e["suggestion"]["Possible Cause"], r.cause);
    EXPECT_EQ(e["suggestion"]["Solution"], r.solution);
    std::string args = e["Arglist"];
    int names = args.empty() ? 0 : 1 + static_cast<int>(std::count(args.begin(), args.end(), ','));
    EXPECT_EQ(names, CountPlaceholders(r.text)) << r.code << " Arglist " << args;
    EXPECT_TRUE(codes.insert(r.code).second) << "duplicate " << r.code;
  }
}

TEST_F(InstallLayout, SwFeatureList) {
  fs::path dir = p_ / kArch / "data" / "ascendcl_config";
  ASSERT_TRUE(fs::is_regular_file(dir / "swFeatureList.json"));
  EXPECT_TRUE(fs::is_regular_file(dir / "swFeatureList.README.md"));
  nlohmann::json doc = nlohmann::json::parse(ReadFile(dir / "swFeatureList.json"));
  EXPECT_EQ(doc["format"], "simnpu-swFeatureList");
  EXPECT_EQ(doc["formatVersion"], 1);
  std::map<int, std::string> min;
  std::map<int, std::string> spec;
  for (const auto& f : doc["features"]) {
    min[f["value"].get<int>()] = f["minVersion"].get<std::string>();
    if (f.contains("socSpec")) spec[f["value"].get<int>()] = f["socSpec"].get<std::string>();
  }
  // ACL_CANN_ATTR_INF_NAN = 0, BF16 = 1, JIT_COMPILE = 2
  EXPECT_EQ(min, (std::map<int, std::string>{{0, "7.1"}, {1, "7.1"}, {2, "6.4"}}));
  EXPECT_EQ(spec, (std::map<int, std::string>{{0, "SoCInfo.support_inf_nan"},
                                              {1, "SoCInfo.support_bf16"}}));
}

TEST_F(InstallLayout, OnePlatformIniPerSoc) {
  fs::path dir = p_ / kArch / "data" / "platform_config";
  ASSERT_TRUE(fs::is_directory(dir));
  std::set<std::string> files, rows;
  for (const auto& e : fs::directory_iterator(dir)) files.insert(e.path().filename().string());
  for (const SocRow& r : kSocRows) rows.insert(std::string(r.name) + ".ini");
  EXPECT_EQ(files, rows);
}

TEST_F(InstallLayout, PlatformIniValuesMatchTable) {
  fs::path dir = p_ / kArch / "data" / "platform_config";
  for (const SocRow& r : kSocRows) {
    SCOPED_TRACE(r.name);
    std::string err;
    Ini ini = ParseIni(dir / (std::string(r.name) + ".ini"), &err);
    ASSERT_EQ(err, "");
    EXPECT_EQ(ini["version"]["SoC_version"], r.name);
    EXPECT_EQ(ini["version"]["Short_SoC_version"], r.short_name);
    EXPECT_EQ(ini["version"]["AIC_version"], r.aic_version);
    EXPECT_EQ(ini["version"]["NpuArch"], std::to_string(r.npu_arch));
    EXPECT_EQ(ini["version"]["Chip_type"], std::to_string(r.chip_type));
    EXPECT_EQ(ini["SoCInfo"]["ai_core_cnt"], std::to_string(r.ai_cores));
    EXPECT_EQ(ini["SoCInfo"]["cube_core_cnt"], std::to_string(r.cube_cores));
    EXPECT_EQ(ini["SoCInfo"]["vector_core_cnt"], std::to_string(r.vector_cores));
    EXPECT_EQ(ini["SoCInfo"]["memory_size"], std::to_string(r.memory_gib << 30));
    EXPECT_EQ(ini["SoCInfo"]["l2_size"], std::to_string(r.l2));
    EXPECT_EQ(ini["SoCInfo"]["support_bf16"], std::to_string(r.bf16));
    EXPECT_EQ(ini["SoCInfo"]["support_inf_nan"], std::to_string(r.inf_nan));
    EXPECT_EQ(ini["SoCInfo"]["support_uvm"], std::to_string(r.uvm));
    EXPECT_EQ(ini["AICoreSpec"]["ub_size"], std::to_string(r.ub));
    EXPECT_EQ(ini["AICoreSpec"]["l1_size"], std::to_string(r.l1));
    EXPECT_EQ(ini["AICoreSpec"]["l0_a_size"], std::to_string(r.l0a));
    EXPECT_EQ(ini["AICoreSpec"]["l0_b_size"], std::to_string(r.l0b));
    EXPECT_EQ(ini["AICoreSpec"]["l0_c_size"], std::to_string(r.l0c));
    EXPECT_EQ(ini["simnpu"]["family"], r.family);
    EXPECT_EQ(ini["simnpu"]["kernel_build_mode"], r.build_mode);
  }
  // Spot checks against the reference facts (acl-api.md §7.1).
  std::string err;
  Ini b1 = ParseIni(dir / "Ascend910B1.ini", &err);
  EXPECT_EQ(b1["SoCInfo"]["ai_core_cnt"], "24");
  EXPECT_EQ(b1["SoCInfo"]["vector_core_cnt"], "48");
  EXPECT_EQ(b1["SoCInfo"]["cube_vector_combine"], "split");
  EXPECT_EQ(b1["SoCInfo"]["memory_size"], "68719476736");
  EXPECT_EQ(b1["simnpu"]["nominal_keys"], "");
  Ini a = ParseIni(dir / "Ascend910A.ini", &err);
  EXPECT_EQ(a["version"]["NpuArch"], "1001");
  EXPECT_EQ(a["SoCInfo"]["cube_vector_combine"], "fuse");
  EXPECT_EQ(a["SoCInfo"]["support_uvm"], "0");
}

}  // namespace
