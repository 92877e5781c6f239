/* names.c - static names of the public enums (statuses, types, levels):
 * the one table of each, used by the CLI, messages and metadata alike. */
#include "driver/driver.h"

const char *ttc_status_string(ttc_status status) {
  switch (status) {
  case TTC_OK: return "ok";
  case TTC_ERROR_INPUT: return "input error";
  case TTC_ERROR_ARGUMENT: return "invalid argument";
  case TTC_ERROR_UNSUPPORTED: return "unsupported";
  case TTC_ERROR_IO: return "i/o error";
  case TTC_ERROR_TOOL: return "external tool failed";
  case TTC_ERROR_LLVM: return "llvm error";
  case TTC_ERROR_NO_DEVICE: return "no device";
  case TTC_ERROR_CUDA: return "cuda error";
  case TTC_ERROR_OUT_OF_MEMORY: return "out of memory";
  case TTC_ERROR_INTERNAL: return "internal error";
  case TTC_ERROR_OUT_OF_BOUNDS: return "out-of-bounds access";
  }
  return "unknown status";
}

const char *ttc_version(void) { return TTC_VERSION_STRING; }

const char *ttc_type_name(ttc_type type) {
  switch (type) {
  case TTC_TYPE_PTR: return "*";
  case TTC_TYPE_I1: return "i1";
  case TTC_TYPE_I8: return "i8";
  case TTC_TYPE_I16: return "i16";
  case TTC_TYPE_I32: return "i32";
  case TTC_TYPE_I64: return "i64";
  case TTC_TYPE_U8: return "u8";
  case TTC_TYPE_U16: return "u16";
  case TTC_TYPE_U32: return "u32";
  case TTC_TYPE_U64: return "u64";
  case TTC_TYPE_F16: return "fp16";
  case TTC_TYPE_BF16: return "bf16";
  case TTC_TYPE_F32: return "fp32";
  case TTC_TYPE_F64: return "fp64";
  }
  return "?";
}

const char *ttc_level_name(ttc_level level) {
  switch (level) {
  case TTC_LEVEL_TTIR: return "ttir";
  case TTC_LEVEL_TTGIR: return "ttgir";
  case TTC_LEVEL_LLIR: return "llir";
  case TTC_LEVEL_PTX: return "ptx";
  case TTC_LEVEL_CUBIN: return "cubin";
  }
  return "?";
}
