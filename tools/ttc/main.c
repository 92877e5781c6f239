// SPDX-License-Identifier: MIT
/* ttc - the command-line compiler: flags -> public API -> output.
 * The only place in the project that prints to the terminal and calls exit().
 * Kernel files (.py) are compiled through ttc_compile; IR files (.ttir,
 * .ttgir) go through the IR tool API (ttc/irtool.h): named passes, dumps,
 * expected-diagnostics checks and reproducers, as triton-opt does.
 * Exit status: 0 success, 1 errors in the input, 2 usage errors (and tool or
 * system failures, which are not the input's fault). */
#define _POSIX_C_SOURCE 200809L /* fileno, isatty */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ttc/ttc.h"

enum { EXIT_INPUT = 1, EXIT_USAGE = 2 };

/* The help, in two parts around the list of targets (from the library). */
static const char usage_head[] =
    "usage: ttc FILE.py -k NAME -s SIGNATURE [options]\n"
    "       ttc FILE.py -k NAME -s SIGNATURE [-s SIGNATURE ...] --aot PREFIX [--grid EXPR]\n"
    "       ttc FILE.ttir|FILE.ttgir [--passes=PASS,...] [options]\n"
    "       ttc --list-passes | --version | --help\n"
    "\n"
    "Compiles the @triton.jit function NAME of the Triton kernel file FILE.py,\n"
    "or runs passes on ttir/ttgir text (the input level follows the extension).\n"
    "FILE '-' reads standard input (a kernel file unless --input says otherwise).\n"
    "\n"
    "  -k, --kernel NAME        the @triton.jit function to compile\n"
    "  -s, --signature SIG      Triton AOT signature, one entry per parameter:\n"
    "                           '*fp32:16,*fp32:16,*fp32:16,i32,1024'; constexprs take\n"
    "                           numbers, True/False, None, 'strings' and dtypes (tl.float16)\n"
    "  -I DIR                   search DIR for modules the kernel file imports (repeatable;\n"
    "                           after the file's own package and directory)\n"
    "  -w, --num-warps N        warps per program (power of two, 1..32; default 4)\n"
    "      --num-stages N       software pipelining depth (default 3)\n"
    "      --arch ARCH          the target (default sm_90, which compiles for sm_90a):\n";

static const char usage_tail[] =
    "      --emit LEVEL         ttir, ttgir, llir, ptx or cubin (default ptx)\n"
    "  -o, --output PATH        output file ('-' for stdout); with --emit cubin the\n"
    "                           metadata JSON is written to PATH.json\n"
    "                           (default: stdout for text, NAME.cubin for cubin)\n"
    "  -O0, -O1, -O2, -O3       LLVM's optimization level (default -O3, as Triton)\n"
    "      --emit-metadata PATH write the metadata JSON to PATH, whatever the level\n"
    "  -v, --verbose            report registers, spills, local and shared memory, the\n"
    "                           time of each stage and the compiler's remarks (which\n"
    "                           loops were software-pipelined, with how many stages,\n"
    "                           or why not) on stderr; compiles without the cache\n"
    "      --color[=WHEN]       colour diagnostics: auto (default: on a terminal, unless\n"
    "                           NO_COLOR is set), always (bare --color) or never\n"
    "      --no-line-info       no .file/.loc line info in the PTX and cubin (default: on,\n"
    "                           pointing into the kernel file; also TTC_DISABLE_LINE_INFO=1)\n"
    "      --print-loc          print loc(\"file\":line:col) after each ttir/ttgir op\n"
    "      --ptxas PATH         ptxas to run (default: $TTC_PTXAS, PATH, /usr/local/cuda/bin)\n"
    "      --verify-diagnostics check diagnostics against expected-error {{...}} comments\n"
    "      --cache-dir DIR      the kernel cache (default: $TTC_CACHE_DIR, $XDG_CACHE_HOME/ttc,\n"
    "                           ~/.cache/ttc); used for --emit ttir, ptx, cubin and --aot\n"
    "      --no-cache           neither read nor write the cache (also: TTC_CACHE=0)\n"
    "\n"
    "Ahead-of-time launchers (one or more -s, each compiled to a cubin):\n"
    "      --aot PREFIX         write PREFIX.c and PREFIX.h: the cubins, load_NAME,\n"
    "                           unload_NAME and a launcher NAME that picks the\n"
    "                           specialization from its arguments (needs only cuda.h)\n"
    "      --aot-name NAME      the launcher's name (default: the kernel's)\n"
    "      --grid EXPR          the grid as C expressions over the parameters:\n"
    "                           'cdiv(n_elements, BLOCK_SIZE)' (default: the launcher\n"
    "                           takes ttc_gx, ttc_gy, ttc_gz)\n"
    "\n"
    "Pass reports (kernel files and IR, on stderr):\n"
    "      --print-before NAME  dump the IR before pass NAME ('all': every pass)\n"
    "      --print-after NAME   dump the IR after pass NAME ('all': every pass)\n"
    "      --print-before-all, --print-after-all  the same for every pass\n"
    "      --time-passes        report the time of each pass (and, for kernel files,\n"
    "                           of LLVM, NVPTX and ptxas)\n"
    "\n"
    "IR input (.ttir, .ttgir):\n"
    "      --input LEVEL        py, ttir or ttgir, whatever the extension\n"
    "      --passes LIST        run exactly these passes, in order: 'cse,dce',\n"
    "                           'convert-triton-to-tritongpu{num-warps=8 target=cuda:80}'\n"
    "      --verify-each        verify the IR after every pass\n"
    "      --split-input-file   process the cases separated by '// -----' one by one\n"
    "      --reproducer PATH    when a pass fails, write the IR it received to PATH\n"
    "      --list-passes        list every pass with a one-line summary\n"
    "      --emit LEVEL         continue from the IR to ttgir, llir, ptx or cubin\n"
    "                           (default: print the IR after the passes)\n"
    "  -h, --help               print this help\n"
    "      --version            print the versions of ttc, LLVM and ptxas, and the targets\n"
    "\n"
    "Environment: TTC_PTXAS (ptxas), TTC_LIBDEVICE (libdevice.10.bc), TTC_CACHE_DIR,\n"
    "TTC_CACHE=0, TTC_DUMP_DIR (every stage of every kernel compiled), NO_COLOR;\n"
    "docs/env.md lists every variable.\n"
    "\n"
    "Exit status: 0 on success; 1 on errors in the input (kernel source, signature, IR,\n"
    "a construct ttc does not support, diagnostics that differ from the expected ones);\n"
    "2 on usage errors, unreadable or unwritable files, a missing or failing tool\n"
    "(ptxas, libdevice) and internal errors.\n";

/* The help: the targets listed between the two parts. */
static int stdout_status(int rc);

static void print_usage(void) {
  fputs(usage_head, stdout);
  int col = printf("                           ");
  for (int i = 0; i < ttc_num_targets(); i++) {
    if (i > 0 && col > 72) {
      printf(",\n");
      col = printf("                           ");
    } else if (i > 0) {
      col += printf(", ");
    }
    col += printf("%s", ttc_target_name(i));
  }
  putchar('\n');
  fputs(usage_tail, stdout);
}

typedef enum input_kind { INPUT_PY, INPUT_TTIR, INPUT_TTGIR, INPUT_LLIR } input_kind;

#define MAX_SIGNATURES 64
#define MAX_INCLUDE_DIRS 64

typedef struct cli {
  const char *argv0;
  const char *include_dirs[MAX_INCLUDE_DIRS];
  int ninclude;
  const char *file, *kernel, *signature, *output, *reproducer, *input;
  const char *signatures[MAX_SIGNATURES]; /* every -s, for --aot */
  int nsignatures;
  const char *aot, *aot_name, *grid;
  const char *metadata_path; /* --emit-metadata */
  ttc_compile_options opts;
  ttc_ir_options ir;
  char *stdin_text; /* FILE '-': standard input, read once */
  size_t stdin_len;
  bool color; /* diagnostics in colour (--color) */
  bool version;
  bool has_emit, has_ir_flags, verify_diagnostics, list_passes, no_cache, verbose;
} cli;

static _Noreturn void usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "ttc: error: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n(run 'ttc --help' for usage)\n");
  exit(EXIT_USAGE);
}

/* A pass name --print-before/--print-after may name: 'all' or a registered pass. */
static bool known_pass(const char *name) {
  if (strcmp(name, "all") == 0) return true;
  for (int i = 0; i < ttc_ir_pass_count(); i++)
    if (strcmp(ttc_ir_pass_name(i), name) == 0) return true;
  return false;
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
  ttc_ir_options_init(&c->ir);
  c->argv0 = argv[0];
  c->opts.stop_after = TTC_LEVEL_PTX;
  int color = -1; /* auto */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      print_usage();
      exit(stdout_status(0));
    } else if (strcmp(a, "--version") == 0) {
      c->version = true;
    } else if (a[0] == '-' && a[1] == 'O') {
      if (a[2] < '0' || a[2] > '3' || a[3] != '\0')
        usage_error("unknown optimization level '%s' (expected -O0, -O1, -O2 or -O3)", a);
      c->opts.opt_level = c->ir.opt_level = a[2] - '0';
    } else if (strcmp(a, "--color") == 0 || strncmp(a, "--color=", 8) == 0) {
      const char *when = a[7] ? a + 8 : "always";
      if (strcmp(when, "always") == 0)
        color = 1;
      else if (strcmp(when, "never") == 0)
        color = 0;
      else if (strcmp(when, "auto") == 0)
        color = -1;
      else
        usage_error("unknown --color value '%s' (expected auto, always or never)", when);
    } else if ((v = flag_value(argc, argv, &i, "-k", "--kernel"))) {
      c->kernel = v;
    } else if ((v = flag_value(argc, argv, &i, "-s", "--signature"))) {
      if (c->nsignatures == MAX_SIGNATURES) usage_error("more than %s signatures", "64");
      c->signature = v;
      c->signatures[c->nsignatures++] = v;
    } else if ((v = flag_value(argc, argv, &i, NULL, "--aot"))) {
      c->aot = v;
    } else if ((v = flag_value(argc, argv, &i, NULL, "--aot-name"))) {
      c->aot_name = v;
    } else if ((v = flag_value(argc, argv, &i, NULL, "--grid"))) {
      c->grid = v;
    } else if ((v = flag_value(argc, argv, &i, NULL, "--cache-dir"))) {
      c->opts.cache_dir = v;
    } else if (strcmp(a, "--no-cache") == 0) {
      c->no_cache = true;
    } else if (strncmp(a, "-I", 2) == 0) {
      const char *dir = a[2] ? a + 2 : (i + 1 < argc ? argv[++i] : NULL);
      if (!dir) usage_error("option '%s' needs a directory", a);
      if (c->ninclude == MAX_INCLUDE_DIRS)
        usage_error("more than 64 include directories at '%s'", dir);
      c->include_dirs[c->ninclude++] = dir;
      c->opts.include_dirs = c->include_dirs;
      c->opts.num_include_dirs = c->ninclude;
    } else if ((v = flag_value(argc, argv, &i, "-w", "--num-warps"))) {
      c->opts.num_warps = parse_int(v, "--num-warps");
    } else if ((v = flag_value(argc, argv, &i, NULL, "--num-stages"))) {
      c->opts.num_stages = parse_int(v, "--num-stages");
    } else if ((v = flag_value(argc, argv, &i, NULL, "--arch"))) {
      c->opts.arch = v;
      c->ir.arch = v;
    } else if ((v = flag_value(argc, argv, &i, NULL, "--emit"))) {
      c->opts.stop_after = parse_level(v);
      c->has_emit = true;
    } else if ((v = flag_value(argc, argv, &i, NULL, "--input"))) {
      c->input = v;
    } else if ((v = flag_value(argc, argv, &i, NULL, "--passes"))) {
      c->ir.passes = v;
      c->has_ir_flags = true;
    } else if (strcmp(a, "--print-before-all") == 0) {
      c->ir.print_before = c->opts.print_before = "all";
    } else if (strcmp(a, "--print-after-all") == 0) {
      c->ir.print_after = c->opts.print_after = "all";
    } else if ((v = flag_value(argc, argv, &i, NULL, "--print-before"))) {
      c->ir.print_before = c->opts.print_before = v;
    } else if ((v = flag_value(argc, argv, &i, NULL, "--print-after"))) {
      c->ir.print_after = c->opts.print_after = v;
    } else if ((v = flag_value(argc, argv, &i, NULL, "--reproducer"))) {
      c->reproducer = v;
      c->has_ir_flags = true;
    } else if (strcmp(a, "--time-passes") == 0) {
      c->ir.time_passes = c->opts.time_passes = 1;
    } else if (strcmp(a, "--verify-each") == 0) {
      c->ir.verify_each = 1;
      c->has_ir_flags = true;
    } else if (strcmp(a, "--split-input-file") == 0) {
      c->ir.split_input_file = 1;
      c->has_ir_flags = true;
    } else if (strcmp(a, "--verify-diagnostics") == 0) {
      c->verify_diagnostics = true;
    } else if (strcmp(a, "--list-passes") == 0) {
      c->list_passes = true;
    } else if ((v = flag_value(argc, argv, &i, NULL, "--emit-metadata"))) {
      c->metadata_path = v;
    } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
      c->verbose = true;
      c->opts.remarks = 1;
    } else if ((v = flag_value(argc, argv, &i, "-o", "--output"))) {
      c->output = v;
    } else if ((v = flag_value(argc, argv, &i, NULL, "--ptxas"))) {
      c->opts.ptxas = v;
    } else if (strcmp(a, "--no-line-info") == 0) {
      c->opts.no_line_info = c->ir.no_line_info = 1;
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
  if (color < 0) { /* auto: a terminal that is not dumb, and no NO_COLOR */
    const char *term = getenv("TERM"), *no_color = getenv("NO_COLOR");
    color = isatty(fileno(stderr)) && term && strcmp(term, "dumb") != 0 && !(no_color && *no_color);
  }
  c->color = color != 0;
  if (c->list_passes || c->version) return;
  if (!c->file) usage_error("%s", "no input file");
  const char *printed[2] = {c->opts.print_before, c->opts.print_after};
  for (int k = 0; k < 2; k++)
    if (printed[k] && !known_pass(printed[k]))
      usage_error("unknown pass '%s' to print around (see --list-passes)", printed[k]);
  if (c->nsignatures > 1 && !c->aot) usage_error("%s", "more than one -s needs --aot");
  if ((c->grid || c->aot_name) && !c->aot) usage_error("%s", "--grid and --aot-name need --aot");
  /* the cache serves the levels it keeps; --print-loc and --verify-diagnostics compile
   * (and so do the pass reports, in the library) */
  c->opts.cache = !c->no_cache && !c->verify_diagnostics;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* --input, else the extension; anything unknown is a kernel file. */
static input_kind input_of(const cli *c) {
  static const char *const names[] = {"py", "ttir", "ttgir", "llir"};
  if (c->input) {
    for (int i = 0; i < 4; i++)
      if (strcmp(c->input, names[i]) == 0) return (input_kind)i;
    usage_error("unknown input level '%s' (expected py, ttir or ttgir)", c->input);
  }
  if (ends_with(c->file, ".ttir")) return INPUT_TTIR;
  if (ends_with(c->file, ".ttgir")) return INPUT_TTGIR;
  if (ends_with(c->file, ".ll")) return INPUT_LLIR;
  return INPUT_PY;
}

static int write_bytes(const char *path, const void *data, size_t n) {
  FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "ttc: error: cannot write '%s': %s\n", path, strerror(errno));
    return EXIT_USAGE;
  }
  errno = 0;
  size_t w = fwrite(data, 1, n, f);
  int bad = (f == stdout) ? fflush(f) : fclose(f);
  if (w != n || bad) {
    fprintf(stderr, "ttc: error: cannot write '%s': %s\n", path,
            errno ? strerror(errno) : "short write");
    return EXIT_USAGE;
  }
  return 0;
}

/* Exit status of a run whose output went to stdout (help, version, the
 * pass list): a full disk or a closed pipe is a failure, not success. */
static int stdout_status(int rc) {
  errno = 0;
  if (fflush(stdout) == 0 && !ferror(stdout)) return rc;
  fprintf(stderr, "ttc: error: cannot write to standard output: %s\n",
          errno ? strerror(errno) : "write error");
  return EXIT_USAGE;
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

/* Reads a whole file ('-': standard input); NULL (after a message) when it
 * cannot. Caller frees. */
static char *read_all(const char *path, size_t *len) {
  bool is_stdin = strcmp(path, "-") == 0;
  FILE *f = is_stdin ? stdin : fopen(path, "rb");
  char *buf = NULL;
  size_t n = 0, cap = 0;
  if (f) {
    for (;;) {
      if (n + 65536 > cap) {
        cap = cap ? cap * 2 : 65536 * 2;
        char *nb = realloc(buf, cap);
        if (!nb) break;
        buf = nb;
      }
      size_t got = fread(buf + n, 1, cap - n - 1, f);
      n += got;
      if (got == 0) break;
      if (n > ((size_t)64 << 20)) { /* the library's source limit: /dev/zero never ends */
        fprintf(stderr, "error: '%s' is larger than the source limit of 64 MiB\n", path);
        free(buf);
        fclose(f);
        return NULL;
      }
    }
    if (ferror(f) || !buf) {
      free(buf);
      buf = NULL;
    }
    if (!is_stdin) fclose(f);
  }
  if (!buf) {
    fprintf(stderr, "ttc: error: cannot read '%s'\n", is_stdin ? "<stdin>" : path);
    return NULL;
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}

/* The input's text: the file, or standard input read once and kept (a
 * copy each call). Caller frees; NULL after a message. */
static char *read_input(cli *c, size_t *len) {
  if (strcmp(c->file, "-") != 0) return read_all(c->file, len);
  if (!c->stdin_text && !(c->stdin_text = read_all("-", &c->stdin_len))) return NULL;
  char *copy = malloc(c->stdin_len + 1);
  if (!copy) {
    fprintf(stderr, "ttc: error: out of memory\n");
    return NULL;
  }
  memcpy(copy, c->stdin_text, c->stdin_len + 1);
  *len = c->stdin_len;
  return copy;
}

/* The name diagnostics give the input. */
static const char *input_name(const cli *c) {
  return strcmp(c->file, "-") == 0 ? "<stdin>" : c->file;
}

/* Compiles the kernel from the input file or standard input. */
static ttc_status compile_input(cli *c, const char *signature, ttc_kernel **k) {
  if (strcmp(c->file, "-") != 0)
    return ttc_compile_file(c->file, c->kernel, signature, &c->opts, k);
  size_t len = 0;
  char *text = read_input(c, &len);
  if (!text) {
    *k = NULL;
    return TTC_ERROR_IO;
  }
  ttc_status st = ttc_compile(text, len, "<stdin>", c->kernel, signature, &c->opts, k);
  free(text);
  return st;
}

/* Diagnostics on stderr; with --color as clang shows them: the location
 * and message bold, the severity coloured, the caret line green. */
static void put_diags(const cli *c, const char *text) {
  if (!c->color) {
    fputs(text, stderr);
    return;
  }
  static const struct {
    const char *word, *color;
  } sev[] = {{"error: ", "\033[1;31m"},
             {"warning: ", "\033[1;35m"},
             {"note: ", "\033[1;30m"},
             {"remark: ", "\033[1;34m"}};
  while (*text) {
    const char *eol = strchr(text, '\n');
    size_t n = eol ? (size_t)(eol - text) : strlen(text);
    const char *hit = NULL;
    int k = 0;
    for (int i = 0; i < 4 && !hit; i++) {
      size_t w = strlen(sev[i].word);
      if (n >= w && strncmp(text, sev[i].word, w) == 0) hit = text, k = i;
      for (const char *p = text; !hit && p + w + 2 <= text + n; p++)
        if (p[0] == ':' && p[1] == ' ' && strncmp(p + 2, sev[i].word, w) == 0) hit = p + 2, k = i;
    }
    size_t blanks = strspn(text, " ^~");
    if (hit) {
      size_t w = strlen(sev[k].word);
      fprintf(stderr, "\033[1m%.*s%s%.*s\033[0m\033[1m%.*s\033[0m", (int)(hit - text), text,
              sev[k].color, (int)w, hit, (int)(n - (size_t)(hit - text) - w), hit + w);
    } else if (n > 0 && blanks == n && memchr(text, '^', n)) {
      fprintf(stderr, "\033[1;32m%.*s\033[0m", (int)n, text);
    } else {
      fwrite(text, 1, n, stderr);
    }
    if (!eol) break;
    fputc('\n', stderr);
    text = eol + 1;
  }
}

static void list_passes(void) {
  for (int i = 0; i < ttc_ir_pass_count(); i++)
    printf("  %-30s %s\n", ttc_ir_pass_name(i), ttc_ir_pass_summary(i));
}

/* A shell word: single-quoted unless made of safe characters only. */
static void put_shell_word(FILE *f, const char *s) {
  bool safe = *s != '\0';
  for (const char *c = s; *c && safe; c++)
    safe = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789,=._-/+:%@", *c) !=
           NULL;
  if (safe) {
    fputs(s, f);
    return;
  }
  fputc('\'', f);
  for (const char *c = s; *c; c++) {
    if (*c == '\'')
      fputs("'\\''", f);
    else
      fputc(*c, f);
  }
  fputc('\'', f);
}

/* The IR a failing pass received, under a first line with the command that
 * reproduces the failure from the file. */
static int write_reproducer(const cli *c, const char *ir, const char *passes) {
  FILE *f = fopen(c->reproducer, "wb");
  if (!f) {
    fprintf(stderr, "ttc: error: cannot write '%s'\n", c->reproducer);
    return EXIT_USAGE;
  }
  fputs("// reproduce with: ", f);
  put_shell_word(f, c->argv0);
  fputc(' ', f);
  put_shell_word(f, c->reproducer);
  fputs(" --passes=", f);
  put_shell_word(f, passes);
  if (c->ir.verify_each) fputs(" --verify-each", f);
  fputc('\n', f);
  fputs(ir, f);
  if (fclose(f) != 0) {
    fprintf(stderr, "ttc: error: cannot write '%s'\n", c->reproducer);
    return EXIT_USAGE;
  }
  fprintf(stderr, "ttc: note: the IR the failing pass received is in '%s'\n", c->reproducer);
  return 0;
}

/* cubin output path: -o, else FILE with its extension replaced by .cubin. */
static void cubin_path(const cli *c, char *path, size_t n) {
  if (c->output) {
    snprintf(path, n, "%s", c->output);
    return;
  }
  if (strcmp(c->file, "-") == 0) {
    snprintf(path, n, "stdin.cubin");
    return;
  }
  const char *dot = strrchr(c->file, '.');
  size_t stem = dot ? (size_t)(dot - c->file) : strlen(c->file);
  snprintf(path, n, "%.*s.cubin", (int)stem, c->file);
}

/* The cubin, and its metadata beside it in OUT.json when OUT is a regular
 * file (not stdout, /dev/null or another device or FIFO). */
static int write_cubin(const char *out, const void *data, size_t n, const char *json) {
  int rc = write_bytes(out, data, n);
  struct stat st;
  if (rc == 0 && json && strcmp(out, "-") != 0 && stat(out, &st) == 0 && S_ISREG(st.st_mode)) {
    char meta[4096 + 8];
    snprintf(meta, sizeof meta, "%s.json", out);
    rc = write_bytes(meta, json, strlen(json));
  }
  return rc;
}

/* .ttir / .ttgir input: the IR tool. */
static int run_ir(cli *c) {
  if (c->ir.split_input_file && c->has_emit && c->opts.stop_after == TTC_LEVEL_CUBIN)
    usage_error("%s", "--split-input-file cannot be combined with --emit cubin: a cubin file "
                      "holds one kernel");
  size_t len = 0;
  char *text = read_input(c, &len);
  if (!text) return EXIT_USAGE;
  c->ir.emit = c->has_emit ? (int)c->opts.stop_after : -1;
  c->ir.print_locations = c->opts.emit_locations;
  c->ir.num_warps = c->opts.num_warps;
  c->ir.ptxas = c->opts.ptxas;
  c->ir.verify_diagnostics = c->verify_diagnostics;
  c->ir.keep_reproducer = c->reproducer != NULL;
  ttc_ir_result *r = NULL;
  ttc_status st = ttc_ir_run(text, len, input_name(c), &c->ir, &r);
  free(text);
  if (!r) {
    fprintf(stderr, "ttc: %s\n", ttc_status_string(st));
    return exit_code(st);
  }
  fputs(ttc_ir_result_dump(r), stderr);
  put_diags(c, ttc_ir_result_diagnostics(r));
  const char *passes = NULL;
  const char *repro = ttc_ir_result_reproducer(r, &passes);
  int rc = st == TTC_OK ? 0 : exit_code(st);
  if (repro && c->reproducer) {
    int wrc = write_reproducer(c, repro, passes);
    if (wrc) rc = wrc;
  }
  size_t n = 0;
  const void *data = ttc_ir_result_output(r, &n);
  if (st == TTC_OK || (c->ir.split_input_file && n > 0)) {
    int wrc;
    if (c->ir.emit == TTC_LEVEL_CUBIN) {
      char path[4096];
      cubin_path(c, path, sizeof path);
      wrc = write_cubin(path, data, n, ttc_ir_result_metadata_json(r));
    } else {
      wrc = write_bytes(c->output ? c->output : "-", data, n);
    }
    if (wrc) rc = wrc;
  }
  ttc_ir_result_destroy(r);
  return rc;
}

/* With --verify-diagnostics on a kernel file: the compile's diagnostics
 * against the file's `# expected-error {{...}}` comments. */
static int verify_py(cli *c, const ttc_kernel *k) {
  size_t len = 0;
  char *text = read_input(c, &len);
  if (!text) return EXIT_USAGE;
  char *report = NULL;
  ttc_status st =
      ttc_verify_diagnostics(text, len, input_name(c), ttc_kernel_diagnostics(k), &report);
  if (report) put_diags(c, report);
  free(report);
  free(text);
  return st == TTC_OK ? 0 : st == TTC_ERROR_INPUT ? EXIT_INPUT : EXIT_USAGE;
}

/* --aot: every signature compiled to a cubin, then PREFIX.c and PREFIX.h. */
static int run_aot(cli *c) {
  if (c->has_emit) usage_error("%s", "--aot writes C files: drop --emit");
  const char *base = strrchr(c->aot, '/');
  base = base ? base + 1 : c->aot;
  if (!*base || strpbrk(base, "\"\\\n\r"))
    usage_error("--aot '%s': the files' name must be non-empty, without '\"', '\\' or a line "
                "break (the source #includes the header by it)",
                c->aot);
  const ttc_kernel *kernels[MAX_SIGNATURES];
  ttc_kernel *owned[MAX_SIGNATURES] = {0};
  int rc = 0;
  c->opts.stop_after = TTC_LEVEL_CUBIN;
  for (int i = 0; i < c->nsignatures && rc == 0; i++) {
    ttc_status st = compile_input(c, c->signatures[i], &owned[i]);
    if (owned[i]) put_diags(c, ttc_kernel_diagnostics(owned[i]));
    if (st != TTC_OK) {
      if (st != TTC_ERROR_INPUT && st != TTC_ERROR_UNSUPPORTED && st != TTC_ERROR_IO)
        fprintf(stderr, "ttc: %s\n", ttc_status_string(st));
      rc = exit_code(st);
    }
    kernels[i] = owned[i];
  }
  char *src = NULL, *hdr = NULL, *err = NULL;
  if (rc == 0) {
    ttc_aot_options o;
    ttc_aot_options_init(&o);
    o.name = c->aot_name;
    o.grid = c->grid;
    const char *slash = strrchr(c->aot, '/');
    char hname[4096], path[4096 + 8];
    snprintf(hname, sizeof hname, "%s.h", slash ? slash + 1 : c->aot);
    o.header_name = hname;
    ttc_status st = ttc_aot_generate(kernels, c->nsignatures, &o, &src, &hdr, &err);
    if (st != TTC_OK) {
      fprintf(stderr, "ttc: error: %s\n", err ? err : ttc_status_string(st));
      rc = exit_code(st);
    } else {
      snprintf(path, sizeof path, "%s.h", c->aot);
      rc = write_bytes(path, hdr, strlen(hdr));
      snprintf(path, sizeof path, "%s.c", c->aot);
      if (rc == 0) rc = write_bytes(path, src, strlen(src));
    }
  }
  free(src);
  free(hdr);
  free(err);
  for (int i = 0; i < c->nsignatures; i++)
    ttc_kernel_destroy(owned[i]);
  return rc;
}

/* -v: what ptxas reported and where the time went, on stderr. */
static void report_stats(const ttc_kernel *k) {
  ttc_kernel_stats s = TTC_KERNEL_STATS_INIT;
  if (ttc_kernel_get_stats(k, &s) != TTC_OK) return;
  fprintf(stderr, "ttc: %s: ", ttc_kernel_name(k));
  if (s.num_regs >= 0)
    fprintf(stderr,
            "%d registers, %d bytes spill stores, %d bytes spill loads, %d bytes local, "
            "%d bytes shared (%d static)\n",
            s.num_regs, s.spills_store_bytes, s.spills_load_bytes, s.local,
            s.shared + s.shared_static, s.shared_static);
  else
    fprintf(stderr, "%d bytes shared (registers and spills need --emit cubin)\n", s.shared);
  fprintf(stderr, "ttc: %s: times:", ttc_kernel_name(k));
  bool any = false;
  for (int l = 0; l < TTC_NUM_LEVELS; l++) {
    if (s.time_ms[l] < 0) continue;
    fprintf(stderr, " %s %.1f ms", ttc_level_name((ttc_level)l), s.time_ms[l]);
    any = true;
  }
  fputs(any ? "\n" : " none (from the cache)\n", stderr);
}

/* Kernel files: the compile path. */
static int run_py(cli *c) {
  if (c->has_ir_flags)
    usage_error("%s", "--passes, --verify-each, --split-input-file and --reproducer need .ttir "
                      "or .ttgir input");
  if (!c->kernel) usage_error("%s", "no kernel name (-k NAME)");
  if (!c->signature) usage_error("%s", "no signature (-s SIG)");
  if (c->aot) return run_aot(c);
  ttc_kernel *k = NULL;
  ttc_status st = compile_input(c, c->signature, &k);
  if (c->verify_diagnostics && k && st != TTC_ERROR_IO) {
    int rc = verify_py(c, k);
    if (rc != 0 || st != TTC_OK) {
      ttc_kernel_destroy(k);
      return rc;
    }
  } else if (k) {
    fputs(ttc_kernel_pass_dump(k), stderr);
    put_diags(c, ttc_kernel_diagnostics(k));
  }
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
  const void *data = ttc_kernel_output(k, c->opts.stop_after, &n);
  int rc = 0;
  if (c->verbose) report_stats(k);
  if (c->metadata_path) {
    const char *json = ttc_kernel_metadata_json(k);
    rc = write_bytes(c->metadata_path, json ? json : "{}", json ? strlen(json) : 2);
    if (rc == 0 && strcmp(c->metadata_path, "-") == 0) fputc('\n', stdout);
  }
  if (rc != 0) {
  } else if (c->opts.stop_after == TTC_LEVEL_CUBIN) {
    char path[4096];
    const char *out = c->output;
    if (!out) {
      snprintf(path, sizeof path, "%s.cubin", c->kernel);
      out = path;
    }
    rc = write_cubin(out, data, n, ttc_kernel_metadata_json(k));
  } else {
    rc = write_bytes(c->output ? c->output : "-", data, n);
  }
  ttc_kernel_destroy(k);
  return rc;
}

/* --version: ttc's, LLVM's and ptxas's versions and the targets. */
static void print_version(const cli *c) {
  char ptxas[64];
  printf("ttc %s\n", ttc_version());
  printf("LLVM %s (NVPTX backend, linked into libttc)\n", ttc_llvm_version());
  if (ttc_ptxas_version(c->opts.ptxas, ptxas, sizeof ptxas) == TTC_OK)
    printf("ptxas %s\n", ptxas);
  else
    printf("ptxas not found (--ptxas, $TTC_PTXAS, PATH, /usr/local/cuda/bin): no cubins\n");
  printf("targets:");
  for (int i = 0; i < ttc_num_targets(); i++)
    printf(" %s", ttc_target_name(i));
  printf("\n");
}

int main(int argc, char **argv) {
  cli c = {0};
  parse_args(argc, argv, &c);
  if (c.version) {
    print_version(&c);
    return stdout_status(0);
  }
  if (c.list_passes) {
    list_passes();
    return stdout_status(0);
  }
  int rc = EXIT_USAGE;
  switch (input_of(&c)) {
  case INPUT_PY: rc = run_py(&c); break;
  case INPUT_TTIR:
  case INPUT_TTGIR: rc = run_ir(&c); break;
  case INPUT_LLIR: usage_error("%s", "LLVM IR input is not supported yet");
  }
  free(c.stdin_text);
  return rc;
}
