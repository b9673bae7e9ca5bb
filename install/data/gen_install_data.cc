// Build-time generator for the install tree's data files, so that each table
// has one source of truth in src/:
//   gen_install_data error-codes <out.json>
//       <p>/<arch>-linux/conf/error_manager/error_code.json from src/dfx/err_codes.def
//   gen_install_data platform-config <out dir>
//       <p>/<arch>-linux/data/platform_config/<SoC>.ini, one per row of
//       src/sim/soc_table.def (stale *.ini files in <out dir> are removed)
// Both formats are specified in install/README.md.
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "table_rows.h"

namespace fs = std::filesystem;

namespace {

using simnpu::install_data::ErrRow;
using simnpu::install_data::kErrRows;
using simnpu::install_data::kSocRows;
using simnpu::install_data::SocRow;

// Families whose memory and L2 sizes come from the public platform files
// (acl-api.md §7.1, ascendc-kernel.md §4a); other rows carry nominal sizes.
bool SizesAreSourced(const SocRow& s) { return std::string(s.family) == "A2"; }

// Writes `text` to `path` only when it differs, so unchanged outputs keep
// their timestamps.
bool WriteIfChanged(const fs::path& path, const std::string& text) {
  {
    std::ifstream in(path, std::ios::binary);
    if (in) {
      std::stringstream ss;
      ss << in.rdbuf();
      if (ss.str() == text) return true;
    }
  }
  fs::create_directories(path.parent_path());
  fs::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) return false;
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  return !ec;
}

std::string ErrClass(const std::string& code) {
  if (code.rfind("EH", 0) == 0) return "ACL Errors";
  if (code.rfind("EE", 0) == 0) return "Runtime Errors";
  if (code.rfind("ED", 0) == 0) return "Driver Errors";
  return "Errors";
}

// Names for the placeholders of a message template, in order: the word in
// front of each placeholder ("parameter %s" -> "param"), "func" for a
// template that starts with "%s:" or "%s is", else "arg<N>". Unique.
std::string ArgList(const std::string& tmpl) {
  std::vector<std::string> names;
  std::set<std::string> used;
  for (size_t i = 0; i + 1 < tmpl.size(); ++i) {
    if (tmpl[i] != '%') continue;
    if (tmpl[i + 1] == '%') {
      ++i;
      continue;
    }
    if (tmpl[i + 1] != 's' && tmpl[i + 1] != 'd') continue;
    size_t n = names.size() + 1;
    std::string name;
    size_t e = i;
    while (e > 0 && (tmpl[e - 1] == ' ' || tmpl[e - 1] == ':' || tmpl[e - 1] == '[')) --e;
    size_t b = e;
    while (b > 0 && std::isalpha(static_cast<unsigned char>(tmpl[b - 1]))) --b;
    if (b < e && (b == 0 || tmpl[b - 1] == ' ')) {
      for (size_t k = b; k < e; ++k)
        name += static_cast<char>(std::tolower(static_cast<unsigned char>(tmpl[k])));
      if (name == "parameter") name = "param";
      if (name == "expected") name = "expect";
      static const std::set<std::string> kStop = {"a", "an", "the", "is", "of", "to", "for", "and", "with"};
      if (kStop.count(name)) name.clear();
    }
    if (name.empty() && i == 0 && tmpl.size() > 2) {
      std::string rest = tmpl.substr(2);
      if (rest.rfind(":", 0) == 0 || rest.rfind(" is", 0) == 0) name = "func";
    }
    if (name.empty() && tmpl == "%s") name = "message";
    if (name.empty() || used.count(name)) name = (name.empty() ? "arg" : name) + std::to_string(n);
    used.insert(name);
    names.push_back(name);
    ++i;
  }
  std::string out;
  for (size_t k = 0; k < names.size(); ++k) out += (k ? "," : "") + names[k];
  return out;
}

int GenErrorCodes(const fs::path& out) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  std::set<std::string> seen;
  for (const ErrRow& r : kErrRows) {
    if (!seen.insert(r.code).second) {
      std::cerr << "gen_install_data: duplicate error code " << r.code << "\n";
      return 1;
    }
    nlohmann::ordered_json e;
    e["errClass"] = ErrClass(r.code);
    e["errTitle"] = r.title;
    e["ErrCode"] = r.code;
    e["ErrMessage"] = r.text;
    e["Arglist"] = ArgList(r.text);
    e["suggestion"] = {{"Possible Cause", r.cause}, {"Solution", r.solution}};
    list.push_back(std::move(e));
  }
  nlohmann::ordered_json doc;
  doc["error_info_list"] = std::move(list);
  if (!WriteIfChanged(out, doc.dump(2) + "\n")) {
    std::cerr << "gen_install_data: cannot write " << out << "\n";
    return 1;
  }
  return 0;
}

std::string Ini(const SocRow& s) {
  const bool sourced = SizesAreSourced(s);
  const std::string mode = s.build_mode;
  const bool split = mode == "c220" || mode == "c310";
  std::ostringstream o;
  o << "; " << s.name << ".ini: simnpu platform description, generated from src/sim/soc_table.def\n"
    << "; by install/data/gen_install_data.cc. Format: install/README.md. Do not edit.\n";
  if (!sourced)
    o << "; memory_size and l2_size are nominal values: the public sources do not give them.\n";
  o << "\n[version]\n"
    << "SoC_version=" << s.name << "\n"
    << "Short_SoC_version=" << s.short_name << "\n"
    << "AIC_version=" << s.aic_version << "\n"
    << "NpuArch=" << s.npu_arch << "\n"
    << "Chip_type=" << s.chip_type << "\n"
    << "\n[SoCInfo]\n"
    << "ai_core_cnt=" << s.ai_cores << "\n"
    << "cube_core_cnt=" << s.cube_cores << "\n"
    << "vector_core_cnt=" << s.vector_cores << "\n"
    << "cube_vector_combine=" << (split ? "split" : "fuse") << "\n"
    << "memory_size=" << (s.memory_gib << 30) << "\n"
    << "l2_size=" << s.l2 << "\n"
    << "support_bf16=" << s.bf16 << "\n"
    << "support_inf_nan=" << s.inf_nan << "\n"
    << "support_uvm=" << s.uvm << "\n"
    << "\n[AICoreSpec]\n"
    << "ub_size=" << s.ub << "\n"
    << "l1_size=" << s.l1 << "\n"
    << "l0_a_size=" << s.l0a << "\n"
    << "l0_b_size=" << s.l0b << "\n"
    << "l0_c_size=" << s.l0c << "\n"
    << "\n[simnpu]\n"
    << "family=" << s.family << "\n"
    << "kernel_build_mode=" << s.build_mode << "\n"
    << "nominal_keys=" << (sourced ? "" : "SoCInfo.memory_size,SoCInfo.l2_size") << "\n";
  return o.str();
}

int GenPlatformConfig(const fs::path& dir) {
  std::set<std::string> names;
  for (const SocRow& s : kSocRows) {
    std::string n = s.name;
    bool ok = !n.empty();
    for (char c : n) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-');
    if (!ok || !names.insert(n).second) {
      std::cerr << "gen_install_data: bad or duplicate SOC name '" << n << "'\n";
      return 1;
    }
    if (!WriteIfChanged(dir / (n + ".ini"), Ini(s))) {
      std::cerr << "gen_install_data: cannot write into " << dir << "\n";
      return 1;
    }
  }
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".ini" && !names.count(e.path().stem().string()))
      fs::remove(e.path());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: gen_install_data error-codes <out.json> | platform-config <out dir>\n";
    return 2;
  }
  std::string what = argv[1];
  try {
    if (what == "error-codes") return GenErrorCodes(argv[2]);
    if (what == "platform-config") {
      fs::create_directories(argv[2]);
      return GenPlatformConfig(argv[2]);
    }
  } catch (const std::exception& e) {
    std::cerr << "gen_install_data: " << e.what() << "\n";
    return 1;
  }
  std::cerr << "gen_install_data: unknown output '" << what << "'\n";
  return 2;
}
