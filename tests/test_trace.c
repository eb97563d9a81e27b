/* test_trace.c - the trace readers: every format on the shipped samples
 * (counts and bytes per op computed independently with awk, records checked
 * field by field), malformed lines and their exact errors, gz against plain,
 * format detection, the device filter and blkparse's Q/D choice. */
#include "sim/host/trace.h"
#include "sim/host/trace_impl.h"
#include "tests/cutest.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#define S 512ull /* bytes per sector */

typedef struct Tally {
    uint64_t n[IO_OPS], bytes[IO_OPS];
    uint64_t records, last_line, hash;
    HostIo first, last;
    char format[16];
    gboolean detected;
} Tally;

static uint64_t fnv(uint64_t h, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        h ^= (v >> (8 * i)) & 0xff;
        h *= 1099511628211ull;
    }
    return h;
}

static void tally_io(Tally *t, const HostIo *io)
{
    if (t->records == 0)
        t->first = *io;
    t->last = *io;
    t->records++;
    t->n[io->op]++;
    t->bytes[io->op] += io->length;
    t->hash = fnv(fnv(fnv(fnv(fnv(t->hash, io->time), io->offset), io->length), io->dev), io->op);
}

/* Read a whole reader; FALSE (and the error) if it failed. */
static gboolean tally_reader(TraceReader *r, Tally *t, GError **error)
{
    HostIo io;
    int rc;
    *t = (Tally){.hash = 14695981039346656037ull};
    g_strlcpy(t->format, trace_format_name(r), sizeof t->format);
    t->detected = trace_format_was_detected(r);
    while ((rc = trace_next(r, &io, error)) == 1) {
        tally_io(t, &io);
        t->last_line = trace_line(r);
    }
    return rc == 0;
}

static void tally_file(const char *path, const char *format, TraceBlkEvents blk, int64_t dev,
                       Tally *t)
{
    g_autoptr(GError) error = NULL;
    TraceOptions opt = {.format = format, .blk_events = blk, .device = dev};
    g_autoptr(TraceReader) r = trace_open(path, &opt, &error);
    CU_ASSERT_PTR_NOT_NULL(r);
    if (!r) {
        fprintf(stderr, "%s\n", error->message);
        *t = (Tally){0};
        return;
    }
    CU_ASSERT(tally_reader(r, t, &error));
    if (error)
        fprintf(stderr, "%s\n", error->message);
    CUTEST_EQ(trace_bad_lines(r), 0);
}

static void expect_io(const HostIo *io, SimTime time, uint32_t dev, IoOp op, uint64_t offset,
                      uint64_t length)
{
    CUTEST_EQ(io->time, time);
    CUTEST_EQ(io->dev, dev);
    CUTEST_EQ(io->op, op);
    CUTEST_EQ(io->offset, offset);
    CUTEST_EQ(io->length, length);
}

static void expect_mix(const Tally *t, uint64_t reads, uint64_t rbytes, uint64_t writes,
                       uint64_t wbytes, uint64_t trims, uint64_t tbytes, uint64_t flushes)
{
    CUTEST_EQ(t->n[IO_READ], reads);
    CUTEST_EQ(t->bytes[IO_READ], rbytes);
    CUTEST_EQ(t->n[IO_WRITE], writes);
    CUTEST_EQ(t->bytes[IO_WRITE], wbytes);
    CUTEST_EQ(t->n[IO_TRIM], trims);
    CUTEST_EQ(t->bytes[IO_TRIM], tbytes);
    CUTEST_EQ(t->n[IO_FLUSH], flushes);
    CUTEST_EQ(t->bytes[IO_FLUSH], 0);
}

/* awk '{if($5==0){w++;wb+=$4*512}else{r++;rb+=$4*512}} END{print r,rb,w,wb}'
 *   traces/mqsim_tpcc-small.trace  ->  4381 36315136 2618 23403520
 * first line: 938513000 4 264719034 16 0; last: 1075002000 7 160057354 16 0 */
static void test_mqsim(void)
{
    Tally t;
    tally_file(CUTEST_SRC("traces/mqsim_tpcc-small.trace"), "mqsim", 0, -1, &t);
    expect_mix(&t, 4381, 36315136, 2618, 23403520, 0, 0, 0);
    expect_io(&t.first, 0, 4, IO_WRITE, 264719034 * S, 16 * S);
    expect_io(&t.last, 1075002000 - 938513000, 7, IO_WRITE, 160057354 * S, 16 * S);
    CUTEST_EQ(t.last_line, 6999);
    CU_ASSERT_FALSE(t.detected);

    /* Same awk: 24779 382085120 4 32768; no final newline on the last line,
     * 11413000 0 657728 16 1 ... 60066625000 1 34371424 64 1 (line 24783). */
    tally_file(CUTEST_SRC("traces/mqsim_wsrch-small.trace"), "mqsim", 0, -1, &t);
    expect_mix(&t, 24779, 382085120, 4, 32768, 0, 0, 0);
    expect_io(&t.first, 0, 0, IO_READ, 657728 * S, 16 * S);
    expect_io(&t.last, 60066625000 - 11413000, 1, IO_READ, 34371424 * S, 64 * S);
    CUTEST_EQ(t.last_line, 24783);
}

/* awk '{if($5==0){w++;wb+=$4*512}else if($5==1){r++;rb+=$4*512}} END{print r,rb,w,wb}'
 *   traces/ssdsim_example_fin1.ascii  ->  4078 25438208 5922 29840896 */
static void test_ssdsim(void)
{
    Tally t;
    tally_file(CUTEST_SRC("traces/ssdsim_example_fin1.ascii"), "ssdsim", 0, -1, &t);
    expect_mix(&t, 4078, 25438208, 5922, 29840896, 0, 0, 0);
    expect_io(&t.first, 0, 0, IO_WRITE, 303567 * S, 7 * S);
    expect_io(&t.last, 259601203125ull, 8, IO_READ, 146550 * S, 1 * S);
    CUTEST_EQ(t.last_line, 10000);
}

/* awk '{if($6=="W"){w++;wb+=$5*512}else if($6=="R"){r++;rb+=$5*512}} END{print r,rb,w,wb}'
 *   traces/fiu_mail_cheetah_first10000.blkparse  ->  8905 36474880 1095 4485120
 * dev is major 6, minor 0: 6 * 256 + 0. */
static void test_fiu(void)
{
    Tally t;
    tally_file(CUTEST_SRC("traces/fiu_mail_cheetah_first10000.blkparse"), "fiu", 0, -1, &t);
    expect_mix(&t, 8905, 36474880, 1095, 4485120, 0, 0, 0);
    expect_io(&t.first, 0, 6 * 256, IO_WRITE, 488846200 * S, 8 * S);
    expect_io(&t.last, 89990107809023 - 89966811921625, 6 * 256, IO_READ, 283476840 * S, 8 * S);
}

/* awk '$6=="D" && $7 ~ /^[RW]/ {if($7~/^W/){w++;wb+=$10*512}else{r++;rb+=$10*512}}
 *   END{print r,rb,w,wb}' traces/blkparse_wiscsee_issue_only.txt -> 161 659456 512 134217728
 * (the 4 "D N" passthrough lines and the summary block carry no I/O; no Q
 * events, so auto replays D). First data line 0.001368096 R 540544 + 8, last
 * (line 676) 0.451332585 R 20480 + 8; dev 8,33 = 8 * 256 + 33. */
static void test_blkparse(void)
{
    Tally t;
    tally_file(CUTEST_SRC("traces/blkparse_wiscsee_issue_only.txt"), "blkparse", 0, -1, &t);
    expect_mix(&t, 161, 659456, 512, 134217728, 0, 0, 0);
    expect_io(&t.first, 0, 8 * 256 + 33, IO_READ, 540544 * S, 8 * S);
    expect_io(&t.last, 451332585 - 1368096, 8 * 256 + 33, IO_READ, 20480 * S, 8 * S);
    CUTEST_EQ(t.last_line, 676);

    /* blkdiscard: "Q DS 0 + 80" is the only Q event; dev 252,0. */
    tally_file(CUTEST_SRC("traces/quoted_rows/blkparse_blkdiscard_rows.txt"), "blkparse", 0, -1,
               &t);
    expect_mix(&t, 0, 0, 0, 0, 1, 80 * S, 0);
    expect_io(&t.first, 0, 252 * 256, IO_TRIM, 0, 80 * S);
}

/* YCSB rows hold Q, G, U, I, D and C events: Q R 282624 + 8 at 0 and
 * Q R 286720 + 128 at 0.013359202; one D RS 282624 + 8 at 0.000005462. */
static void test_blkparse_q_d(void)
{
    const char *path = CUTEST_SRC("traces/quoted_rows/blkparse_ycsb_rocksdb_rows.txt");
    uint32_t dev = 259 * 256 + 2;
    Tally t;
    tally_file(path, "blkparse", TRACE_BLK_AUTO, -1, &t);
    expect_mix(&t, 2, 136 * S, 0, 0, 0, 0, 0);
    expect_io(&t.first, 0, dev, IO_READ, 282624 * S, 8 * S);
    expect_io(&t.last, 13359202, dev, IO_READ, 286720 * S, 128 * S);
    CUTEST_EQ(t.last_line, 7);
    Tally q;
    tally_file(path, "blkparse", TRACE_BLK_Q, -1, &q);
    CUTEST_EQ(q.hash, t.hash);
    tally_file(path, "blkparse", TRACE_BLK_D, -1, &t);
    expect_mix(&t, 1, 8 * S, 0, 0, 0, 0, 0);
    expect_io(&t.first, 0, dev, IO_READ, 282624 * S, 8 * S);
    CUTEST_EQ(t.last_line, 5);
}

/* awk '$3=="trim"{t++;tb+=$5} $3=="write"{w++;wb+=$5} END{printf "%d %d %d %d\n",t,tb,w,wb}'
 *   traces/fio_v3_t0038_with_trim.iolog  ->  10 21474836480 10 40960 */
static void test_fio3(void)
{
    Tally t;
    tally_file(CUTEST_SRC("traces/fio_v3_t0038_with_trim.iolog"), "fio3", 0, -1, &t);
    expect_mix(&t, 0, 0, 10, 40960, 10, 21474836480ull, 0);
    expect_io(&t.first, 0, 0, IO_TRIM, 0, 2147483648ull);
    expect_io(&t.last, (10809 - 10736) * 1000, 0, IO_WRITE, 36864, 4096);
    CUTEST_EQ(t.last_line, 23);
}

/* Two files, sync/datasync, wait and close lines; v2 has no times. */
static void test_fio2(void)
{
    static const char text[] = "fio version 2 iolog\n"
                               "/dev/a add\n/dev/b add\n/dev/a open\n/dev/b open\n"
                               "/dev/a write 0 4096\n/dev/b read 8192 512\n"
                               "/dev/a wait 100 0\n/dev/b sync 0 0\n/dev/a datasync\n"
                               "/dev/b trim 1048576 8589934592\n/dev/a close\n";
    g_autoptr(GError) error = NULL;
    TraceOptions opt = {.format = "fio2", .device = -1};
    g_autoptr(TraceReader) r = trace_open_memory("mem.log", text, strlen(text), &opt, &error);
    Tally t;
    CU_ASSERT(tally_reader(r, &t, &error));
    expect_mix(&t, 1, 512, 1, 4096, 1, 8589934592ull, 2);
    expect_io(&t.first, 0, 0, IO_WRITE, 0, 4096);
    expect_io(&t.last, 0, 1, IO_TRIM, 1048576, 8589934592ull);
    CUTEST_EQ(t.last_line, 11);
}

/* Zone Management Send actions in an iolog: a zone command each, at the
 * zone's offset, with no length. */
static void test_fio_zone_actions(void)
{
    static const char text[] = "fio version 3 iolog\n0 z add\n1 z zone_open 2147483648\n"
                               "2 z write 2147483648 4096\n3 z zone_close 2147483648\n"
                               "4 z zone_finish 2147483648\n5 z zone_reset 2147483648\n";
    static const uint8_t zops[] = {ZOP_OPEN, ZOP_NONE, ZOP_CLOSE, ZOP_FINISH, ZOP_RESET};
    g_autoptr(GError) error = NULL;
    TraceOptions opt = {.format = "fio3", .device = -1};
    g_autoptr(TraceReader) r = trace_open_memory("mem.log", text, strlen(text), &opt, &error);
    HostIo io;
    for (size_t i = 0; i < G_N_ELEMENTS(zops); i++) {
        CUTEST_EQ(trace_next(r, &io, &error), 1);
        CUTEST_EQ(io.zop, zops[i]);
        CUTEST_EQ(io.offset, 2147483648ull);
        CUTEST_EQ(io.length, zops[i] == ZOP_NONE ? 4096 : 0);
    }
    CUTEST_EQ(trace_next(r, &io, &error), 0);
}

/* awk -F, '{n++; b+=$6} END{print n,b}' msr_cambridge_rows.csv -> 5 8192, all
 * writes; (128172302508563491 - 128172299571726563) * 100 ns to the last. */
static void test_msr(void)
{
    Tally t;
    tally_file(CUTEST_SRC("traces/quoted_rows/msr_cambridge_rows.csv"), "msr", 0, -1, &t);
    expect_mix(&t, 0, 0, 5, 8192, 0, 0, 0);
    expect_io(&t.first, 0, 0, IO_WRITE, 1105182720, 512);
    expect_io(&t.last, 293683692800ull, 0, IO_WRITE, 1105182720, 4608);
}

/* awk -F, '$2=="R"{r++;rb+=$4} $2=="W"{w++;wb+=$4} END{print r,rb,w,wb}'
 *   alibaba_block_rows.csv -> 2 8192 5 110592; last at 1577808000000809 us. */
static void test_alibaba(void)
{
    Tally t;
    tally_file(CUTEST_SRC("traces/quoted_rows/alibaba_block_rows.csv"), "alibaba", 0, -1, &t);
    expect_mix(&t, 2, 8192, 5, 110592, 0, 0, 0);
    expect_io(&t.first, 0, 0, IO_READ, 126703661056ull, 4096);
    expect_io(&t.last, (1577808000000809ull - 1577808000000046ull) * 1000, 5, IO_WRITE,
              19546832896ull, 4096);
}

/* awk -F, '$4==0{r++;rb+=$3*512} $4==1{w++;wb+=$3*512} END{print r,rb,w,wb}'
 *   tencent_cbs_rows.csv -> 6 417792 3 272384 (io_type 0 = read). */
static void test_tencent(void)
{
    Tally t;
    tally_file(CUTEST_SRC("traces/quoted_rows/tencent_cbs_rows.csv"), "tencent", 0, -1, &t);
    expect_mix(&t, 6, 417792, 3, 272384, 0, 0, 0);
    expect_io(&t.first, 0, 1063, IO_READ, 12910952 * S, 128 * S);
    expect_io(&t.last, 0, 3171, IO_WRITE, 5331600 * S, 4 * S);
}

/* awk -F, 'tolower($4)=="r"{r++;rb+=$3} tolower($4)=="w"{w++;wb+=$3} END{print r,rb,w,wb}'
 *   spc_financial1_head.spc -> 1 3072 10 33280; the read is at 0.078643 s. */
static void test_spc(void)
{
    g_autoptr(GError) error = NULL;
    TraceOptions opt = {.format = "spc", .device = -1};
    g_autoptr(TraceReader) r =
        trace_open(CUTEST_SRC("traces/quoted_rows/spc_financial1_head.spc"), &opt, &error);
    Tally t = {0};
    HostIo io;
    while (trace_next(r, &io, &error) == 1) {
        tally_io(&t, &io);
        if (io.op == IO_READ)
            expect_io(&io, 78643000, 1, IO_READ, 55596 * S, 3072);
    }
    CU_ASSERT_PTR_NULL(error);
    expect_mix(&t, 1, 3072, 10, 33280, 0, 0, 0);
    expect_io(&t.first, 0, 0, IO_WRITE, 303567 * S, 3584);
    expect_io(&t.last, 550502000, 1, IO_WRITE, 240840 * S, 3072);
}

/* tests/data/wiscsee_events_head40.txt is the first 40 lines of the WiscSee
 * ext4/SQLite-WAL events; awk '$2=="D"{n[$3]++; b[$3]+=$5} END{...}' gives
 * discard 1 4096, read 4 16384, write 15 147456. */
static void test_wiscsee(void)
{
    Tally t;
    tally_file(CUTEST_SRC("tests/data/wiscsee_events_head40.txt"), "wiscsee", 0, -1, &t);
    expect_mix(&t, 4, 16384, 15, 147456, 1, 4096, 0);
    expect_io(&t.first, 0, 0, IO_READ, 299008, 4096);
    expect_io(&t.last, 498366656, 0, IO_WRITE, 138416128, 12288);
}

/* DiskSim has no shipped sample: two lines in its "%f" time format. */
static void test_disksim(void)
{
    static const char text[] = "0.000000 0 303567 7 0\n26.214500 1 55590 6 1\n";
    g_autoptr(GError) error = NULL;
    TraceOptions opt = {.device = -1};
    g_autoptr(TraceReader) r = trace_open_memory("ds.txt", text, strlen(text), &opt, &error);
    Tally t;
    CU_ASSERT(tally_reader(r, &t, &error));
    CU_ASSERT_STRING_EQUAL(t.format, "disksim");
    CU_ASSERT(t.detected);
    expect_io(&t.first, 0, 0, IO_WRITE, 303567 * S, 7 * S);
    expect_io(&t.last, 26214500, 1, IO_READ, 55590 * S, 6 * S);
}

/* awk '$2==13' traces/mqsim_tpcc-small.trace: 446 I/Os, 3702784 bytes, the
 * first at 938944000, the last 1074907000 13 334585440 16 0. */
static void test_device_filter(void)
{
    Tally t;
    tally_file(CUTEST_SRC("traces/mqsim_tpcc-small.trace"), "mqsim", 0, 13, &t);
    CUTEST_EQ(t.records, 446);
    CUTEST_EQ(t.bytes[IO_READ] + t.bytes[IO_WRITE], 3702784);
    expect_io(&t.first, 0, 13, IO_WRITE, 93230992 * S, 32 * S);
    expect_io(&t.last, 1074907000 - 938944000, 13, IO_WRITE, 334585440 * S, 16 * S);
    tally_file(CUTEST_SRC("traces/mqsim_tpcc-small.trace"), "mqsim", 0, 99, &t);
    CUTEST_EQ(t.records, 0);
}

static void test_gzip(void)
{
    Tally plain, gz;
    tally_file(CUTEST_SRC("traces/mqsim_tpcc-small.trace"), "mqsim", 0, -1, &plain);
    tally_file(CUTEST_SRC("traces/mqsim_tpcc-small.trace.gz"), "mqsim", 0, -1, &gz);
    CUTEST_EQ(gz.records, 6999);
    CUTEST_EQ(gz.records, plain.records);
    CUTEST_EQ(gz.hash, plain.hash);
    CUTEST_EQ(gz.last_line, plain.last_line);
}

/* Times that step back are clamped to the time before them. */
static void test_time_backwards(void)
{
    static const char text[] = "1000 0 0 8 0\n900 0 8 8 0\n1500 0 16 8 0\n1200 0 24 8 1\n";
    g_autoptr(GError) error = NULL;
    TraceOptions opt = {.format = "mqsim", .device = -1};
    g_autoptr(TraceReader) r = trace_open_memory("m.trace", text, strlen(text), &opt, &error);
    SimTime want[] = {0, 0, 500, 500};
    HostIo io;
    for (int i = 0; i < 4; i++) {
        CUTEST_EQ(trace_next(r, &io, &error), 1);
        CUTEST_EQ(io.time, want[i]);
    }
    CUTEST_EQ(trace_next(r, &io, &error), 0);
}

typedef struct BadCase {
    const char *format;
    const char *text;
    const char *message; /* after "bad.txt:" */
} BadCase;

static const BadCase bad_cases[] = {
    {"msr", "128172299571726563,prxy,0,Write,1105182720,abc,2072",
     "1: field Size: found \"abc\", expected a byte count"},
    {"msr", "1,prxy,0,Erase,0,512,1", "1: field Type: found \"Erase\", expected Read or Write"},
    {"msr", "1,prxy,0,Read,0,0,1", "1: field Size: found \"0\", expected a length > 0"},
    {"msr", "1,prxy,0,Read,0,512",
     "1: field count: found \"6\", expected 7 comma-separated fields"},
    {"msr", "184467440737095517,prxy,0,Read,0,512,1",
     "1: field Timestamp: found \"184467440737095517\", expected a Windows FILETIME (100 ns "
     "ticks)"},
    {"msr", "1,prxy,-1,Read,0,512,1", "1: field DiskNumber: found \"-1\", expected a disk number"},
    {"spc", "0,303567,3584,x,0.0", "1: field Opcode: found \"x\", expected r or w"},
    {"spc", "0,303567,3584,w,0.0.1",
     "1: field Timestamp: found \"0.0.1\", expected a time in seconds"},
    {"spc", "0,303567,3584,w",
     "1: field count: found \"4\", expected at least 5 comma-separated fields"},
    {"spc", "0,99999999999999999999,3584,w,0",
     "1: field LBA: found \"99999999999999999999\", expected a block number"},
    {"alibaba", "0,X,0,4096,1", "1: field opcode: found \"X\", expected R or W"},
    {"alibaba", "0,R,0,0,1", "1: field length: found \"0\", expected a length > 0"},
    {"tencent", "1538323200,12910952,128,2,1063",
     "1: field io_type: found \"2\", expected 0 (read) or 1 (write)"},
    {"tencent", "1538323200,12910952,128,0,vol",
     "1: field volume_id: found \"vol\", expected a volume number"},
    {"disksim", "0.5 0 1 2 x",
     "1: field flags: found \"x\", expected an integer (bit 0 set: read)"},
    {"disksim", "0.5 0 1 0 1", "1: field size: found \"0\", expected a length > 0"},
    {"mqsim", "938513000 4 264719034 16",
     "1: field count: found \"4\", expected 5 blank-separated fields"},
    {"mqsim", "93851300.0 4 264719034 16 0",
     "1: field time: found \"93851300.0\", expected a time in ns"},
    {"mqsim", "938513000 4 264719034 16 w",
     "1: field type: found \"w\", expected 0 (write) or 1 (read)"},
    {"ssdsim", "0 0 303567 7 2", "1: field op: found \"2\", expected 0 (write) or 1 (read)"},
    {"fiu", "89966811921625 4257 nfsd 488846200 8 X 6 0 2c47",
     "1: field op: found \"X\", expected R or W"},
    {"fiu", "89966811921625 4257 nfsd 488846200 8 W 6 0 zz",
     "1: field md5: found \"zz\", expected a hexadecimal digest"},
    {"blkparse", "  8,33  30  1  0.001368096  5025  D   R 540544 + x [u]",
     "1: field nsectors: found \"x\", expected a sector count"},
    {"blkparse", "  8,33  30  1  0.001368096  5025  D   X 540544 + 8 [u]",
     "1: field rwbs: found \"X\", expected RWBS flags (optional F, then D, W, R or N)"},
    {"blkparse", "  8-33  30  1  0.001368096  5025  D   R 540544 + 8 [u]",
     "1: field dev: found \"8-33\", expected major,minor"},
    {"blkparse", "  8,33  30  1  0.001368096  5025  D   W 540544 + 0 [u]",
     "1: field nsectors: found \"0\", expected a length > 0"},
    {"blkparse", "  8,33  30  1  0.001368096  5025  D   R [u]",
     "1: field sector: found \"[u]\", expected SECTOR + COUNT"},
    {"blkparse", "garbage",
     "1: field count: found \"1\", expected at least 7 blank-separated fields"},
    {"fio3", "fio version 3 iolog\n30 /dev/null add\n10736 /dev/null erase 0 1\n",
     "3: field action: found \"erase\", expected add, open, close, read, write, trim, sync, "
     "datasync, wait, zone_open, zone_close, zone_finish or zone_reset"},
    {"fio3", "fio version 3 iolog\n1 f add\n2 f zone_reset 0 4096\n",
     "3: field count: found \"4\", expected 3 fields after the time (FILE ACTION OFFSET)"},
    {"fio3", "fio version 3 iolog\n1 f add\n2 f zone_finish z\n",
     "3: field offset: found \"z\", expected a byte offset"},
    {"fio3", "fio version 2 iolog\n",
     "1: field header: found \"fio version 2 iolog\", expected \"fio version 3 iolog\""},
    {"fio3", "fio version 3 iolog\n10 /dev/x write 0 4096\n",
     "2: field file: found \"/dev/x\", expected a file named by an earlier add"},
    {"fio3", "fio version 3 iolog\n1 f add\nx f write 0 4096\n",
     "3: field time: found \"x\", expected a time in microseconds"},
    {"fio3", "fio version 3 iolog\n1 f add\n2 f write 0 0\n",
     "3: field length: found \"0\", expected a length > 0"},
    {"fio2", "fio version 2 iolog\nf add\nf write 0\n",
     "3: field count: found \"3\", expected 4 fields after the time (FILE ACTION OFFSET "
     "LENGTH)"},
    {"wiscsee", "1 D flush 0 4096 0.1 0 False",
     "1: field op: found \"flush\", expected read, write or discard"},
    {"wiscsee", "1 X read 0 4096 0.1 0 False", "1: field action: found \"X\", expected D or C"},
    {"systor", "1456095145.133076000,0.000806000,T,0,899056122368,131072",
     "1: field IOType: found \"T\", expected R, W or blank"},
    {"systor", "1456095145.133076000,-1,R,0,899056122368,131072",
     "1: field Response: found \"-1\", expected a time in seconds"},
    {"systor", "1456095145.133076000,0.000806000,W,0,899056122368,0",
     "1: field Size: found \"0\", expected a length > 0"},
    {"systor", "1456095145.133076000,0.000806000,W,LUN0,0,4096",
     "1: field LUN: found \"LUN0\", expected a LUN number"},
    {"systor", "1456095145.133076000,0.000806000,W,0,0",
     "1: field count: found \"5\", expected 6 comma-separated fields"},
};

/* Each malformed line gives its exact error; with skip_bad_lines it is
 * counted instead and reading goes on. */
static void test_malformed(void)
{
    for (size_t i = 0; i < G_N_ELEMENTS(bad_cases); i++) {
        const BadCase *c = &bad_cases[i];
        g_autoptr(GError) error = NULL;
        g_autofree char *want = g_strconcat("bad.txt:", c->message, NULL);
        TraceOptions opt = {.format = c->format, .device = -1};
        g_autoptr(TraceReader) r =
            trace_open_memory("bad.txt", c->text, strlen(c->text), &opt, &error);
        HostIo io;
        CUTEST_EQ(trace_next(r, &io, &error), -1);
        CU_ASSERT_PTR_NOT_NULL(error);
        if (error && strcmp(error->message, want) != 0)
            fprintf(stderr, "case %zu: got  %s\n         want %s\n", i, error->message, want);
        CU_ASSERT(error && g_error_matches(error, TRACE_ERROR, TRACE_ERROR_MALFORMED) &&
                  strcmp(error->message, want) == 0);

        g_autoptr(TraceReader) s = NULL;
        opt.skip_bad_lines = TRUE;
        g_clear_error(&error);
        s = trace_open_memory("bad.txt", c->text, strlen(c->text), &opt, &error);
        CUTEST_EQ(trace_next(s, &io, &error), 0);
        CUTEST_EQ(trace_bad_lines(s), 1);
    }
}

/* After an error the reader goes on with the next line. */
static void test_skip_bad_lines(void)
{
    static const char text[] = "10 0 0 8 0\nx 0 0 8 0\n20 1 8 8 1\n\n# note\n30 2 16 0 1\n"
                               "40 3 24 8 0\n";
    g_autoptr(GError) error = NULL;
    TraceOptions opt = {.format = "mqsim", .device = -1};
    g_autoptr(TraceReader) r = trace_open_memory("m.trace", text, strlen(text), &opt, &error);
    HostIo io;
    CUTEST_EQ(trace_next(r, &io, &error), 1);
    CUTEST_EQ(trace_next(r, &io, &error), -1);
    CU_ASSERT_STRING_EQUAL(error->message,
                           "m.trace:2: field time: found \"x\", expected a time in ns");
    g_clear_error(&error);
    CUTEST_EQ(trace_next(r, &io, &error), 1);
    CUTEST_EQ(trace_line(r), 3);
    CUTEST_EQ(io.time, 10);
    CUTEST_EQ(trace_next(r, &io, &error), -1);
    CU_ASSERT_STRING_EQUAL(error->message,
                           "m.trace:6: field size: found \"0\", expected a length > 0");
    g_clear_error(&error);

    opt.skip_bad_lines = TRUE;
    g_autoptr(TraceReader) s = trace_open_memory("m.trace", text, strlen(text), &opt, &error);
    Tally t;
    CU_ASSERT(tally_reader(s, &t, &error));
    CUTEST_EQ(t.records, 3);
    CUTEST_EQ(trace_bad_lines(s), 2);
    CUTEST_EQ(t.last_line, 7);
    expect_io(&t.last, 30, 3, IO_WRITE, 24 * S, 8 * S);
}

/* Lines up to TRACE_LINE_MAX bytes are read; a longer one is malformed,
 * and so is a line holding a NUL byte. */
static void test_long_and_nul_lines(void)
{
    GString *text = g_string_new("1 0 0 8 0\n");
    for (int i = 0; i < TRACE_LINE_MAX - 9; i++)
        g_string_append_c(text, ' ');
    g_string_append(text, "2 0 8 8 0\n");
    for (int i = 0; i < TRACE_LINE_MAX + 1; i++)
        g_string_append_c(text, 'a');
    g_string_append(text, "\n3 0 16 8 0\n");
    g_autoptr(GError) error = NULL;
    TraceOptions opt = {.format = "mqsim", .device = -1};
    g_autoptr(TraceReader) r = trace_open_memory("l.trace", text->str, text->len, &opt, &error);
    HostIo io;
    CUTEST_EQ(trace_next(r, &io, &error), 1);
    CUTEST_EQ(trace_next(r, &io, &error), 1);
    CUTEST_EQ(io.offset, 8 * S);
    CUTEST_EQ(trace_next(r, &io, &error), -1);
    CU_ASSERT_STRING_EQUAL(error->message,
                           "l.trace:3: field line: found "
                           "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...\", expected a "
                           "line of at most 65536 bytes");
    g_clear_error(&error);
    CUTEST_EQ(trace_next(r, &io, &error), 1);
    CUTEST_EQ(io.offset, 16 * S);
    CUTEST_EQ(trace_line(r), 4);
    CUTEST_EQ(trace_next(r, &io, &error), 0);
    g_string_free(text, TRUE);

    static const char nul[] = "1 0 0 8 0\n2 0\0 8 8 0\n";
    g_autoptr(TraceReader) n = trace_open_memory("n.trace", nul, sizeof nul - 1, &opt, &error);
    CUTEST_EQ(trace_next(n, &io, &error), 1);
    CUTEST_EQ(trace_next(n, &io, &error), -1);
    CU_ASSERT_STRING_EQUAL(error->message,
                           "n.trace:2: field line: found \"\\0\", expected text without NUL "
                           "bytes");
}

/* Preflush, flush-only, discard, passthrough, messages and the summary. */
static void test_blkparse_flags(void)
{
    static const char text[] = "  8,0  1  1  0.000000000  10  Q FWS [jbd2]\n"
                               "  8,0  1  2  0.000001000  10  Q FWFS 100 + 8 [jbd2]\n"
                               "  8,0  1  3  0.000002000  10  Q N 0 (00 ..) [kworker]\n"
                               "  8,0  1  4  0.000003000   0  m N cfq10 insert_request\n"
                               "  8,0  1  5  0.000004000  10  Q DS 2048 + 2048 [fstrim]\n"
                               "  8,0  1  6  0.000005000  10  Q FN [sync]\n"
                               "  8,0  1  7  0.000006000  10  D WS 100 + 8 [jbd2]\n"
                               "CPU1 (8,0):\n Reads Queued:  0,  0KiB\n"
                               "Total (8,0):\nEvents (8,0): 7 entries\n";
    g_autoptr(GError) error = NULL;
    TraceOptions opt = {.device = -1};
    g_autoptr(TraceReader) r = trace_open_memory("b.txt", text, strlen(text), &opt, &error);
    HostIo io;
    CU_ASSERT(trace_format_was_detected(r));
    CU_ASSERT_STRING_EQUAL(trace_format_name(r), "blkparse");
    CUTEST_EQ(trace_next(r, &io, &error), 1);
    expect_io(&io, 0, 8 * 256, IO_FLUSH, 0, 0);
    CUTEST_EQ(trace_next(r, &io, &error), 1);
    expect_io(&io, 1000, 8 * 256, IO_WRITE, 100 * S, 8 * S);
    CUTEST_EQ(trace_next(r, &io, &error), 1);
    expect_io(&io, 4000, 8 * 256, IO_TRIM, 2048 * S, 2048 * S);
    CUTEST_EQ(trace_next(r, &io, &error), 1);
    expect_io(&io, 5000, 8 * 256, IO_FLUSH, 0, 0);
    CUTEST_EQ(trace_line(r), 6);
    CUTEST_EQ(trace_next(r, &io, &error), 0);
    CU_ASSERT_PTR_NULL(error);
}

/* FIU process names may hold blanks. */
static void test_fiu_process_blank(void)
{
    static const char text[] = "100 7 my proc 10 8 W 8 17 ab\n";
    g_autoptr(GError) error = NULL;
    TraceOptions opt = {.format = "fiu", .device = -1};
    g_autoptr(TraceReader) r = trace_open_memory("f.txt", text, strlen(text), &opt, &error);
    HostIo io;
    CUTEST_EQ(trace_next(r, &io, &error), 1);
    expect_io(&io, 0, 8 * 256 + 17, IO_WRITE, 10 * S, 8 * S);
}

static void expect_detected(const char *rel, const char *format)
{
    g_autoptr(GError) error = NULL;
    g_autofree char *path = g_build_filename(FTLSIM_SOURCE_DIR, rel, NULL);
    TraceOptions opt = {.device = -1};
    g_autoptr(TraceReader) r = trace_open(path, &opt, &error);
    if (!r)
        fprintf(stderr, "%s: %s\n", rel, error->message);
    CU_ASSERT_PTR_NOT_NULL(r);
    if (!r)
        return;
    if (strcmp(trace_format_name(r), format) != 0)
        fprintf(stderr, "%s: detected %s, expected %s\n", rel, trace_format_name(r), format);
    CU_ASSERT_STRING_EQUAL(trace_format_name(r), format);
    CU_ASSERT(trace_format_was_detected(r));
}

static void expect_refused(const char *path, const char *text, const char *message)
{
    g_autoptr(GError) error = NULL;
    TraceOptions opt = {.device = -1};
    g_autoptr(TraceReader) r = text ? trace_open_memory(path, text, strlen(text), &opt, &error)
                                    : trace_open(path, &opt, &error);
    CU_ASSERT_PTR_NULL(r);
    CU_ASSERT(error && g_error_matches(error, TRACE_ERROR, TRACE_ERROR_FORMAT));
    if (error && strcmp(error->message, message) != 0)
        fprintf(stderr, "got  %s\nwant %s\n", error->message, message);
    CU_ASSERT(error && strcmp(error->message, message) == 0);
}

static void test_detect(void)
{
    expect_detected("traces/blkparse_wiscsee_issue_only.txt", "blkparse");
    expect_detected("traces/quoted_rows/blkparse_blkdiscard_rows.txt", "blkparse");
    expect_detected("traces/quoted_rows/blkparse_ycsb_rocksdb_rows.txt", "blkparse");
    expect_detected("traces/fio_v3_t0038_with_trim.iolog", "fio3");
    expect_detected("traces/fiu_mail_cheetah_first10000.blkparse", "fiu");
    expect_detected("traces/quoted_rows/msr_cambridge_rows.csv", "msr");
    expect_detected("traces/quoted_rows/alibaba_block_rows.csv", "alibaba");
    expect_detected("traces/quoted_rows/tencent_cbs_rows.csv", "tencent");
    expect_detected("traces/quoted_rows/spc_financial1_head.spc", "spc");
    expect_detected("tests/data/wiscsee_events_head40.txt", "wiscsee");

    /* MQSim and SSDsim write the same grammar with the same codes: read
     * as mqsim, named as both. */
    const char *same[] = {"traces/mqsim_tpcc-small.trace", "traces/mqsim_tpcc-small.trace.gz",
                          "traces/mqsim_wsrch-small.trace", "traces/ssdsim_example_fin1.ascii"};
    for (size_t i = 0; i < G_N_ELEMENTS(same); i++) {
        g_autofree char *path = g_build_filename(FTLSIM_SOURCE_DIR, same[i], NULL);
        g_autoptr(GError) e = NULL;
        TraceOptions o = {.device = -1};
        g_autoptr(TraceReader) t = trace_open(path, &o, &e);
        CU_ASSERT_PTR_NOT_NULL(t);
        if (!t)
            continue;
        CU_ASSERT_STRING_EQUAL(trace_format_name(t), "mqsim");
        CU_ASSERT_STRING_EQUAL(trace_format_label(t), "mqsim/ssdsim");
        CU_ASSERT_FALSE(trace_header_skipped(t));
    }
    /* A type code other than 0 and 1 is MQSim's alone. */
    g_autoptr(GError) error = NULL;
    TraceOptions opt = {.device = -1};
    static const char mq[] = "0 0 8 8 0\n10 0 8 8 2\n";
    g_autoptr(TraceReader) r = trace_open_memory("m.trace", mq, strlen(mq), &opt, &error);
    CU_ASSERT_STRING_EQUAL(trace_format_name(r), "mqsim");

    CU_ASSERT_STRING_EQUAL(trace_format_label(r), "mqsim");

    /* A CSV header line is skipped when the lines after it fit one format,
     * and named when they do not. */
    static const char hdr[] = "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n"
                              "128166372003061629,hm,1,Read,3761152,4096,10846\n"
                              "128166372016382155,hm,1,Write,3810304,4096,5437\n";
    g_autoptr(GError) herr = NULL;
    g_autoptr(TraceReader) h = trace_open_memory("h.csv", hdr, strlen(hdr), &opt, &herr);
    CU_ASSERT_PTR_NOT_NULL(h);
    if (h) {
        CU_ASSERT_STRING_EQUAL(trace_format_name(h), "msr");
        CU_ASSERT(trace_header_skipped(h));
        HostIo io;
        CUTEST_EQ(trace_next(h, &io, &herr), 1);
        CUTEST_EQ(io.offset, 3761152);
        CUTEST_EQ(trace_line(h), 2);
        CUTEST_EQ(trace_next(h, &io, &herr), 1);
        CUTEST_EQ(trace_next(h, &io, &herr), 0);
    }
    TraceOptions named = {.format = "msr", .device = -1};
    g_autoptr(TraceReader) hn = trace_open_memory("h.csv", hdr, strlen(hdr), &named, &herr);
    CU_ASSERT(hn && trace_header_skipped(hn) && !trace_format_was_detected(hn));
    expect_refused("y.csv", "Time,Offset\nhello,world\n",
                   "y.csv: cannot detect the trace format: the first lines after the header line "
                   "\"Time,Offset\" fit none of msr, blkparse, fio2, fio3, spc, disksim, mqsim, "
                   "ssdsim, alibaba, tencent, fiu, wiscsee, systor; name it with --trace-format");

    expect_refused("x.txt", "hello world\n",
                   "x.txt: cannot detect the trace format: the first lines fit none of msr, "
                   "blkparse, fio2, fio3, spc, disksim, mqsim, ssdsim, alibaba, tencent, fiu, "
                   "wiscsee, systor; name it with --trace-format");
    expect_refused("e.txt", "\n  \n# only a comment\n",
                   "e.txt: cannot detect the trace format: the file has no data lines");
}

static void test_open_errors(void)
{
    g_autoptr(GError) error = NULL;
    TraceOptions opt = {.format = "nope", .device = -1};
    CU_ASSERT_PTR_NULL(trace_open("t.csv", &opt, &error));
    CU_ASSERT_STRING_EQUAL(error->message,
                           "t.csv: unknown trace format \"nope\" (known: msr, blkparse, fio2, "
                           "fio3, spc, disksim, mqsim, ssdsim, alibaba, tencent, fiu, wiscsee, "
                           "systor)");
    g_clear_error(&error);
    opt.format = "msr";
    CU_ASSERT_PTR_NULL(trace_open("/nonexistent/t.csv", &opt, &error));
    CU_ASSERT(g_error_matches(error, TRACE_ERROR, TRACE_ERROR_OPEN));
    CU_ASSERT_STRING_EQUAL(error->message, "/nonexistent/t.csv: cannot open: No such file or "
                                           "directory");
    trace_close(NULL);

    const char *const *names = trace_formats();
    int n = 0;
    while (names[n])
        n++;
    CUTEST_EQ(n, 13);
    CU_ASSERT_STRING_EQUAL(names[0], "msr");
    CU_ASSERT_STRING_EQUAL(names[11], "wiscsee");
    CU_ASSERT_STRING_EQUAL(names[12], "systor");
}

/* A truncated .gz file is a read error, not a silent end. */
static void test_truncated_gz(void)
{
    g_autoptr(GError) error = NULL;
    g_autofree char *data = NULL;
    gsize len = 0;
    CU_ASSERT(
        g_file_get_contents(CUTEST_SRC("traces/mqsim_tpcc-small.trace.gz"), &data, &len, NULL));
    g_autofree char *tmp = NULL;
    int fd = g_file_open_tmp("trace-XXXXXX.gz", &tmp, &error);
    CU_ASSERT(fd >= 0);
    close(fd);
    CU_ASSERT(g_file_set_contents(tmp, data, (gssize)(len / 2), &error));
    TraceOptions opt = {.format = "mqsim", .device = -1};
    g_autoptr(TraceReader) r = trace_open(tmp, &opt, &error);
    Tally t;
    CU_ASSERT_FALSE(tally_reader(r, &t, &error));
    CU_ASSERT(g_error_matches(error, TRACE_ERROR, TRACE_ERROR_READ));
    CU_ASSERT(error && g_str_has_suffix(error->message, ": unexpected end of file"));
    CU_ASSERT(t.records > 1000 && t.records < 6999);
    g_unlink(tmp);
}

/* SYSTOR '17: Unix seconds with nine fraction digits, LUN as the device,
 * byte offsets and sizes; a line with a blank IOType is passed over and
 * does not set the first record's time. */
static void test_systor(void)
{
    static const char text[] = "Timestamp,Response,IOType,LUN,Offset,Size\n"
                               "1456095145.133070000,0.000100000,,0,0,4096\n"
                               "1456095145.133076000,0.000806000,R,0,899056122368,131072\n"
                               "1456095145.233076500,0.000010000,W,4,8192,4096\n"
                               "1456095146.000000000,0.000200000,w,4,12288,512\n";
    g_autoptr(GError) error = NULL;
    TraceOptions opt = {.device = -1};
    g_autoptr(TraceReader) r = trace_open_memory("2016022219-LUN4.csv", text, strlen(text), &opt,
                                                 &error);
    CU_ASSERT_PTR_NOT_NULL(r);
    if (!r)
        return;
    CU_ASSERT_STRING_EQUAL(trace_format_name(r), "systor");
    CU_ASSERT(trace_format_was_detected(r));
    CU_ASSERT(trace_header_skipped(r));
    Tally t;
    CU_ASSERT(tally_reader(r, &t, &error));
    CUTEST_EQ(t.records, 3);
    CUTEST_EQ(t.n[IO_READ], 1);
    CUTEST_EQ(t.n[IO_WRITE], 2);
    CUTEST_EQ(t.bytes[IO_READ], 131072);
    CUTEST_EQ(t.bytes[IO_WRITE], 4608);
    expect_io(&t.first, 0, 0, IO_READ, 899056122368ull, 131072);
    expect_io(&t.last, 866924000ull, 4, IO_WRITE, 12288, 512);
    CUTEST_EQ(t.last_line, 5);

    /* Only LUN 4. */
    TraceOptions lun = {.format = "systor", .device = 4};
    g_autoptr(TraceReader) l = trace_open_memory("h.csv", text, strlen(text), &lun, &error);
    CU_ASSERT(tally_reader(l, &t, &error));
    CUTEST_EQ(t.records, 2);
    expect_io(&t.first, 0, 4, IO_WRITE, 8192, 4096);
}

static CU_TestInfo tests[] = {
    {"mqsim", test_mqsim},
    {"ssdsim", test_ssdsim},
    {"fiu", test_fiu},
    {"blkparse", test_blkparse},
    {"blkparse Q and D", test_blkparse_q_d},
    {"fio3", test_fio3},
    {"fio_zone_actions", test_fio_zone_actions},
    {"fio2", test_fio2},
    {"msr", test_msr},
    {"alibaba", test_alibaba},
    {"tencent", test_tencent},
    {"spc", test_spc},
    {"wiscsee", test_wiscsee},
    {"systor", test_systor},
    {"disksim", test_disksim},
    {"device filter", test_device_filter},
    {"gzip equals plain", test_gzip},
    {"time going backwards", test_time_backwards},
    {"malformed lines", test_malformed},
    {"skip bad lines", test_skip_bad_lines},
    {"long and NUL lines", test_long_and_nul_lines},
    {"blkparse flags", test_blkparse_flags},
    {"fiu process with blank", test_fiu_process_blank},
    {"detection", test_detect},
    {"open errors", test_open_errors},
    {"truncated gz", test_truncated_gz},
    CU_TEST_INFO_NULL,
};

int main(void)
{
    return cutest_run("trace", tests);
}
