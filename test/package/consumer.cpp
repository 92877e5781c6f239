// consumer.cpp - a C++ host of an installed ttc: a kernel function made
// from source text, launched on the CPU interpreter, its result checked;
// the CLI found through the package too (ttc::ttc_cli).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <ttc/ttc.h>

static const char kSource[] =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def axpy(x_ptr, y_ptr, a, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    m = offs < n\n"
    "    y = tl.load(y_ptr + offs, mask=m)\n"
    "    tl.store(y_ptr + offs, a * tl.load(x_ptr + offs, mask=m) + y, mask=m)\n";

int main() {
  char err[256];
  ttc_device *dev = nullptr;
  if (ttc_device_open_interpreter(&dev, err, sizeof err) != TTC_OK) return 1;
  ttc_function_options opts;
  ttc_function_options_init(&opts);
  opts.cache = 0;
  ttc_function *f = nullptr;
  if (ttc_function_create(dev, kSource, sizeof kSource - 1, "axpy.py", "axpy", "BLOCK=256", &opts,
                          &f) != TTC_OK) {
    char *e = ttc_function_error(f);
    std::fprintf(stderr, "consumer: %s\n", e);
    std::free(e);
    return 1;
  }
  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; i++) {
    x[i] = static_cast<float>(i);
    y[i] = 1.0f;
  }
  uint64_t dx = 0, dy = 0;
  ttc_device_alloc(dev, n * sizeof(float), &dx);
  ttc_device_alloc(dev, n * sizeof(float), &dy);
  ttc_device_copy_to(dev, dx, x.data(), n * sizeof(float));
  ttc_device_copy_to(dev, dy, y.data(), n * sizeof(float));
  const ttc_arg args[] = {ttc_arg_ptr_to(TTC_TYPE_F32, dx), ttc_arg_ptr_to(TTC_TYPE_F32, dy),
                          ttc_arg_f32(2.0f), ttc_arg_i32(n)};
  const unsigned grid[3] = {(n + 255) / 256, 1, 1};
  ttc_status st = ttc_function_launch(f, grid, nullptr, args, 4);
  ttc_device_copy_from(dev, y.data(), dy, n * sizeof(float));
  int bad = st != TTC_OK;
  for (int i = 0; i < n && !bad; i++)
    bad = y[i] != 2.0f * static_cast<float>(i) + 1.0f;
  std::printf("consumer: ttc %s, axpy on the interpreter: %s\n", ttc_version(),
              bad ? "WRONG" : "ok");
  ttc_function_destroy(f);
  ttc_device_destroy(dev);
  return bad;
}
