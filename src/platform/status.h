// Status: the internal error type. Carries the aclError code the API layer
// returns (0 = success) and a message for aclGetRecentErrMsg. No exceptions
// cross layer boundaries; functions that can fail return Status or StatusOr.
#ifndef SIMNPU_PLATFORM_STATUS_H_
#define SIMNPU_PLATFORM_STATUS_H_

#include <memory>
#include <string>
#include <utility>

namespace simnpu {

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(int code, std::string msg) : code_(code) {
    if (code_ != 0) msg_ = std::make_shared<std::string>(std::move(msg));
  }
  static Status Ok() { return Status(); }

  bool ok() const { return code_ == 0; }
  int code() const { return code_; }
  const std::string& message() const {
    static const std::string kEmpty;
    return msg_ ? *msg_ : kEmpty;
  }

 private:
  int code_ = 0;
  std::shared_ptr<const std::string> msg_;  // null when ok (keeps Status one word + code)
};

template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(Status s) : status_(std::move(s)) {}  // NOLINT: implicit by design
  StatusOr(T v) : value_(std::move(v)) {}         // NOLINT
  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  T& value() { return value_; }
  const T& value() const { return value_; }
  T& operator*() { return value_; }
  T* operator->() { return &value_; }

 private:
  Status status_;
  T value_{};
};

#define SIMNPU_RETURN_IF_ERROR(expr)           \
  do {                                         \
    ::simnpu::Status _st = (expr);             \
    if (!_st.ok()) return _st;                 \
  } while (0)

}  // namespace simnpu

#endif  // SIMNPU_PLATFORM_STATUS_H_
