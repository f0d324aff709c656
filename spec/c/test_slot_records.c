/*
** test_slot_records.c: what a slot directory or a namespace may hold that
** no holder of ours wrote (docs/SLOTS.md, "Slots trust nothing they
** read"), with the local store and real generators:
**   a FIFO, a symbolic link and a directory under slot files' names: the
**   claim skips them, says so, and never hangs;
**   a record far in the future: its slot is skipped as corrupt; one that
**   is merely ahead is waited for at most max_wait_ms, and the wait ends
**   at once when the interrupt check says so;
**   two slot spaces in one namespace: a generator that gives some node
**   fields claims in the same space as one that leases them all (never
**   the same node), and a claim of another meaning is refused;
**   a lease asked for beside a node given whole is an error;
**   a group's directory (not world-writable) shares slots in 0660 files;
**   and a clock stepped back an hour: the wait is refused, not slept.
*/
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"
#include "slots.h"

static int64_t mono_ms (void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t now_ns (void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A generator of `scheme` with options "k=v" (integers where v is digits). */
static int mkgen (ids_generator *g, const char *scheme, ids_error *e, ...) {
  const ids_scheme *s = ids_scheme_find(scheme);
  ids_options o;
  va_list ap;
  const char *kv;
  int r = IDS_OK;
  ids_options_init(&o, s);
  va_start(ap, e);
  while (r == IDS_OK && (kv = va_arg(ap, const char *)) != NULL) {
    const char *eq = strchr(kv, '=');
    r = ids_options_set_text(&o, kv, (size_t)(eq - kv), eq + 1,
                             strlen(eq + 1), e);
  }
  va_end(ap);
  return r == IDS_OK ? ids_generator_init(g, s, &o, NULL, e) : r;
}

static int always (void *ctx) { (void)ctx; return 1; }

/* A record as slot_local.c writes it: "LIMIT h PID\n", 34 bytes. */
static void put_record (const char *path, int64_t limit) {
  FILE *f = fopen(path, "w");
  if (!CHECK(f != NULL)) return;
  fprintf(f, "%020lld h %10ld\n", (long long)limit, (long)getpid());
  fclose(f);
  chmod(path, 0666);
}

static void test_planted (void) {
  char dir[] = "/tmp/idscheme-records.XXXXXX", p[160], url[80], line[200];
  ids_generator g;
  ids_lease_info li;
  ids_error e;
  ids_value v;
  uint32_t n = 99;
  int64_t t0;
  if (!CHECK(scratch_dir(dir) != NULL)) return;
  snprintf(p, sizeof p, "%s/fluid.00000", dir);
  CHECK(mkfifo(p, 0666) == 0);
  snprintf(p, sizeof p, "%s/fluid.00001", dir);
  CHECK(symlink("/etc/passwd", p) == 0);
  snprintf(p, sizeof p, "%s/fluid.00002", dir);
  CHECK(mkdir(p, 0777) == 0);
  snprintf(url, sizeof url, "slots=local:%s", dir);
  t0 = mono_ms();
  if (!CHECKF(mkgen(&g, "fluid", &e, url, "slot_log=keep", NULL) == IDS_OK,
              "%s", e.msg))
    return;
  CHECK(mono_ms() - t0 < 5000);        /* no FIFO opened for reading */
  ids_generator_slot(&g, &n, NULL);
  CHECKF(n == 3, "slot %u", n);
  CHECK(ids_generator_lease(&g, &li) == 1);
  CHECKF(strstr(li.caution, "fluid.00000") && strstr(li.caution,
         "no slot file"), "caution: %s", li.caution);
  CHECK(ids_generator_lease_log(&g, line, sizeof line) == 1 &&
        strstr(line, "skipped a slot") != NULL);
  CHECKF(ids_generator_next(&g, &v, &e) == IDS_OK, "%s", e.msg);
  ids_generator_close(&g);
}

static void test_future (void) {
  char dir[] = "/tmp/idscheme-records.XXXXXX", p[160], url[80];
  ids_generator g;
  ids_lease_info li;
  ids_error e;
  ids_value v;
  uint32_t n = 99;
  int64_t t0;
  int rc;
  if (!CHECK(scratch_dir(dir) != NULL)) return;
  snprintf(url, sizeof url, "slots=local:%s", dir);
  /* 2036: no holder's; slot 0 is skipped, slot 1 issues at once */
  snprintf(p, sizeof p, "%s/fluid.00000", dir);
  put_record(p, 2082758400ll * 1000000000);
  t0 = mono_ms();
  if (!CHECKF(mkgen(&g, "fluid", &e, url, "slot_log=keep", NULL) == IDS_OK,
              "%s", e.msg))
    return;
  ids_generator_slot(&g, &n, NULL);
  CHECKF(n == 1, "slot %u", n);
  ids_generator_lease(&g, &li);
  CHECKF(strstr(li.caution, "fluid.00000") && strstr(li.caution, "corrupt"),
         "caution: %s", li.caution);
  CHECKF(ids_generator_next(&g, &v, &e) == IDS_OK, "%s", e.msg);
  CHECKF(mono_ms() - t0 < 10000, "took %lld ms", (long long)(mono_ms() - t0));
  ids_generator_close(&g);
  /* 30 s ahead, within a 60 s ttl: a holder's; waited for, but at most
  ** max_wait_ms; with "error" refused at once */
  snprintf(p, sizeof p, "%s/fluid.00001", dir);
  put_record(p, now_ns() + 30000000000ll);
  if (!CHECKF(mkgen(&g, "fluid", &e, url, "slot_ttl_ms=60000",
                    "max_wait_ms=300", NULL) == IDS_OK, "%s", e.msg))
    return;
  ids_generator_slot(&g, &n, NULL);
  CHECKF(n == 1, "slot %u", n);
  t0 = mono_ms();
  rc = ids_generator_next(&g, &v, &e);
  CHECKF(rc == IDS_ETIME && strstr(e.msg, "max_wait_ms (300)") &&
         strstr(e.msg, "handover floor"), "%d %s", rc, e.msg);
  CHECKF(mono_ms() - t0 < 2000, "took %lld ms", (long long)(mono_ms() - t0));
  ids_generator_close(&g);
  /* a long max_wait: the interrupt check ends it within its 10 ms */
  if (!CHECKF(mkgen(&g, "fluid", &e, url, "slot_ttl_ms=60000",
                    "max_wait_ms=600000", NULL) == IDS_OK, "%s", e.msg))
    return;
  ids_wait_interrupt(always, NULL);
  t0 = mono_ms();
  rc = ids_generator_next(&g, &v, &e);
  ids_wait_interrupt(NULL, NULL);
  CHECKF(rc == IDS_EINTR && strstr(e.msg, "interrupted"), "%d %s", rc,
         e.msg);
  CHECKF(mono_ms() - t0 < 2000, "took %lld ms", (long long)(mono_ms() - t0));
  ids_generator_close(&g);
  if (!CHECKF(mkgen(&g, "fluid", &e, url, "slot_ttl_ms=60000",
                    "policy=error", NULL) == IDS_OK, "%s", e.msg))
    return;
  rc = ids_generator_next(&g, &v, &e);
  CHECKF(rc == IDS_ECLOCK, "%d %s", rc, e.msg);
  ids_generator_close(&g);
}

/* Snowflake's worker given, its shard leased, beside generators that
** lease both: one slot space, never one node twice. */
static void test_widths (void) {
  char dir[] = "/tmp/idscheme-records.XXXXXX", url[80], u2[100];
  enum { NB = 33 };
  ids_generator a, b[NB];
  ids_slot *x;
  ids_slot_options so = {0};
  ids_error e;
  uint32_t n;
  int seen[1024] = {0}, i, ok = 1;
  if (!CHECK(scratch_dir(dir) != NULL)) return;
  snprintf(url, sizeof url, "slots=local:%s", dir);
  if (!CHECKF(mkgen(&a, "snowflake", &e, url, "worker=1", NULL) == IDS_OK,
              "%s", e.msg))
    return;
  ids_generator_slot(&a, &n, NULL);
  CHECKF(n == 32, "worker 1's first shard is slot 32, not %u", n);
  seen[n] = 1;
  for (i = 0; i < NB; i++) {
    if (!CHECKF(mkgen(&b[i], "snowflake", &e, url, NULL) == IDS_OK, "%s",
                e.msg)) {
      ok = 0;
      break;
    }
    ids_generator_slot(&b[i], &n, NULL);
    ok &= CHECKF(n < 1024 && !seen[n], "slot %u twice", n);
    seen[n % 1024] = 1;
  }
  CHECK(ok && seen[33] && !seen[34]);  /* 0..31, then 33: 32 is a's */
  for (int k = 0; k < i; k++) ids_generator_close(&b[k]);
  ids_generator_close(&a);
  /* a claim of another meaning in the namespace is refused */
  so.meaning = "worker:5";
  snprintf(u2, sizeof u2, "local:%s", dir);
  CHECKF(ids_slot_claim(u2, "snowflake", 5, &so, &x, &e) == IDS_EINVAL &&
         strstr(e.msg, "another meaning") && strstr(e.msg, "worker:5,shard:5"),
         "%s", e.msg);
  so.meaning = NULL;
  CHECKF(ids_slot_claim(u2, "snowflake", 10, &so, &x, &e) == IDS_EINVAL,
         "%s", e.msg);
}

static void test_given (void) {
  ids_generator g;
  ids_error e;
  int rc = mkgen(&g, "fluid", &e, "generator=5", "slots=local", NULL);
  CHECKF(rc == IDS_EINVAL && strstr(e.msg, "asks for a lease") &&
         strstr(e.msg, "generator"), "%d %s", rc, e.msg);
  rc = mkgen(&g, "fluid", &e, "generator=5", "slots=none", NULL);
  CHECKF(rc == IDS_OK, "%s", e.msg);
  if (rc == IDS_OK) ids_generator_close(&g);
}

/* A group's directory: 2770, files 0660; world-writable without the
** sticky bit: refused. */
static void test_group_dir (void) {
  char dir[] = "/tmp/idscheme-records.XXXXXX", p[160], url[80];
  ids_generator g;
  ids_error e;
  struct stat st;
  if (!CHECK(scratch_dir(dir) != NULL)) return;
  CHECK(chmod(dir, 02770) == 0);
  snprintf(url, sizeof url, "slots=local:%s", dir);
  if (CHECKF(mkgen(&g, "fluid", &e, url, NULL) == IDS_OK, "%s", e.msg)) {
    snprintf(p, sizeof p, "%s/fluid.00000", dir);
    CHECK(stat(p, &st) == 0 && (st.st_mode & 0777) == 0660);
    ids_generator_close(&g);
  }
  CHECK(chmod(dir, 0777) == 0);
  CHECKF(mkgen(&g, "fluid", &e, url, NULL) == IDS_ELEASE &&
         strstr(e.msg, "without the sticky bit"), "%s", e.msg);
}

/* A clock stepped back an hour under "hold": the tick's sequence is
** spent, and the wait for the clock is refused at once, not slept. */


static void test_clock_wait (void) {
  const ids_scheme *s = ids_scheme_find("fluid");
  fake f = {now_ns(), 0, 0, 0};
  ids_clock c = {fake_now, &f};
  ids_options o;
  ids_generator g;
  ids_value v;
  ids_error e;
  int rc = IDS_OK, n = 0;
  int64_t t0;
  ids_options_init(&o, s);
  if (!CHECK(ids_options_set_int(&o, "generator", 9, 1, &e) == IDS_OK &&
             ids_options_set_int(&o, "max_wait_ms", 11, 200, &e) == IDS_OK &&
             ids_generator_init(&g, s, &o, &c, &e) == IDS_OK))
    return;
  CHECK(ids_generator_next(&g, &v, &e) == IDS_OK);
  f.ns -= 3600 * 1000000000ll;
  t0 = mono_ms();
  while (n < 5000 && (rc = ids_generator_next(&g, &v, &e)) == IDS_OK) n++;
  CHECKF(n == 1023, "%d IDs on the held tick", n);
  CHECKF(rc == IDS_ETIME && strstr(e.msg, "waiting 3600") &&
         strstr(e.msg, "the clock to reach the generator's last ID"),
         "%d %s", rc, e.msg);
  CHECKF(mono_ms() - t0 < 2000, "took %lld ms", (long long)(mono_ms() - t0));
  f.ns += 3600 * 1000000000ll + 1000000;       /* the clock is back */
  CHECKF(ids_generator_next(&g, &v, &e) == IDS_OK, "%s", e.msg);
  ids_generator_close(&g);
}

int main (void) {
  if (ids_init() != IDS_OK) { fprintf(stderr, "ids_init failed\n"); return 2; }
  test_planted();
  test_future();
  test_widths();
  test_given();
  test_group_dir();
  test_clock_wait();
  return t_done();
}
