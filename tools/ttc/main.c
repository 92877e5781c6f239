/* ttc - the command-line compiler: flags -> public API -> output.
 * The only place in the project that prints to the terminal and calls exit().
 * Exit status: 0 success, 1 errors in the input, 2 usage errors (and tool or
 * system failures, which are not the input's fault). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttc/ttc.h"

enum { EXIT_INPUT = 1, EXIT_USAGE = 2 };

static const char usage_text[] =
    "usage: ttc FILE -k NAME -s SIGNATURE [options]\n"
    "\n"
    "Compiles the @triton.jit function NAME of the Triton kernel file FILE.\n"
    "\n"
    "  -k, --kernel NAME        the @triton.jit function to compile\n"
    "  -s, --signature SIG      Triton AOT signature, one entry per parameter:\n"
    "                           '*fp32:16,*fp32:16,*fp32:16,i32,1024'\n"
    "  -w, --num-warps N        warps per program (power of two, 1..32; default 4)\n"
    "      --num-stages N       software pipelining depth (default 3)\n"
    "      --arch ARCH          sm_80, sm_90 or sm_90a (default sm_90)\n"
    "      --emit LEVEL         ttir, ttgir, llir, ptx or cubin (default ptx)\n"
    "  -o, --output PATH        output file ('-' for stdout); with --emit cubin the\n"
    "                           metadata JSON is written to PATH.json\n"
    "                           (default: stdout for text, NAME.cubin for cubin)\n"
    "      --print-loc          print loc(\"file\":line:col) after each ttir/ttgir op\n"
    "      --ptxas PATH         ptxas to run (default: $TTC_PTXAS, PATH, /usr/local/cuda/bin)\n"
    "  -h, --help               print this help\n"
    "      --version            print the version\n"
    "\n"
    "Exit status: 0 on success, 1 on errors in the input, 2 on usage or tool errors.\n";

typedef struct cli {
  const char *file, *kernel, *signature, *output;
  ttc_compile_options opts;
} cli;

static _Noreturn void usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "ttc: error: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n(run 'ttc --help' for usage)\n");
  exit(EXIT_USAGE);
}

/* Matches "--name value" and "--name=value"; advances *i past the value. */
static const char *flag_value(int argc, char **argv, int *i, const char *shrt, const char *lng) {
  const char *a = argv[*i];
  size_t n = strlen(lng);
  if ((shrt && strcmp(a, shrt) == 0) || strcmp(a, lng) == 0) {
    if (*i + 1 >= argc) usage_error("option '%s' needs a value", a);
    return argv[++*i];
  }
  if (strncmp(a, lng, n) == 0 && a[n] == '=') return a + n + 1;
  return NULL;
}

static int parse_int(const char *s, const char *flag) {
  char *end;
  long v = strtol(s, &end, 10);
  if (*s == '\0' || *end != '\0' || v < 0 || v > 1 << 20)
    usage_error("expected a number for %s", flag);
  return (int)v;
}

static ttc_level parse_level(const char *s) {
  for (int l = 0; l < TTC_NUM_LEVELS; l++)
    if (strcmp(s, ttc_level_name((ttc_level)l)) == 0) return (ttc_level)l;
  usage_error("unknown level '%s' (expected ttir, ttgir, llir, ptx or cubin)", s);
}

static void parse_args(int argc, char **argv, cli *c) {
  ttc_compile_options_init(&c->opts);
  c->opts.stop_after = TTC_LEVEL_PTX;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      fputs(usage_text, stdout);
      exit(0);
    } else if (strcmp(a, "--version") == 0) {
      printf("ttc %s\n", ttc_version());
      exit(0);
    } else if ((v = flag_value(argc, argv, &i, "-k", "--kernel"))) {
      c->kernel = v;
    } else if ((v = flag_value(argc, argv, &i, "-s", "--signature"))) {
      c->signature = v;
    } else if ((v = flag_value(argc, argv, &i, "-w", "--num-warps"))) {
      c->opts.num_warps = parse_int(v, "--num-warps");
    } else if ((v = flag_value(argc, argv, &i, NULL, "--num-stages"))) {
      c->opts.num_stages = parse_int(v, "--num-stages");
    } else if ((v = flag_value(argc, argv, &i, NULL, "--arch"))) {
      c->opts.arch = v;
    } else if ((v = flag_value(argc, argv, &i, NULL, "--emit"))) {
      c->opts.stop_after = parse_level(v);
    } else if ((v = flag_value(argc, argv, &i, "-o", "--output"))) {
      c->output = v;
    } else if ((v = flag_value(argc, argv, &i, NULL, "--ptxas"))) {
      c->opts.ptxas = v;
    } else if (strcmp(a, "--print-loc") == 0) {
      c->opts.emit_locations = 1;
    } else if (a[0] == '-' && a[1] != '\0') {
      usage_error("unknown option '%s'", a);
    } else if (!c->file) {
      c->file = a;
    } else {
      usage_error("more than one input file ('%s')", a);
    }
  }
  if (!c->file) usage_error("%s", "no input file");
  if (!c->kernel) usage_error("%s", "no kernel name (-k NAME)");
  if (!c->signature) usage_error("%s", "no signature (-s SIG)");
}

static int write_bytes(const char *path, const void *data, size_t n) {
  FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "ttc: error: cannot write '%s'\n", path);
    return EXIT_USAGE;
  }
  size_t w = fwrite(data, 1, n, f);
  int bad = (f == stdout) ? fflush(f) : fclose(f);
  if (w != n || bad) {
    fprintf(stderr, "ttc: error: cannot write '%s'\n", path);
    return EXIT_USAGE;
  }
  return 0;
}

static int exit_code(ttc_status st) {
  switch (st) {
  case TTC_OK: return 0;
  case TTC_ERROR_INPUT:
  case TTC_ERROR_UNSUPPORTED: return EXIT_INPUT;
  case TTC_ERROR_ARGUMENT:
  case TTC_ERROR_IO:
  case TTC_ERROR_TOOL:
  case TTC_ERROR_LLVM:
  case TTC_ERROR_NO_DEVICE:
  case TTC_ERROR_CUDA:
  case TTC_ERROR_OUT_OF_BOUNDS:
  case TTC_ERROR_OUT_OF_MEMORY:
  case TTC_ERROR_INTERNAL: return EXIT_USAGE;
  }
  return EXIT_USAGE;
}

int main(int argc, char **argv) {
  cli c = {0};
  parse_args(argc, argv, &c);
  ttc_kernel *k = NULL;
  ttc_status st = ttc_compile_file(c.file, c.kernel, c.signature, &c.opts, &k);
  if (k) fputs(ttc_kernel_diagnostics(k), stderr);
  if (st != TTC_OK) {
    if (st == TTC_ERROR_IO && k) {
      /* The diagnostic already names the file. */
    } else if (st != TTC_ERROR_INPUT && st != TTC_ERROR_UNSUPPORTED) {
      fprintf(stderr, "ttc: %s\n", ttc_status_string(st));
    }
    ttc_kernel_destroy(k);
    return exit_code(st);
  }
  size_t n = 0;
  const void *data = ttc_kernel_output(k, c.opts.stop_after, &n);
  int rc = 0;
  if (c.opts.stop_after == TTC_LEVEL_CUBIN) {
    char path[4096];
    const char *out = c.output;
    if (!out) {
      snprintf(path, sizeof path, "%s.cubin", c.kernel);
      out = path;
    }
    rc = write_bytes(out, data, n);
    if (rc == 0 && strcmp(out, "-") != 0) {
      char meta[4096 + 8];
      snprintf(meta, sizeof meta, "%s.json", out);
      const char *json = ttc_kernel_metadata_json(k);
      rc = write_bytes(meta, json, strlen(json));
    }
  } else {
    rc = write_bytes(c.output ? c.output : "-", data, n);
  }
  ttc_kernel_destroy(k);
  return rc;
}
