// simnpu Ascend C model: type utilities of the kernel language.
//   AscendC::IsSameType<T, U>::value, AscendC::Conditional<b, T, F>::type
//   AscendC::DivCeil(a, b), AlignUp(a, b), AlignDown(a, b)   (0 when b is 0)
//   AscendC::CeilDivision(int32_t, int32_t)
//   AscendC::Std: the standard-library subset of the devkit (utils/std/*.h):
//     type traits (is_same, integral_constant, enable_if, conditional, ...),
//     tuple, utility (move, forward, index_sequence, ...), min/max,
//     ceil_division and Int<N>.
// All are usable on the host and in kernels (constexpr where the pages make
// them so).
#ifndef SIMNPU_ASCENDC_TYPE_UTILS_H_
#define SIMNPU_ASCENDC_TYPE_UTILS_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

#include <algorithm>
#include <tuple>

namespace AscendC {

// Conditional<b, T, F>::type is T when b, else F (the devkit's name for
// std::conditional outside the Std namespace).
template <bool b, typename T, typename F>
struct Conditional {
  using type = T;
};
template <typename T, typename F>
struct Conditional<false, T, F> {
  using type = F;
};

template <typename T, typename U>
struct IsSameType {
  static constexpr bool value = false;
};
template <typename T>
struct IsSameType<T, T> {
  static constexpr bool value = true;
};

// ceil(a / b) for non-negative integers; 0 when b is 0.
template <typename T, typename U>
__aicore__ constexpr inline auto DivCeil(T a, U b) -> typename std::common_type<T, U>::type {
  using R = typename std::common_type<T, U>::type;
  return b == 0 ? R(0) : static_cast<R>((static_cast<R>(a) + static_cast<R>(b) - 1) / static_cast<R>(b));
}
// a rounded up / down to a multiple of b; 0 when b is 0.
template <typename T, typename U>
__aicore__ constexpr inline auto AlignUp(T a, U b) -> typename std::common_type<T, U>::type {
  using R = typename std::common_type<T, U>::type;
  return static_cast<R>(DivCeil(a, b) * static_cast<R>(b));
}
template <typename T, typename U>
__aicore__ constexpr inline auto AlignDown(T a, U b) -> typename std::common_type<T, U>::type {
  using R = typename std::common_type<T, U>::type;
  return b == 0 ? R(0) : static_cast<R>(static_cast<R>(a) / static_cast<R>(b) * static_cast<R>(b));
}
__aicore__ constexpr inline int32_t CeilDivision(int32_t num1, int32_t num2) {
  return num2 == 0 ? 0 : (num1 + num2 - 1) / num2;
}

namespace Std {
// type traits
using std::add_const;
using std::add_pointer;
using std::add_lvalue_reference;
using std::add_rvalue_reference;
using std::conditional;
using std::conditional_t;
using std::decay;
using std::decay_t;
using std::enable_if;
using std::enable_if_t;
using std::false_type;
using std::integral_constant;
using std::is_arithmetic;
using std::is_base_of;
using std::is_const;
using std::is_convertible;
using std::is_floating_point;
using std::is_integral;
using std::is_pointer;
using std::is_reference;
using std::is_same;
using std::is_signed;
using std::is_unsigned;
using std::is_void;
using std::remove_const;
using std::remove_const_t;
using std::remove_cv;
using std::remove_cv_t;
using std::remove_pointer;
using std::remove_pointer_t;
using std::remove_reference;
using std::remove_reference_t;
using std::true_type;
using std::void_t;
template <typename T, typename U>
inline constexpr bool is_same_v = std::is_same<T, U>::value;
template <typename T>
inline constexpr bool is_integral_v = std::is_integral<T>::value;
template <typename T>
inline constexpr bool is_floating_point_v = std::is_floating_point<T>::value;
template <bool B>
using bool_constant = std::integral_constant<bool, B>;
// utility
using std::declval;
using std::forward;
using std::index_sequence;
using std::index_sequence_for;
using std::integer_sequence;
using std::make_index_sequence;
using std::make_integer_sequence;
using std::move;
using std::swap;
// tuple
using std::get;
using std::make_tuple;
using std::tie;
using std::tuple;
using std::tuple_element;
using std::tuple_element_t;
using std::tuple_size;
// algorithm
using std::max;
using std::min;
// compile-time integers and ceil division
template <auto N>
using Int = std::integral_constant<decltype(N), N>;
template <typename T, typename U>
__aicore__ constexpr inline auto ceil_division(const T& num1, const U& num2) {
  return (num1 + num2 - 1) / num2;
}
}  // namespace Std

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_TYPE_UTILS_H_
