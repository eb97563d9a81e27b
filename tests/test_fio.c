/* test_fio.c - the fio job language: units, job files (global sections,
 * includes), the inline spec, named workload expansions and every error
 * message, compared field by field and word for word. */
#include "sim/host/workload.h"
#include "tests/cutest.h"

#include <string.h>

#define KiB 1024ull
#define MiB (1024ull * KiB)
#define GiB (1024ull * MiB)

static void expect_error(GError *err, const char *msg)
{
    CU_ASSERT_PTR_NOT_NULL(err);
    if (!err)
        return;
    if (strcmp(err->message, msg) != 0)
        fprintf(stderr, "got:      %s\nexpected: %s\n", err->message, msg);
    CU_ASSERT_STRING_EQUAL(err->message, msg);
}

static void test_bytes(void)
{
    static const struct {
        const char *text;
        uint32_t base;
        uint64_t want;
    } cases[] = {
        {"4096", 1024, 4096},         {"4k", 1024, 4096},         {"4K", 1024, 4096},
        {"4kb", 1024, 4096},          {"4KB", 1024, 4096},        {"4kib", 1024, 4000},
        {"4KiB", 1024, 4000},         {"4ki", 1024, 4096},        {"1m", 1024, MiB},
        {"1g", 1024, GiB},            {"2t", 1024, 2048 * GiB},   {"1p", 1024, 1024 * 1024 * GiB},
        {"0x1000", 1024, 4096},       {"1.5k", 1024, 1536},       {"512b", 1024, 512},
        {"4k", 1000, 4000},           {"4kib", 1000, 4096},       {"1m", 1000, 1000000},
        {"1gib", 1000, GiB},          {"0", 1024, 0},            {"4ki", 1000, 4000},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        uint64_t v = 0;
        g_autoptr(GError) err = NULL;
        CU_ASSERT_TRUE(workload_parse_bytes(cases[i].text, cases[i].base, &v, &err));
        CUTEST_EQ(v, cases[i].want);
    }
    static const char *const bad[] = {"4q", "", "k", "4kk", "-1", "99999999999p"};
    for (unsigned i = 0; i < G_N_ELEMENTS(bad); i++) {
        uint64_t v = 0;
        g_autoptr(GError) err = NULL;
        CU_ASSERT_FALSE(workload_parse_bytes(bad[i], 1024, &v, &err));
        g_autofree char *msg = g_strdup_printf(
            "found \"%s\", expected a size such as 4096, 4k, 1m or 2g", bad[i]);
        expect_error(err, msg);
    }
}

/* fio's arithmetic in numbers: each operand with its unit. */
static void test_arithmetic(void)
{
    static const struct {
        const char *text;
        uint64_t want;
    } cases[] = {
        {"(4k*2)", 8 * KiB},          {"2*64k", 128 * KiB},        {"(1m+512k)/2", 768 * KiB},
        {"(10-4)*1k", 6 * KiB},       {"2^10", 1024},              {"(7%4)*1k", 3 * KiB},
        {"( 1g - 1m ) / 1k", 1023 * KiB},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        uint64_t v = 0;
        g_autoptr(GError) err = NULL;
        CU_ASSERT_TRUE(workload_parse_bytes(cases[i].text, 1024, &v, &err));
        CUTEST_EQ(v, cases[i].want);
    }
    g_autofree char *deep = g_strnfill(100000, '(');
    g_autofree char *signs = g_strnfill(100000, '-');
    g_autofree char *pows = g_strnfill(100000, '^');
    signs[0] = '(';
    pows[0] = '(';
    const char *const bad[] = {"(4k*", "4k*x", "(1m)/0", "1k-(2k)*1+", deep, signs, pows};
    for (unsigned i = 0; i < G_N_ELEMENTS(bad); i++) {
        uint64_t v = 0;
        g_autoptr(GError) err = NULL;
        CU_ASSERT_FALSE(workload_parse_bytes(bad[i], 1024, &v, &err));
        g_autofree char *msg = g_strdup_printf(
            "found \"%s\", expected a non-negative arithmetic expression of sizes such as (4k*2) "
            "or 1m+512k (+ - * / %% ^ and parentheses)", bad[i]);
        expect_error(err, msg);
    }
}

/* The value syntax of fio's example jobs, in tests/data/jobs/fio_syntax.fio:
 * trailing comments, ${VAR}, arithmetic, aliases, rw offsets, new options. */
static void test_fio_syntax(void)
{
    g_autoptr(GError) err = NULL;
    g_setenv("FTLSIM_TEST_BS", "16k", TRUE);
    g_autoptr(Workload) w = workload_from_jobfile("tests/data/jobs/fio_syntax.fio", &err);
    g_unsetenv("FTLSIM_TEST_BS");
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CUTEST_EQ(workload_job_count(w), 2);
    const WorkloadJobSpec *a = workload_job_spec(w, 0), *b = workload_job_spec(w, 1);
    CUTEST_EQ(a->bs[IO_READ], 16 * KiB);
    CUTEST_EQ(a->size, 256 * KiB);
    CUTEST_EQ(a->runtime_ns, 30 * SIM_SEC); /* timeout */
    CUTEST_EQ(a->blockalign, 8 * KiB);
    CUTEST_EQ(a->rw, WL_RW_READ);
    CUTEST_EQ(a->seq_add, -8 * (int64_t)KiB);
    CUTEST_EQ(b->rw, WL_RW_WRITE); /* "w" */
    CUTEST_EQ(b->number_ios, 3);
    CUTEST_EQ(b->offset_increment, MiB);
    CU_ASSERT_STRING_EQUAL(b->wait_for, "backwards");

    g_autoptr(GError) e2 = NULL;
    g_autoptr(Workload) w2 = workload_from_jobfile("tests/data/jobs/fio_syntax.fio", &e2);
    CU_ASSERT_PTR_NULL(w2);
    expect_error(e2, "tests/data/jobs/fio_syntax.fio:6: ${FTLSIM_TEST_BS} is not set in the "
                     "environment, expected it set (e.g. FTLSIM_TEST_BS=4k ftlsim run ...)");

    static const struct {
        const char *spec, *msg;
    } cases[] = {
        {"rw=read:-x", "workload spec, job 1: option \"rw\": found \"read:-x\", expected "
                       "NAME:OFFSET with an offset such as 8k or -8k"},
        {"rw=randread,random_distribution=zoned:50/5:30/15",
         "workload spec, job 1: option \"random_distribution\": found \"zoned:50/5:30/15\", "
         "expected zoned:PCT/PCT:PCT/PCT... with shares and sizes adding up to 100"},
        {"rw=randread,random_distribution=sequence:1,x",
         "workload spec, job 1: option \"random_distribution\": found \"sequence:1,x\", "
         "expected sequence:I,J,K... with 1 to 64 block indices"},
        {"ioengine=net", "workload spec, job 1: option \"ioengine\": found \"net\", expected a "
                         "block I/O engine (sync, psync, vsync, pvsync, pvsync2, libaio, io_uring, "
                         "posixaio, mmap, splice, libzbc) or null; other engines do not do block I/O on a "
                         "drive"},
        {"rw=read,ss=iops", "workload spec, job 1: option \"ss\": found \"iops\", expected "
                            "iops:LIMIT, iops_slope:LIMIT, bw:LIMIT or bw_slope:LIMIT, the limit "
                            "a number or a percentage such as 10%, or pts"},
        {"rw=randwrite,ss=pts,ss_rounds=4", "workload spec, job 1: option \"ss_rounds\": found "
                                            "\"4\", expected an integer from 5 to 100000"},
        {"rw=randwrite,ss=pts,ss_round=0", "workload spec, job 1: option \"ss_round\": found "
                                           "\"0\", expected a round from 1 ms to 1 day such as "
                                           "60s"},
        {"rw=read,zonemode=zoned", "workload spec, job 1: option \"zonemode\": found \"zoned\", "
                                   "expected none, strided or zbd"},
        {"rw=read,exit_what=some", "workload spec, job 1: option \"exit_what\": found \"some\", "
                                   "expected group, stonewall or all"},
        {"rw=read,iodepth_mode=stepped:10-130/5,5/30",
         "workload spec, job 1: option \"iodepth_mode\": found \"stepped:10-130/5,5/30\", but "
         "this fio feature is not simulated by ftlsim"},
        {"rw=write,verify=crc99", "workload spec, job 1: option \"verify\": found \"crc99\", "
                                  "expected a verify method (md5, crc32c, crc64, xxhash, sha256, "
                                  "meta, pattern, ...) or 0"},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autoptr(GError) e = NULL;
        g_autoptr(Workload) x = workload_from_spec(cases[i].spec, &e);
        CU_ASSERT_PTR_NULL(x);
        expect_error(e, cases[i].msg);
    }
    g_autoptr(Workload) v = workload_from_spec("rw=randrw,bssplit=4k/50:64k/50,128k/100,"
                                               "random_distribution=zoned_abs:60/1g:40/10g,"
                                               "ss=bw_slope:0.5%,ss_dur=30s,verify=md5,"
                                               "rate_process=poisson,prio=2", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    const WorkloadJobSpec *s = workload_job_spec(v, 0);
    CUTEST_EQ(s->n_bssplit[IO_READ], 2);
    CUTEST_EQ(s->n_bssplit[IO_WRITE], 1);
    CUTEST_EQ(s->bssplit[IO_TRIM][0].bs, 128 * KiB);
    CUTEST_EQ(s->dist, WL_DIST_ZONED_ABS);
    CUTEST_EQ(s->zones[1].size, 10 * GiB);
    CUTEST_EQ(s->ss, WL_SS_BW);
    CU_ASSERT_TRUE(s->ss_slope && s->ss_pct);
    CUTEST_NEAR(s->ss_limit, 0.5, 1e-12);
    CUTEST_EQ(s->ss_dur, 30 * SIM_SEC);
    CU_ASSERT_TRUE(s->verify && s->do_verify && s->rate_poisson);
}

static void test_time(void)
{
    static const struct {
        const char *text;
        SimTime bare, want;
    } cases[] = {
        {"60", SIM_SEC, 60 * SIM_SEC},   {"500ms", SIM_SEC, 500 * SIM_MS},
        {"2m", SIM_SEC, 120 * SIM_SEC},  {"1h", SIM_SEC, 3600 * SIM_SEC},
        {"10us", SIM_SEC, 10 * SIM_US},  {"1.5s", SIM_SEC, 1500 * SIM_MS},
        {"100", SIM_US, 100 * SIM_US},   {"1d", SIM_SEC, 86400 * SIM_SEC},
        {"250ns", SIM_SEC, 250},         {"3msec", SIM_US, 3 * SIM_MS},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        SimTime v = 0;
        g_autoptr(GError) err = NULL;
        CU_ASSERT_TRUE(workload_parse_time(cases[i].text, cases[i].bare, &v, &err));
        CUTEST_EQ(v, cases[i].want);
    }
    SimTime v;
    g_autoptr(GError) err = NULL;
    CU_ASSERT_FALSE(workload_parse_time("5x", SIM_SEC, &v, &err));
    expect_error(err, "found \"5x\", expected a duration such as 500ms, 60s or 2m");
}

static void test_jobfile(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(Workload) w = workload_from_jobfile("tests/data/jobs/basic.fio", &err);
    CUTEST_REQUIRE_PTR(w);
    CUTEST_EQ(workload_job_count(w), 2);
    const WorkloadJobSpec *a = workload_job_spec(w, 0), *b = workload_job_spec(w, 1);
    CU_ASSERT_STRING_EQUAL(a->name, "seqwrite");
    CUTEST_EQ(a->rw, WL_RW_WRITE);
    CUTEST_EQ(a->bs[IO_READ], 128 * KiB);
    CUTEST_EQ(a->bs[IO_WRITE], 128 * KiB);
    CUTEST_EQ(a->iodepth, 32);
    CUTEST_EQ(a->numjobs, 2);
    CUTEST_NEAR(a->size_pct, 50.0, 1e-12);
    CU_ASSERT_FALSE(a->stonewall);
    CU_ASSERT_STRING_EQUAL(b->name, "randmix");
    CU_ASSERT_TRUE(b->stonewall);
    CUTEST_EQ(b->rw, WL_RW_RANDRW);
    CUTEST_EQ(b->rwmixread, 70);
    CUTEST_EQ(b->bs[IO_READ], 4 * KiB);
    CUTEST_EQ(b->bs[IO_WRITE], 64 * KiB);
    CUTEST_EQ(b->bs[IO_TRIM], 64 * KiB); /* the last value carries on */
    for (int d = 0; d < WL_DIRS; d++) { /* one value: every direction */
        CUTEST_EQ(b->n_bssplit[d], 3);
        /* ordered by share as fio does, an empty share last: 64k, 4k, 1m */
        CUTEST_EQ(b->bssplit[d][0].bs, 64 * KiB);
        CUTEST_EQ(b->bssplit[d][2].bs, MiB);
        CUTEST_EQ(b->bssplit[d][2].pct, 10);
    }
    CUTEST_NEAR(b->size_pct, 50.0, 1e-12); /* from [global] */
    CUTEST_EQ(b->offset, GiB);
    CUTEST_EQ(b->io_size, 10 * GiB);
    CUTEST_EQ(b->runtime_ns, 120 * SIM_SEC);
    CU_ASSERT_TRUE(b->time_based);
    CUTEST_EQ(b->ramp_ns, 500 * SIM_MS);
    CUTEST_EQ(b->thinktime_ns, 250 * SIM_US);
    CUTEST_EQ(b->startdelay_ns, 3 * SIM_SEC);
    CUTEST_EQ(b->rate[IO_READ], 100 * MiB);
    CUTEST_EQ(b->rate[IO_WRITE], 50 * MiB);
    CUTEST_EQ(b->rate[IO_TRIM], 50 * MiB);
    CUTEST_EQ(b->rate_iops[IO_READ], 0);
    CUTEST_EQ(b->rate_iops[IO_WRITE], 2000);
    CUTEST_EQ(b->dist, WL_DIST_ZIPF);
    CUTEST_NEAR(b->dist_param, 1.2, 1e-12);
    CU_ASSERT_TRUE(b->norandommap);
    CU_ASSERT_TRUE(b->has_randseed);
    CUTEST_EQ(b->randseed, 42);
    CUTEST_EQ(b->fsync, 8);
    CU_ASSERT_STRING_EQUAL(workload_description(w),
                           "name=seqwrite,rw=write,bs=128k,iodepth=32,numjobs=2,size=50%;"
                           "name=randmix,rw=randrw,bssplit,iodepth=1,size=50%,offset=1g,"
                           "io_size=10g,runtime=120s,time_based");
}

static void test_include(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(Workload) w = workload_from_jobfile("tests/data/jobs/include_main.fio", &err);
    CUTEST_REQUIRE_PTR(w);
    const WorkloadJobSpec *s = workload_job_spec(w, 0);
    CU_ASSERT_STRING_EQUAL(s->name, "after");
    CUTEST_EQ(s->bs[IO_READ], 16 * KiB); /* read before kb_base=1000 */
    CUTEST_EQ(s->size, 2000);            /* read after it */
    CUTEST_EQ(s->iodepth, 4);
    CUTEST_EQ(s->rw, WL_RW_RANDREAD);
}

static void test_jobfile_errors(void)
{
    static const struct {
        const char *path, *msg;
    } cases[] = {
        {"tests/data/jobs/bad_option.fio",
         "tests/data/jobs/bad_option.fio:7: option \"exec_prerun\": not supported by ftlsim"},
        {"tests/data/jobs/bad_value.fio",
         "tests/data/jobs/bad_value.fio:3: option \"iodepth\": found \"0\", expected an "
         "integer from 1 to 65536"},
        {"tests/data/jobs/no_section.fio",
         "tests/data/jobs/no_section.fio:2: found \"rw=write\" before any section, expected "
         "[global] or [JOBNAME] first"},
        {"tests/data/jobs/loop_a.fio",
         "tests/data/jobs/loop_b.fio:1: include \"loop_a.fio\": found an include loop, "
         "expected each file once"},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autoptr(GError) err = NULL;
        g_autoptr(Workload) w = workload_from_jobfile(cases[i].path, &err);
        CU_ASSERT_PTR_NULL(w);
        expect_error(err, cases[i].msg);
    }
    g_autoptr(GError) err = NULL;
    g_autoptr(Workload) w = workload_from_jobfile("tests/data/jobs/missing.fio", &err);
    CU_ASSERT_PTR_NULL(w);
    CU_ASSERT_TRUE(g_error_matches(err, WORKLOAD_ERROR, WORKLOAD_ERROR_FILE));
}

static void test_inline(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(Workload) w = workload_from_spec(
        "rw=randwrite,bs=4k,iodepth=32,io_size=50g;idle=120s;rw=read,bs=128k,iodepth=8,size=8g",
        &err);
    CUTEST_REQUIRE_PTR(w);
    CUTEST_EQ(workload_job_count(w), 3);
    const WorkloadJobSpec *a = workload_job_spec(w, 0), *i = workload_job_spec(w, 1),
                          *r = workload_job_spec(w, 2);
    CU_ASSERT_STRING_EQUAL(a->name, "job1");
    CUTEST_EQ(a->rw, WL_RW_RANDWRITE);
    CUTEST_EQ(a->io_size, 50 * GiB);
    CUTEST_EQ(a->iodepth, 32);
    CU_ASSERT_TRUE(i->idle);
    CUTEST_EQ(i->runtime_ns, 120 * SIM_SEC);
    CU_ASSERT_TRUE(r->stonewall);
    CUTEST_EQ(r->bs[IO_READ], 128 * KiB);
    CUTEST_EQ(r->size, 8 * GiB);
    CU_ASSERT_STRING_EQUAL(workload_description(w),
                           "name=job1,rw=randwrite,bs=4k,iodepth=32,io_size=50g;idle=120s;"
                           "name=job3,rw=read,bs=128k,iodepth=8,size=8g");
}

static void test_inline_per_direction(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(Workload) w =
        workload_from_spec("rw=rw,bs=4k,64k,time_based,runtime=1s&bs=8k,,iodepth=2,name=x", &err);
    CUTEST_REQUIRE_PTR(w);
    const WorkloadJobSpec *a = workload_job_spec(w, 0), *b = workload_job_spec(w, 1);
    CUTEST_EQ(a->bs[IO_READ], 4 * KiB);
    CUTEST_EQ(a->bs[IO_WRITE], 64 * KiB);
    CU_ASSERT_TRUE(a->time_based);
    CU_ASSERT_FALSE(b->stonewall); /* '&' runs alongside */
    CUTEST_EQ(b->bs[IO_READ], 8 * KiB);
    CUTEST_EQ(b->bs[IO_WRITE], 4 * KiB); /* "8k," leaves the others at default */
    CUTEST_EQ(b->iodepth, 2);
    CU_ASSERT_STRING_EQUAL(b->name, "x");
}

static void test_inline_errors(void)
{
    static const struct {
        const char *spec, *msg;
    } cases[] = {
        {"rw=write,bs=4q",
         "workload spec, job 1: option \"bs\": found \"4q\", expected a size such as 4096, 4k, "
         "1m or 2g"},
        {"rw=write;rw=sideways",
         "workload spec, job 2: option \"rw\": found \"sideways\", expected read, write, "
         "randread, randwrite, rw, readwrite, randrw, trim, randtrim or trimwrite, optionally "
         ":OFFSET such as :8k or :-8k"},
        {"rw=write,exec_prerun=x",
         "workload spec, job 1: option \"exec_prerun\": not supported by ftlsim"},
        {"rw=write;;rw=read", "workload spec, job 2: found nothing, expected OPTION=VALUE,..."},
        {"rw=randread,bssplit=4k/60:8k/50:16k:32k",
         "workload spec, job 1: option \"bssplit\": found \"4k/60:8k/50:16k:32k\", expected "
         "SIZE/PERCENT:SIZE/PERCENT... (at most 16 entries; R,W,T for each direction; shares "
         "left empty split the rest of 100)"},
        {"rw=randread,random_distribution=zipf:1",
         "workload spec, job 1: option \"random_distribution\": found \"zipf:1\", expected "
         "random, zipf:THETA (>0, not 1), pareto:H (0..1), normal:STDDEV% (0..100), zoned:, "
         "zoned_abs: or sequence:"},
        {"rw=read,size=150%",
         "workload spec, job 1: option \"size\": found \"150%\", expected a share of the drive "
         "above 0% and up to 100%"},
        {"rw=read,iodepth", "workload spec, job 1: option \"iodepth\": found no value, expected "
                            "iodepth=VALUE"},
        {"flil",
         "workload \"flil\": found no such named workload, expected fill, cdm, random-notrim, "
         "read-after-write, trim-stall, cache-vs-fill, steady-random or fio options (rw=...)"},
        {"steady-random:prefill=full",
         "workload \"steady-random\": parameter \"prefill\": found \"full\", expected random, "
         "seq or none"},
        {"steady-random:round=0s",
         "workload \"steady-random\": parameter \"round\": found \"0s\", expected a duration "
         "from 1ms to 1d such as 60s"},
        {"steady-random:rounds=4",
         "workload \"steady-random\": parameter \"rounds\": found \"4\", expected an integer "
         "from 5 to 100000"},
        {"cache-vs-fill:fill=100%",
         "workload \"cache-vs-fill\": parameter \"fill\": found \"100%\", expected a share of "
         "the drive from 0% to 99% such as 50%"},
        {"cache-vs-fill:rw=read",
         "workload \"cache-vs-fill\": parameter \"rw\": found \"read\", expected write or "
         "randwrite"},
        {"cdm:sise=1g",
         "workload \"cdm\": found \"sise\", expected KEY=VALUE with KEY one of size, runtime"},
        {"trim-stall:files=0",
         "workload \"trim-stall\": parameter \"files\": found \"0\", expected an integer from 1 "
         "to 64"},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autoptr(GError) err = NULL;
        g_autoptr(Workload) w = workload_from_spec(cases[i].spec, &err);
        CU_ASSERT_PTR_NULL(w);
        expect_error(err, cases[i].msg);
    }
}

static void test_named(void)
{
    static const struct {
        const char *spec;
        guint njobs;
        const char *names; /* comma-separated job names */
    } cases[] = {
        {"fill", 1, "fill"},
        {"cdm:size=64m", 7,
         "prepare,seq1m-q8t1-write,seq1m-q8t1-read,rnd4k-q32t1-write,rnd4k-q32t1-read,"
         "rnd4k-q1t1-write,rnd4k-q1t1-read"},
        {"random-notrim:io_size=100g", 1, "random-notrim"},
        {"read-after-write", 7, "write,read1,idle1,read2,push,idle2,read3"},
        {"trim-stall:files=2:file_size=1g", 5, "file1,file2,idle,read,trim"},
        {"cache-vs-fill", 3, "fill,idle,write"},
        {"cache-vs-fill:fill=0:idle=0", 1, "write"},
        {"steady-random", 2, "prefill,steady"},
        {"steady-random:prefill=seq", 2, "prefill,steady"},
        {"steady-random:prefill=none", 1, "steady"},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autoptr(GError) err = NULL;
        g_autoptr(Workload) w = workload_from_spec(cases[i].spec, &err);
        CUTEST_REQUIRE_PTR(w);
        CU_ASSERT_STRING_EQUAL(workload_description(w), cases[i].spec);
        g_auto(GStrv) names = g_strsplit(cases[i].names, ",", -1);
        guint n = workload_job_count(w);
        CUTEST_EQ(n, cases[i].njobs);
        for (guint k = 0; names[k] && k < n; k++)
            CU_ASSERT_STRING_EQUAL(workload_job_spec(w, k)->name, names[k]);
    }
}

static void test_named_fields(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(Workload) f = workload_from_spec("fill", &err);
    const WorkloadJobSpec *s = workload_job_spec(f, 0);
    CUTEST_EQ(s->rw, WL_RW_WRITE);
    CUTEST_EQ(s->bs[IO_WRITE], MiB);
    CUTEST_EQ(s->iodepth, 2);
    CUTEST_NEAR(s->size_pct, 100.0, 1e-12);

    g_autoptr(Workload) t = workload_from_spec("trim-stall:files=2:file_size=1g", &err);
    const WorkloadJobSpec *f2 = workload_job_spec(t, 1), *rd = workload_job_spec(t, 3),
                          *tr = workload_job_spec(t, 4);
    CUTEST_EQ(f2->offset, GiB);
    CUTEST_EQ(f2->size, GiB);
    CU_ASSERT_TRUE(f2->stonewall);
    CUTEST_EQ(workload_job_spec(t, 2)->runtime_ns, 180 * SIM_SEC);
    CUTEST_EQ(rd->offset, 2 * GiB);
    CUTEST_EQ(rd->size, 8 * GiB);
    CUTEST_EQ(tr->rw, WL_RW_TRIM);
    CUTEST_EQ(tr->bs[IO_TRIM], GiB);
    CUTEST_EQ(tr->size, 2 * GiB);
    CU_ASSERT_FALSE(tr->stonewall); /* alongside the read */

    g_autoptr(Workload) r = workload_from_spec("read-after-write:size=256m:idle=30s", &err);
    const WorkloadJobSpec *push = workload_job_spec(r, 4);
    CU_ASSERT_STRING_EQUAL(push->name, "push");
    CUTEST_EQ(push->offset, 256 * MiB);
    CUTEST_EQ(push->io_size, 100 * GiB);
    CUTEST_EQ(workload_job_spec(r, 2)->runtime_ns, 30 * SIM_SEC);

    /* cache-vs-fill: the fill, the pause, then the rest of the drive at the rate */
    g_autoptr(Workload) c = workload_from_spec("cache-vs-fill:fill=75%:idle=10s:rate=200m", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    const WorkloadJobSpec *cf = workload_job_spec(c, 0), *cw = workload_job_spec(c, 2);
    CUTEST_NEAR(cf->size_pct, 75.0, 1e-12);
    CUTEST_EQ(cf->bs[IO_WRITE], MiB);
    CUTEST_EQ(workload_job_spec(c, 1)->runtime_ns, 10 * SIM_SEC);
    CUTEST_EQ(cw->rw, WL_RW_WRITE);
    CUTEST_NEAR(cw->offset_pct, 75.0, 1e-12);
    CUTEST_EQ(cw->size, 0); /* to the end of the drive */
    CUTEST_EQ(cw->rate[IO_WRITE], 200 * MiB);
    CU_ASSERT_TRUE(cw->stonewall);
    g_autoptr(Workload) cr = workload_from_spec("cache-vs-fill:fill=90%:rw=randwrite:iodepth=1",
                                                &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cr);
    const WorkloadJobSpec *crw = workload_job_spec(cr, 2);
    CUTEST_EQ(crw->rw, WL_RW_RANDWRITE);
    CUTEST_EQ(crw->iodepth, 1);
    CUTEST_NEAR(crw->offset_pct, 90.0, 1e-12);

    /* steady-random: a random pass over the drive, then the rounds; the
     * runtime is a round more than the limit, so the rounds end the job */
    g_autoptr(Workload) sr =
        workload_from_spec("steady-random:threads=8:iodepth=16:round=10s:rounds=40", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sr);
    const WorkloadJobSpec *sp = workload_job_spec(sr, 0), *ss = workload_job_spec(sr, 1);
    CUTEST_EQ(sp->rw, WL_RW_RANDWRITE);
    CUTEST_EQ(sp->bs[IO_WRITE], 4 * KiB);
    CUTEST_NEAR(sp->size_pct, 100.0, 1e-12);
    CUTEST_EQ(sp->numjobs, 1);
    CUTEST_EQ(ss->rw, WL_RW_RANDWRITE);
    CUTEST_EQ(ss->bs[IO_WRITE], 4 * KiB);
    CUTEST_EQ(ss->iodepth, 16);
    CUTEST_EQ(ss->numjobs, 8);
    CU_ASSERT_TRUE(ss->stonewall);
    CU_ASSERT_TRUE(ss->time_based);
    CUTEST_EQ(ss->runtime_ns, 410 * SIM_SEC);
    CUTEST_EQ(ss->ss, WL_SS_PTS);
    CUTEST_EQ(ss->ss_round, 10 * SIM_SEC);
    CUTEST_EQ(ss->ss_rounds, 40);
    g_autoptr(Workload) sq = workload_from_spec("steady-random:prefill=seq", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sq);
    const WorkloadJobSpec *pc = workload_job_spec(sq, 0), *st = workload_job_spec(sq, 1);
    CUTEST_EQ(pc->rw, WL_RW_WRITE);
    CUTEST_EQ(pc->bs[IO_WRITE], 128 * KiB);
    CUTEST_EQ(pc->loops, 2);
    CUTEST_EQ(st->iodepth, 32);
    CUTEST_EQ(st->numjobs, 1);
    CUTEST_EQ(st->ss_round, 60 * SIM_SEC);
    CUTEST_EQ(st->ss_rounds, 25);
    CUTEST_EQ(st->runtime_ns, 26 * 60 * SIM_SEC);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"bytes", test_bytes},
        {"arithmetic", test_arithmetic},
        {"fio_syntax", test_fio_syntax},
        {"time", test_time},
        {"jobfile", test_jobfile},
        {"include", test_include},
        {"jobfile_errors", test_jobfile_errors},
        {"inline", test_inline},
        {"inline_per_direction", test_inline_per_direction},
        {"inline_errors", test_inline_errors},
        {"named", test_named},
        {"named_fields", test_named_fields},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("fio", tests);
}
