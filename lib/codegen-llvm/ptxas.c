// SPDX-License-Identifier: MIT
/* ptxas.c - cg_run_ptxas: PTX text to a cubin by running NVIDIA's ptxas in a
 * private temporary directory with posix_spawn (no shell). ptxas is found as
 * the explicit path, $TTC_PTXAS, `ptxas` on PATH, then the CUDA home. Its
 * stderr becomes the diagnostic on failure; nothing is printed here. With -v
 * its report (registers, spills, shared and local memory) is parsed for the
 * kernel's metadata. ptxas runs with a bound on its address space
 * (TTC_PTXAS_MAX_MB, default 8192): on a kernel whose threads hold
 * thousands of live values its register allocator grows past any machine's
 * memory (a 2^20-tile chain of 5 statements: 24 GB, then the kernel's OOM
 * killer), where the bound makes it fail with "Memory allocation failure".
 * Its wall time is bounded too (TTC_PTXAS_TIMEOUT, seconds, default 120): at
 * -O3 its time grows with the square of a long straight-line kernel (10k /
 * 30k / 100k dependent FMAs: 0.45 / 5.1 / 66 s) and faster still with the
 * live values a thread holds (vector add on a 2^20 tile: about 20 minutes),
 * so a kernel inside every limit of ttc could hold the caller for an hour. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <llvm-c/Core.h>

#include "codegen-llvm/cg.h"

#ifndef TTC_DEFAULT_CUDA_HOME
#define TTC_DEFAULT_CUDA_HOME "/usr/local/cuda"
#endif

extern char **environ;

static bool is_executable(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

bool cg_find_ptxas(const char *explicit_path, char *buf, size_t cap) {
  if (explicit_path && *explicit_path) {
    snprintf(buf, cap, "%s", explicit_path);
    return is_executable(buf);
  }
  const char *env = getenv("TTC_PTXAS");
  if (env && *env) {
    snprintf(buf, cap, "%s", env);
    return is_executable(buf);
  }
  const char *path = getenv("PATH");
  while (path && *path) {
    const char *end = strchr(path, ':');
    size_t len = end ? (size_t)(end - path) : strlen(path);
    if (len > 0 && len + 7 < cap) {
      snprintf(buf, cap, "%.*s/ptxas", (int)len, path);
      if (is_executable(buf)) return true;
    }
    path = end ? end + 1 : NULL;
  }
  snprintf(buf, cap, "%s/bin/ptxas", TTC_DEFAULT_CUDA_HOME);
  return is_executable(buf);
}

static bool write_file(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return false;
  bool ok = fwrite(data, 1, n, f) == n;
  return fclose(f) == 0 && ok;
}

/* The most of ptxas's output a diagnostic quotes, and the largest cubin
 * read (a 100k-statement kernel's: about 8 MB). */
#define PTXAS_LOG_MAX 65536
#define CUBIN_MAX ((size_t)1 << 30)

/* Reads at most `max` bytes of a regular file (*truncated says whether
 * there were more); caller frees. NUL-terminated for text use. NULL for
 * anything but a regular file: ptxas writes its files in ttc's private
 * directory, and a FIFO or device there would block or never end. */
static char *read_file(const char *path, size_t *size, size_t max, bool *truncated) {
  *size = 0;
  if (truncated) *truncated = false;
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  struct stat st;
  if (fd < 0) return NULL;
  FILE *f = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? fdopen(fd, "rb") : NULL;
  if (!f) {
    close(fd);
    return NULL;
  }
  size_t cap = 4096, n = 0;
  char *data = malloc(cap);
  while (data) {
    if (n + 1 >= cap) {
      char *grown = realloc(data, cap * 2);
      if (!grown) {
        free(data);
        data = NULL;
        break;
      }
      data = grown;
      cap *= 2;
    }
    size_t want = cap - n - 1 < max - n ? cap - n - 1 : max - n;
    size_t k = fread(data + n, 1, want, f);
    n += k;
    if (n == max) {
      if (truncated) *truncated = fgetc(f) != EOF;
      break;
    }
    if (k == 0) break;
  }
  fclose(f);
  if (data) data[n] = '\0';
  *size = n;
  return data;
}

/* A bound from the environment: dflt when the variable is unset or not a
 * non-negative integer, 0 (none) when it is above most. */
static long env_bound(const char *name, long dflt, unsigned long most) {
  const char *e = getenv(name);
  if (!e || !*e || *e == ' ' || *e == '\t') return dflt; /* strtol would skip them: "5 " does not */
  char *end;
  errno = 0;
  long v = strtol(e, &end, 10);
  if (*end || v < 0) return dflt;
  if (errno == ERANGE || (unsigned long)v > most) return 0;
  return v;
}

/* The address-space bound for ptxas, in MiB (0: none; so is a value too
 * large to express in bytes). */
static long ptxas_max_mb(void) {
  return env_bound("TTC_PTXAS_MAX_MB", 8192, (unsigned long)(RLIM_INFINITY >> 21));
}

/* Lowers the soft address-space limit of process pid to *max_mb MiB, or to
 * its hard limit when that is lower (*max_mb becomes what was set); false
 * when it could not (Linux's prlimit). */
static bool bound_address_space(pid_t pid, long *max_mb) {
  struct rlimit cur;
  if (prlimit(pid, RLIMIT_AS, NULL, &cur) != 0) return false;
  rlim_t want = (rlim_t)*max_mb << 20;
  if (cur.rlim_max != RLIM_INFINITY && want > cur.rlim_max) want = cur.rlim_max;
  struct rlimit lim = {want, cur.rlim_max};
  if (prlimit(pid, RLIMIT_AS, &lim, NULL) != 0) return false;
  *max_mb = (long)(want >> 20);
  return true;
}

/* The wall-time bound for ptxas, in seconds (0: none; so is one over 30
 * years). */
static long ptxas_timeout_s(void) { return env_bound("TTC_PTXAS_TIMEOUT", 120, 1000000000UL); }

/* Waits for child pid until deadline (CLOCK_MONOTONIC seconds); true when
 * it exited (not yet reaped), false when the deadline passed. A pidfd wakes
 * the wait the moment the child exits; where the kernel has none (before
 * Linux 5.3) the child is polled every few milliseconds. */
static bool wait_exit_until(pid_t pid, double deadline) {
#ifdef SYS_pidfd_open
  int fd = (int)syscall(SYS_pidfd_open, pid, 0);
  if (fd >= 0) {
    bool exited = false;
    for (;;) {
      double left = deadline - ir_now_seconds();
      if (left <= 0) break;
      struct pollfd p = {fd, POLLIN, 0};
      int ms = left > 1e6 ? 1000000000 : (int)(left * 1e3) + 1;
      int n = poll(&p, 1, ms);
      if (n > 0) {
        exited = true;
        break;
      }
      if (n < 0 && errno != EINTR) break; /* fall back to polling below */
    }
    close(fd);
    if (exited || ir_now_seconds() >= deadline) return exited;
  }
#endif
  siginfo_t info;
  struct timespec nap = {0, 2 * 1000 * 1000};
  for (;;) {
    info.si_pid = 0;
    if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid)
      return true;
    if (ir_now_seconds() >= deadline) return false;
    nanosleep(&nap, NULL);
  }
}

/* Runs argv with stdout and stderr into log_path; returns the exit status
 * (-1 when it could not start, with errno kept). With *max_mb > 0 the
 * child's address space is bounded right after the spawn (glibc returns
 * once the child has exec'd ptxas, which has not yet read its input);
 * *max_mb becomes 0 when the bound could not be set. With timeout_s > 0 a
 * child still running after that many seconds is killed, and *timed_out
 * says so. A child ended by a signal gives 128 + the signal. */
static int spawn_wait(char *const argv[], const char *log_path, long *max_mb, long timeout_s,
                      bool *timed_out) {
  posix_spawn_file_actions_t fa;
  pid_t pid;
  int status = 0;
  if (timed_out) *timed_out = false;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  double start = ir_now_seconds();
  int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    errno = rc;
    return -1;
  }
  if (max_mb && *max_mb > 0 && !bound_address_space(pid, max_mb))
    *max_mb = 0; /* the run goes on without */
  if (timeout_s > 0 && !wait_exit_until(pid, start + (double)timeout_s)) {
    kill(pid, SIGKILL);
    if (timed_out) *timed_out = true;
  }
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* The number just before `what` in [p, end) ("40 registers" -> 40); -1 if none. */
static int number_before(const char *p, const char *end, const char *what) {
  size_t n = strlen(what);
  for (const char *q = p; q + n <= end; q++) {
    if (memcmp(q, what, n) != 0) continue;
    const char *d = q;
    while (d > p && d[-1] == ' ')
      d--;
    const char *digits_end = d;
    while (d > p && d[-1] >= '0' && d[-1] <= '9')
      d--;
    if (d == digits_end) continue;
    long v = strtol(d, NULL, 10);
    return v > 1 << 30 ? 1 << 30 : (int)v;
  }
  return -1;
}

bool cg_parse_ptxas_info(const char *log, cg_ptxas_info *info) {
  *info = (cg_ptxas_info){-1, -1, -1, 0, -1};
  if (!log) return false;
  /* the first entry's report runs to the next "Compiling entry function" */
  const char *p = strstr(log, "Compiling entry function");
  if (!p) p = log;
  const char *end = *p ? strstr(p + 1, "Compiling entry function") : NULL; /* "" has no p + 1 */
  if (!end) end = p + strlen(p);
  info->num_regs = number_before(p, end, " registers");
  info->spill_store_bytes = number_before(p, end, " bytes spill stores");
  info->spill_load_bytes = number_before(p, end, " bytes spill loads");
  int smem = number_before(p, end, " bytes smem");
  info->shared_static = smem < 0 ? 0 : smem;
  info->local = number_before(p, end, " bytes lmem");
  if (info->local < 0) info->local = number_before(p, end, " bytes stack frame");
  if (info->local < 0) info->local = 0;
  if (info->spill_store_bytes < 0) info->spill_store_bytes = 0;
  if (info->spill_load_bytes < 0) info->spill_load_bytes = 0;
  return info->num_regs >= 0;
}

bool cg_ptxas_version(const char *ptxas, char *buf, size_t cap) {
  char exe[4096], dir[4096], log_path[4200];
  if (cap == 0) return false;
  buf[0] = '\0';
  if (!cg_find_ptxas(ptxas, exe, sizeof exe)) return false;
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/ttc-ptxas-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) return false;
  snprintf(log_path, sizeof log_path, "%s/version.log", dir);
  char flag[] = "--version";
  char *argv[] = {exe, flag, NULL};
  int rc = spawn_wait(argv, log_path, NULL, ptxas_timeout_s(), NULL);
  size_t n = 0;
  char *log = rc == 0 ? read_file(log_path, &n, PTXAS_LOG_MAX, NULL) : NULL;
  unlink(log_path);
  rmdir(dir);
  /* "..., release 13.0, V13.0.88": the text after the last " V" */
  const char *v = NULL;
  for (const char *p = log ? strstr(log, ", V") : NULL; p; p = strstr(p + 1, ", V"))
    v = p + 3;
  size_t len = 0;
  while (v && v[len] && v[len] != '\n' && v[len] != '\r' && v[len] != ' ')
    len++;
  if (v && len > 0 && len < cap) {
    memcpy(buf, v, len);
    buf[len] = '\0';
  }
  free(log);
  return buf[0] != '\0';
}

bool cg_run_ptxas(ir_context *ctx, const char *ptx, const char *arch, const char *ptxas,
                  void **cubin, size_t *cubin_size) {
  return cg_run_ptxas_info(ctx, ptx, arch, ptxas, cubin, cubin_size, NULL);
}

bool cg_run_ptxas_info(ir_context *ctx, const char *ptx, const char *arch, const char *ptxas,
                       void **cubin, size_t *cubin_size, cg_ptxas_info *info) {
  ir_loc none = {0};
  char exe[4096], dir[4096], ptx_path[4200], bin_path[4200], log_path[4200], arch_arg[64];
  *cubin = NULL;
  *cubin_size = 0;
  if (info) cg_parse_ptxas_info(NULL, info);
  if (!cg_find_ptxas(ptxas, exe, sizeof exe)) {
    const char *env = getenv("TTC_PTXAS");
    if (ptxas && *ptxas)
      ir_error(ctx, none, "ptxas not found: '%s' (the explicit path) is not an executable file",
               ptxas);
    else if (env && *env)
      ir_error(ctx, none, "ptxas not found: TTC_PTXAS is '%s', which is not an executable file",
               env);
    else
      ir_error(ctx, none, "ptxas not found (tried PATH and %s/bin); set TTC_PTXAS",
               TTC_DEFAULT_CUDA_HOME);
    return false;
  }
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/ttc-ptxas-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    ir_error(ctx, none, "ptxas: cannot create a temporary directory in '%s' (TMPDIR): %s",
             tmp && *tmp ? tmp : "/tmp", strerror(errno));
    return false;
  }
  snprintf(ptx_path, sizeof ptx_path, "%s/kernel.ptx", dir);
  snprintf(bin_path, sizeof bin_path, "%s/kernel.cubin", dir);
  snprintf(log_path, sizeof log_path, "%s/ptxas.log", dir);
  snprintf(arch_arg, sizeof arch_arg, "-arch=%s", arch && *arch ? arch : "sm_90");
  bool ok = false;
  if (!write_file(ptx_path, ptx, strlen(ptx))) {
    ir_error(ctx, none, "ptxas: cannot write '%s': %s", ptx_path, strerror(errno));
  } else {
    /* -lineinfo keeps the PTX's .loc in the cubin (nothing without them) */
    char opt[] = "-O3", out_flag[] = "-o", verbose[] = "-v", lineinfo[] = "-lineinfo";
    char *argv[] = {exe, arch_arg, opt, lineinfo, ptx_path, out_flag, bin_path, NULL, NULL};
    if (info) { /* -v after the output: its report goes to the log */
      argv[7] = verbose;
    }
    long max_mb = ptxas_max_mb(), timeout_s = ptxas_timeout_s();
    bool timed_out = false;
    int rc = spawn_wait(argv, log_path, &max_mb, timeout_s, &timed_out);
    int spawn_errno = errno; /* reading the log may change errno */
    size_t log_n = 0;
    bool log_cut = false;
    char *log = read_file(log_path, &log_n, PTXAS_LOG_MAX, &log_cut);
    while (log && log_n > 0 && (log[log_n - 1] == '\n' || log[log_n - 1] == '\r'))
      log[--log_n] = '\0';
    if (log && log_cut) { /* the diagnostic quotes the start */
      char *more = realloc(log, log_n + 32);
      if (more) snprintf(more + log_n, 32, "\n... (cut at %d bytes)", PTXAS_LOG_MAX);
      log = more ? more : log;
    }
    if (rc < 0) {
      ir_error(ctx, none, "ptxas failed: cannot run '%s': %s", exe, strerror(spawn_errno));
    } else if (timed_out) {
      ir_error(ctx, none,
               "ptxas did not finish in %ld s and was stopped (TTC_PTXAS_TIMEOUT sets the "
               "bound in seconds, 0 lifts it); ptxas takes longest on very long straight-line "
               "code and on threads that hold thousands of values: more warps or smaller "
               "tiles help",
               timeout_s);
    } else if (rc != 0 && log && strstr(log, "Memory allocation failure") && max_mb > 0) {
      ir_error(ctx, none,
               "ptxas failed: %s (it runs with at most %ld MiB of address space; "
               "TTC_PTXAS_MAX_MB changes that, 0 lifts it)",
               log, max_mb);
    } else if (rc > 128 && rc < 128 + 65) {
      ir_error(ctx, none, "ptxas was killed by signal %d (%s)%s%s%s", rc - 128, strsignal(rc - 128),
               log && *log ? ": " : "", log ? log : "",
               max_mb > 0 ? "; it runs with a bounded address space (TTC_PTXAS_MAX_MB), which "
                            "may be too small"
                          : "");
    } else if (rc != 0 && log && *log) {
      ir_error(ctx, none, "ptxas failed: %s", log);
    } else if (rc != 0) {
      ir_error(ctx, none, "ptxas failed with exit status %d and no message", rc);
    } else {
      bool cut = false;
      *cubin = read_file(bin_path, cubin_size, CUBIN_MAX, &cut);
      ok = *cubin != NULL && *cubin_size > 0 && !cut;
      if (info) cg_parse_ptxas_info(log, info);
      if (cut)
        ir_error(ctx, none, "ptxas wrote a cubin larger than %zu MiB", CUBIN_MAX >> 20);
      else if (!ok)
        ir_error(ctx, none, "ptxas failed: no output written to '%s'", bin_path);
    }
    free(log);
  }
  unlink(ptx_path);
  unlink(bin_path);
  unlink(log_path);
  rmdir(dir);
  if (!ok) {
    free(*cubin);
    *cubin = NULL;
    *cubin_size = 0;
  }
  return ok;
}
