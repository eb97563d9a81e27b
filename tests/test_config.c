/* test_config.c - the drive config loader: every unit form, every bad-config
 * message (tests/data/bad_configs), defaults, a full round trip, the
 * generated reference.ini, the `check` text, the drive listing and JSON. */
#include <glib/gstdio.h>
#include <string.h>

#include "sim/config/config.h"
#include "sim/config/config_schema.h"
#include "sim/config/config_units.h"
#include "models/drive.h"
#include "models/pslc.h"
#include "tests/cutest.h"

#define BAD_DIR "tests/data/bad_configs/"

/* ---- units ------------------------------------------------------------- */

typedef struct UnitCase {
    const char *text;
    uint64_t value;
} UnitCase;

typedef gboolean (*ParseFn)(const char *, uint64_t *);

static void check_cases(ParseFn parse, const UnitCase *good, gsize ngood, const char *const *bad,
                        gsize nbad)
{
    for (gsize i = 0; i < ngood; i++) {
        uint64_t v = 12345;
        gboolean ok = parse(good[i].text, &v);
        if (!ok || v != good[i].value)
            fprintf(stderr, "parse \"%s\": ok %d value %" G_GUINT64_FORMAT "\n", good[i].text, ok,
                    v);
        CU_ASSERT(ok);
        CUTEST_EQ(v, good[i].value);
    }
    for (gsize i = 0; i < nbad; i++) {
        uint64_t v = 12345;
        gboolean ok = parse(bad[i], &v);
        if (ok)
            fprintf(stderr, "parse \"%s\" should fail\n", bad[i]);
        CU_ASSERT_FALSE(ok);
        CUTEST_EQ(v, 12345);
    }
}

static void test_sizes(void)
{
    static const UnitCase good[] = {
        {"4096", 4096},
        {"0", 0},
        {"16KiB", 16384},
        {"16Ki", 16384},
        {"16 KiB", 16384},
        {"16kB", 16000},
        {"16KB", 16000},
        {"16k", 16000},
        {"16K", 16000},
        {"512MiB", 512ull * 1024 * 1024},
        {"512MB", 512000000},
        {"4M", 4000000},
        {"1TB", 1000000000000ull},
        {"1T", 1000000000000ull},
        {"1TiB", 1099511627776ull},
        {"2GiB", 2147483648ull},
        {"1.5TB", 1500000000000ull},
        {"1.5KiB", 1536},
        {"0.5KiB", 512},
        {"1.0005kB", 1001}, /* 1000.5 rounds up */
        {"1.0004kB", 1000},
        {"1.25PiB", 1407374883553280ull},
        {"100B", 100},
        {"18446744073709551615", UINT64_MAX},
    };
    static const char *const bad[] = {
        "",         "KiB",      "16KB2", "16kib", "16kb",
        "16 K iB",  "1e3",      "-1",    "+4",    ".5KiB",
        "1.KiB",    "1.5",      "2.5B",  "16EiB", "18446744073709551616",
        "16384PiB", "16 MiB/s", "0x10",  "1,5MB",
    };
    check_cases(config_parse_size, good, G_N_ELEMENTS(good), bad, G_N_ELEMENTS(bad));
}

static void test_times(void)
{
    static const UnitCase good[] = {
        {"45us", 45000},
        {"45\xc2\xb5s", 45000},
        {"2.6ms", 2600000},
        {"30ns", 30},
        {"1s", 1000000000},
        {"2min", 120000000000ull},
        {"0", 0},
        {"0.0", 0},
        {"2.6 ms", 2600000},
        {"0.5ns", 1},
        {"1.5s", 1500000000},
        {"0.001ms", 1000},
    };
    static const char *const bad[] = {"50", "1.5",   "",     "us",    "2.6mss", "5 sec",
                                      "3h", "1e3ns", "-5us", "2.6MS", "45 u s"};
    check_cases(config_parse_time, good, G_N_ELEMENTS(good), bad, G_N_ELEMENTS(bad));
}

static void test_rates(void)
{
    static const UnitCase good[] = {
        {"1.4GT/s", 1400000000},
        {"400MT/s", 400000000},
        {"800 MT/s", 800000000},
        {"3.6GT/s", 3600000000ull},
        {"100kT/s", 100000},
        {"7T/s", 7},
        {"0", 0},
    };
    static const char *const bad[] = {"400", "400MTs", "400MT", "400MB/s", "400mT/s", ""};
    check_cases(config_parse_rate, good, G_N_ELEMENTS(good), bad, G_N_ELEMENTS(bad));
}

static void test_bandwidths(void)
{
    static const UnitCase good[] = {
        {"600MB/s", 600000000},
        {"1.5GiB/s", 1610612736},
        {"3.5GB/s", 3500000000ull},
        {"100KiB/s", 102400},
        {"12B/s", 12},
        {"0", 0},
    };
    static const char *const bad[] = {"600", "600MBps", "600MB", "600Mb/s", "MB/s"};
    check_cases(config_parse_bandwidth, good, G_N_ELEMENTS(good), bad, G_N_ELEMENTS(bad));
}

static void test_percent_int_bool(void)
{
    static const struct {
        const char *text;
        double value;
    } good[] = {{"7%", 0.07},     {"0.07", 0.07}, {"100%", 1.0}, {"7.5%", 0.075},
                {"12.3%", 0.123}, {"7 %", 0.07},  {"0", 0.0},    {"1", 1.0}};
    for (unsigned i = 0; i < G_N_ELEMENTS(good); i++) {
        double v = -1;
        CU_ASSERT(config_parse_percent(good[i].text, &v));
        CU_ASSERT(v == good[i].value); /* the same double as the literal */
    }
    static const char *const badp[] = {"%", "-1%", "abc", "7%%", "7% x", ".5", ""};
    for (unsigned i = 0; i < G_N_ELEMENTS(badp); i++) {
        double v = -1;
        CU_ASSERT_FALSE(config_parse_percent(badp[i], &v));
    }
    uint64_t n = 0;
    CU_ASSERT(config_parse_uint("65535", &n));
    CUTEST_EQ(n, 65535);
    CU_ASSERT_FALSE(config_parse_uint("-1", &n));
    CU_ASSERT_FALSE(config_parse_uint("12x", &n));
    CU_ASSERT_FALSE(config_parse_uint("99999999999999999999", &n));
    CU_ASSERT_FALSE(config_parse_uint("", &n));
    static const char *const yes[] = {"true", "yes", "1", "TRUE", "Yes"};
    static const char *const no[] = {"false", "no", "0", "False"};
    static const char *const badb[] = {"2", "on", "off", "y", ""};
    bool b;
    for (unsigned i = 0; i < G_N_ELEMENTS(yes); i++) {
        b = false;
        CU_ASSERT(config_parse_bool(yes[i], &b) && b);
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(no); i++) {
        b = true;
        CU_ASSERT(config_parse_bool(no[i], &b) && !b);
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(badb); i++)
        CU_ASSERT_FALSE(config_parse_bool(badb[i], &b));
}

static void check_format(void (*fmt)(uint64_t, char *, gsize), uint64_t v, const char *want)
{
    char buf[CONFIG_VALUE_LEN];
    fmt(v, buf, sizeof buf);
    if (strcmp(buf, want) != 0)
        fprintf(stderr, "format %" G_GUINT64_FORMAT ": \"%s\", expected \"%s\"\n", v, buf, want);
    CU_ASSERT_STRING_EQUAL(buf, want);
}

static void test_format(void)
{
    check_format(config_format_size, 16384, "16KiB");
    check_format(config_format_size, 1000000000000ull, "1TB");
    check_format(config_format_size, 1099511627776ull, "1TiB");
    check_format(config_format_size, 1536, "1.5KiB");
    check_format(config_format_size, 6000000000ull, "6GB");
    check_format(config_format_size, 4097, "4.097kB");
    check_format(config_format_size, 999, "999B");
    check_format(config_format_size, 0, "0");
    check_format(config_format_time, 2600000, "2.6ms");
    check_format(config_format_time, 45000, "45us");
    check_format(config_format_time, 1000000000, "1s");
    check_format(config_format_time, 1234567, "1234.567us");
    check_format(config_format_rate, 1400000000, "1.4GT/s");
    check_format(config_format_bandwidth, 600000000, "600MB/s");
    char buf[CONFIG_VALUE_LEN];
    config_format_percent(0.07, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "7%");
    /* what is printed reads back to the same value */
    static const uint64_t sizes[] = {1,         4095, 16384, 1500000000000ull, 123456789012345ull,
                                     UINT64_MAX};
    for (unsigned i = 0; i < G_N_ELEMENTS(sizes); i++) {
        uint64_t back = 0;
        config_format_size(sizes[i], buf, sizeof buf);
        CU_ASSERT(config_parse_size(buf, &back));
        CUTEST_EQ(back, sizes[i]);
    }
}

/* ---- bad configs ------------------------------------------------------- */

static const struct {
    const char *file;
    int code;
    const char *message; /* after "tests/data/bad_configs/<file>" */
} bad_configs[] = {
    {"bad_size.ini", CONFIG_ERROR_VALUE,
     ": [nand] page_size = \"16KB2\": expected a size such as 16KiB"},
    {"bad_time.ini", CONFIG_ERROR_VALUE,
     ": [timing.tlc] t_prog = \"2.6mss\": expected a time with a unit such as 2.6ms"},
    {"time_no_unit.ini", CONFIG_ERROR_VALUE,
     ": [timing.slc] t_read = \"25\": expected a time with a unit such as 25us"},
    {"unknown_group.ini", CONFIG_ERROR_UNKNOWN, ": [nandd]: unknown group (did you mean nand?)"},
    {"unknown_key.ini", CONFIG_ERROR_UNKNOWN,
     ": [nand] pages_per_blok: unknown key (did you mean pages_per_block?)"},
    {"unknown_key_far.ini", CONFIG_ERROR_UNKNOWN,
     ": [controller] channel_speed: unknown key (known keys: channels, ces_per_channel, "
     "channel_rate, channel_width, dram, l2p_kind, l2p_cache, l2p_prefetch, cores, complete_cost, "
     "miss_cost, relocate_cost, erase_cost, copy_offload, max_program_dies)"},
    {"missing_required.ini", CONFIG_ERROR_MISSING,
     ": [drive] user_capacity: missing, expected a size such as 1TB"},
    {"native_timing_missing.ini", CONFIG_ERROR_MISSING,
     ": [timing.qlc] t_read: missing, expected a time with a unit such as 120us"},
    {"bad_enum.ini", CONFIG_ERROR_VALUE,
     ": [host] interface = \"usb\": expected one of sata, nvme"},
    {"int_range.ini", CONFIG_ERROR_VALUE,
     ": [host] pcie_gen = \"6\": expected an integer from 1 to 5"},
    {"percent_range.ini", CONFIG_ERROR_VALUE,
     ": [pslc] dynamic_share = \"120%\": expected a percentage from 0% to 100% such as 7%, or a "
     "fraction such as 0.07"},
    {"bad_bool.ini", CONFIG_ERROR_VALUE,
     ": [timing.tlc] one_shot = \"maybe\": expected true, false, yes, no, 1 or 0"},
    {"syntax_line.ini", CONFIG_ERROR_SYNTAX,
     ":16: \"page_size 16KiB\": expected a [group], a key = value line or a # comment"},
    {"repeated_key.ini", CONFIG_ERROR_SYNTAX,
     ":19: [nand] planes: key repeated (first on line 16)"},
    {"key_before_group.ini", CONFIG_ERROR_SYNTAX,
     ":1: \"name = early\": a key before the first [group]"},
    {"raw_below_user.ini", CONFIG_ERROR_INVALID,
     ": [drive] user_capacity = 4GB: expected above 0 and at most the raw capacity of 3.2 GB "
     "(3.0 GiB)"},
    {"pslc_static_too_big.ini", CONFIG_ERROR_INVALID,
     ": [pslc] static = 500MB: the static cache needs 1.5 GB of native cells but "
     "over-provisioning is only 1.2 GB"},
    {"map_unit_not_pow2.ini", CONFIG_ERROR_INVALID,
     ": [ftl] map_unit = 12KiB: expected 4KiB times a power of two (4KiB, 8KiB, 16KiB, 32KiB "
     "or 64KiB)"},
    {"map_unit_too_big.ini", CONFIG_ERROR_VALUE,
     ": [ftl] map_unit = \"128KiB\": expected a size from 4KiB to 64KiB such as 16KiB"},
    {"map_unit_hmb.ini", CONFIG_ERROR_INVALID,
     ": [ftl] map_unit = 16KiB: expected 4KiB with l2p_kind = hmb (the mapping cache is "
     "modelled with 4 KiB entries; map units above 4 KiB need l2p_kind = dram)"},
    {"hmb_without_cache.ini", CONFIG_ERROR_INVALID,
     ": [controller] l2p_cache = 0: l2p_kind = hmb needs a mapping cache above 0, such as 64MiB"},
    {"gc_soft_not_above_hard.ini", CONFIG_ERROR_INVALID,
     ": [gc] soft_blocks = 2: expected more than hard_blocks = 2"},
    {"pages_not_multiple.ini", CONFIG_ERROR_INVALID,
     ": [nand] pages_per_block = 1000: expected a multiple of 3, the bits per cell of "
     "native_mode = tlc"},
    {"page_size_not_4k.ini", CONFIG_ERROR_INVALID,
     ": [nand] page_size = 6kB: expected a multiple of 4KiB such as 16KiB"},
};

static void test_bad_configs(void)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(bad_configs); i++) {
        g_autofree char *path = g_strconcat(BAD_DIR, bad_configs[i].file, NULL);
        g_autofree char *want = g_strconcat(path, bad_configs[i].message, NULL);
        g_autoptr(GError) e = NULL;
        DriveParams p;
        CU_ASSERT_FALSE(config_load_file(path, &p, &e));
        CU_ASSERT_PTR_NOT_NULL(e);
        if (!e)
            continue;
        if (strcmp(e->message, want) != 0)
            fprintf(stderr, "\n  got:      %s\n  expected: %s\n", e->message, want);
        CU_ASSERT_STRING_EQUAL(e->message, want);
        CU_ASSERT(g_error_matches(e, CONFIG_ERROR, bad_configs[i].code));
        CU_ASSERT_PTR_NULL(strchr(e->message, '\n'));
    }
    /* every fixture is in the table */
    g_autoptr(GDir) d = g_dir_open(BAD_DIR, 0, NULL);
    CUTEST_REQUIRE_PTR(d);
    unsigned files = 0;
    for (const char *f; (f = g_dir_read_name(d));)
        files += g_str_has_suffix(f, ".ini");
    CUTEST_EQ(files, G_N_ELEMENTS(bad_configs));
}

/* A small valid drive; the tests below change one line of it. */
static const char small_drive[] = "[drive]\n"
                                  "name = small\n"
                                  "user_capacity = 2GB\n"
                                  "[host]\n"
                                  "interface = sata\n"
                                  "[controller]\n"
                                  "channels = 2\n"
                                  "channel_rate = 400MT/s\n"
                                  "[nand]\n"
                                  "blocks_per_plane = 64\n"
                                  "pages_per_block = 768\n"
                                  "native_mode = tlc\n"
                                  "[timing.slc]\n"
                                  "t_read = 25us\n"
                                  "t_prog = 200us\n"
                                  "t_erase = 3ms\n"
                                  "[timing.tlc]\n"
                                  "t_read = 50us\n"
                                  "t_prog = 2.6ms\n"
                                  "t_erase = 4ms\n";

/* small_drive with `from` replaced by `to`, loaded under the name "x.ini". */
static gboolean load_edited(const char *from, const char *to, DriveParams *p, GError **e)
{
    g_autoptr(GString) s = g_string_new(small_drive);
    if (from)
        CU_ASSERT(g_string_replace(s, from, to, 1) == 1);
    return config_load_data(s->str, s->len, "x.ini", p, e);
}

static void expect_error(const char *from, const char *to, const char *want)
{
    DriveParams p;
    g_autoptr(GError) e = NULL;
    CU_ASSERT_FALSE(load_edited(from, to, &p, &e));
    if (e && strcmp(e->message, want) != 0)
        fprintf(stderr, "\n  got:      %s\n  expected: %s\n", e->message, want);
    CU_ASSERT(e && strcmp(e->message, want) == 0);
}

/* --set overrides go over the file's values and through the same checks. */
static void test_overrides(void)
{
    const char *path = CUTEST_SRC("configs/990.ini");
    DriveParams base, p;
    g_autoptr(GError) e = NULL;
    CUTEST_REQUIRE(config_load_file(path, &base, &e));
    const char *sets[] = {"trim.policy=deferred", "pslc.static=2GB", "host.cmd_cost=3us", NULL};
    CUTEST_REQUIRE(config_load_file_set(path, sets, &p, &e));
    CUTEST_EQ(p.trim_policy, TRIM_DEFERRED);
    CUTEST_EQ(base.trim_policy, TRIM_IMMEDIATE);
    CUTEST_EQ(p.pslc_static, 2000000000ull);
    CUTEST_EQ(p.cmd_cost, 3000);
    CUTEST_EQ(p.channels, base.channels);
    /* the last of two overrides of one key wins */
    const char *twice[] = {"host.cmd_cost=3us", "host.cmd_cost=5us", NULL};
    CUTEST_REQUIRE(config_load_file_set(path, twice, &p, &e));
    CUTEST_EQ(p.cmd_cost, 5000);
    /* groups with a dot: the key is after the last one */
    const char *timing[] = {"timing.qlc.t_prog=9ms", "timing.slc.one_shot=false", NULL};
    CUTEST_REQUIRE(config_load_file_set(path, timing, &p, &e));
    CUTEST_EQ(p.timing[CELL_QLC].t_prog, 9000000);
    CUTEST_EQ(p.timing[CELL_SLC].one_shot, false);
    CUTEST_EQ(p.timing[CELL_QLC].t_read, base.timing[CELL_QLC].t_read);
    static const struct {
        const char *set, *msg;
    } bad[] = {
        {"gc.polcy=greedy", "--set \"gc.polcy=greedy\": unknown key [gc] polcy (did you mean policy?)"},
        {"nope.key=1", "--set \"nope.key=1\": unknown group [nope] (known groups: "},
        {"gc.policy", "--set \"gc.policy\": expected GROUP.KEY=VALUE"},
        {".policy=greedy", "--set \".policy=greedy\": expected GROUP.KEY=VALUE"},
        {"gc.=greedy", "--set \"gc.=greedy\": expected GROUP.KEY=VALUE"},
        {"timing.tlc=1ms", "--set \"timing.tlc=1ms\": unknown group [timing] (known groups: "},
        {"timing.tlc.t_prg=1ms", "--set \"timing.tlc.t_prg=1ms\": unknown key [timing.tlc] t_prg"},
        {"gc.policy=best", "--set \"gc.policy=best\": expected one of"},
        {"nand.planes=0", "--set \"nand.planes=0\": expected"},
    };
    for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
        const char *one[] = {bad[i].set, NULL};
        g_autoptr(GError) err = NULL;
        CU_ASSERT_FALSE(config_load_file_set(path, one, &p, &err));
        CUTEST_REQUIRE_PTR(err);
        if (!g_str_has_prefix(err->message, bad[i].msg))
            fprintf(stderr, "\n  %s: got \"%s\"\n", bad[i].set, err->message);
        CU_ASSERT(g_str_has_prefix(err->message, bad[i].msg));
    }
    /* an override that breaks a rule across keys is refused as the file would be */
    const char *big[] = {"pslc.static=200GB", NULL};
    g_autoptr(GError) err = NULL;
    CU_ASSERT_FALSE(config_load_file_set(path, big, &p, &err));
}

static void test_line_checks(void)
{
    DriveParams p;
    g_autoptr(GError) e = NULL;
    CU_ASSERT(load_edited(NULL, NULL, &p, &e));
    /* comments with # or ;, CRLF line ends, spaces around '=' and before lines */
    CU_ASSERT(load_edited("[host]\n", "; the host\r\n  [host]  \r\n# x\n", &p, &e));
    expect_error("[host]\n", "[host]\n[drive]\n",
                 "x.ini:5: [drive]: group repeated (first on line 1)");
    expect_error("[host]\n", "[ho st]\n",
                 "x.ini:4: \"[ho st]\": expected a group name of letters, digits, '_', '.' and "
                 "'-' in brackets such as [nand]");
    expect_error("[host]\n", "[host] x\n",
                 "x.ini:4: \"[host] x\": expected a group name of letters, digits, '_', '.' and "
                 "'-' in brackets such as [nand]");
    expect_error("name = small\n", "name[de] = klein\n",
                 "x.ini:2: \"name[de] = klein\": expected a [group], a key = value line or a # "
                 "comment");
    expect_error("name = small\n", "name = a\001b\n",
                 "x.ini: [drive] name = \"a\\001b\": "
                 "expected text without control characters");
    expect_error("name = small\n", "name = \xff\n", "x.ini:2: the line is not UTF-8");
    static const char nul[] = "[drive]\nname = a\0b\n";
    CU_ASSERT_FALSE(config_load_data(nul, sizeof nul - 1, "n.ini", &p, &e));
    CU_ASSERT(e && strcmp(e->message, "n.ini:2: a NUL byte in the line") == 0);
    g_clear_error(&e);
    CU_ASSERT_FALSE(config_load_data("", 0, "empty.ini", &p, &e));
    CU_ASSERT(e && strcmp(e->message, "empty.ini: [drive] name: missing, expected text of at "
                                      "most 63 bytes") == 0);
    g_clear_error(&e);
    g_autofree char *longname = g_strdup_printf("name = %064d\n", 7);
    expect_error("name = small\n", longname,
                 "x.ini: [drive] name = \"0000000000000000000000000000000000000000000000000000000"
                 "00000...\": expected text of at most 63 bytes");
}

static void test_cross_key_rules(void)
{
    expect_error("native_mode = tlc\n", "native_mode = tlc\n[pslc]\ndynamic_rule = capped\n",
                 "x.ini: [pslc] dynamic_cap = 0: dynamic_rule = capped needs a cap above 0, such "
                 "as 40GB");
    expect_error("t_prog = 2.6ms\n", "t_prog = 0\n",
                 "x.ini: [timing.tlc] t_prog = 0: expected a time above 0 (the native mode's "
                 "timing is needed)");
    expect_error("t_erase = 3ms\n", "t_erase = 0\n",
                 "x.ini: [timing.slc] t_erase = 0: expected a time above 0 (SLC timing is always "
                 "needed)");
    expect_error("native_mode = tlc\n", "native_mode = tlc\n[gc]\nhard_blocks = 0\n",
                 "x.ini: [gc] hard_blocks = 0: expected at least 1");
    expect_error("t_erase = 3ms\n", "t_erase = 3ms\ntwo_pass = true\n",
                 "x.ini: [timing.slc] two_pass = true: expected false (one bit per cell is "
                 "programmed in one pass)");
    expect_error("native_mode = tlc\n", "native_mode = tlc\n[controller]\nl2p_kind = sram\n",
                 "x.ini:13: [controller]: group repeated (first on line 6)");
    /* the optional timing group of a mode the drive does not use may be left out,
     * but once present its keys are required */
    expect_error("[timing.tlc]\n", "[timing.mlc]\nt_read = 1us\n[timing.tlc]\n",
                 "x.ini: [timing.mlc] t_prog: missing, expected a time with a unit such as 600us");
    /* static pSLC exactly filling over-provisioning fits the pSLC rule, but
     * leaves GC no spare block: refused for the GC threshold it cannot hold */
    DriveParams p;
    g_autoptr(GError) e = NULL;
    CU_ASSERT(load_edited(NULL, NULL, &p, &e));
    uint64_t op = drive_params_raw_capacity(&p) - p.user_capacity;
    g_autofree char *fits =
        g_strdup_printf("native_mode = tlc\n[pslc]\nstatic = %" G_GUINT64_FORMAT "\n", op / 3);
    CU_ASSERT_FALSE(load_edited("native_mode = tlc\n", fits, &p, &e));
    CU_ASSERT(e && strstr(e->message, "[gc] soft_blocks = 4: the drive has 0 spare blocks per die"));
    /* a capacity that leaves fewer spare blocks than soft_blocks and the
     * host's and GC's open blocks locks a full drive up: refused; one that
     * leaves exactly that many loads (this drive has no pSLC cache and
     * keeps its map in DRAM: two open blocks a die) */
    g_clear_error(&e);
    CU_ASSERT(load_edited(NULL, NULL, &p, &e));
    uint32_t spare = pslc_spare_blocks(&p);
    CU_ASSERT(spare > 4);
    g_autofree char *tight = g_strdup_printf("native_mode = tlc\n[gc]\nsoft_blocks = %u\nhard_blocks = 2\n", spare - 1);
    CU_ASSERT_FALSE(load_edited("native_mode = tlc\n", tight, &p, &e));
    CU_ASSERT(e && strstr(e->message, "2 of them held open for writing"));
    g_clear_error(&e);
    g_autofree char *holds = g_strdup_printf("native_mode = tlc\n[gc]\nsoft_blocks = %u\nhard_blocks = 2\n", spare - 2);
    CU_ASSERT(load_edited("native_mode = tlc\n", holds, &p, &e));
}

/* ---- round trip, defaults, reference.ini ------------------------------ */

static void test_defaults(void)
{
    DriveParams p;
    config_defaults(&p);
    CUTEST_EQ(p.user_capacity, 0); /* required: not defaulted */
    CUTEST_EQ(p.pcie_gen, 3);
    CUTEST_EQ(p.pcie_lanes, 4);
    CUTEST_EQ(p.queue_depth, 32);
    CUTEST_EQ(p.queue_count, 1);
    CUTEST_EQ(p.cmd_cost, 2000);
    CUTEST_EQ(p.page_cost, 0);
    CUTEST_EQ(p.write_buffer, 4 << 20);
    CUTEST_EQ(p.ces_per_channel, 1);
    CUTEST_EQ(p.channel_width, 8);
    CUTEST_EQ(p.l2p_kind, L2P_DRAM);
    CUTEST_EQ(p.dies_per_ce, 1);
    CUTEST_EQ(p.planes, 2);
    CUTEST_EQ(p.page_size, 16384);
    CU_ASSERT_FALSE(p.erase_suspend);
    for (int m = CELL_SLC; m <= CELL_QLC; m++) {
        CU_ASSERT(p.timing[m].one_shot);
        CUTEST_EQ(p.timing[m].t_prog, 0);
    }
    CUTEST_EQ(p.pslc_rule, PSLC_RULE_NONE);
    CU_ASSERT(p.pslc_dynamic_share == 1.0);
    CUTEST_EQ(p.fold_policy, FOLD_FIRST);
    CUTEST_EQ(p.fold_idle_delay, 1000000000);
    CU_ASSERT(p.fold_high_watermark == 1.0);
    CUTEST_EQ(p.gc_policy, GC_GREEDY);
    CUTEST_EQ(p.gc_soft_blocks, 4);
    CUTEST_EQ(p.gc_hard_blocks, 2);
    CUTEST_EQ(p.trim_policy, TRIM_IMMEDIATE);
}

static const char full_drive[] = "# every group, values in several spellings\n"
                                 "[drive]\n"
                                 "name = Test NVMe QLC\n"
                                 "notes = line one\\nline two\n"
                                 "user_capacity = 1.5TiB\n"
                                 "[host]\n"
                                 "interface = nvme\n"
                                 "pcie_gen = 4\n"
                                 "pcie_lanes = 2\n"
                                 "queue_depth = 256\n"
                                 "queue_count = 8\n"
                                 "cmd_cost = 1.5us\n"
                                 "page_cost = 80ns\n"
                                 "write_buffer = 8MB\n"
                                 "[controller]\n"
                                 "channels = 4\n"
                                 "ces_per_channel = 2\n"
                                 "channel_rate = 1.6GT/s\n"
                                 "channel_width = 16\n"
                                 "dram = 0\n"
                                 "l2p_kind = hmb\n"
                                 "l2p_cache = 64MiB\n"
                                 "[nand]\n"
                                 "dies_per_ce = 2\n"
                                 "planes = 4\n"
                                 "blocks_per_plane = 2000\n"
                                 "pages_per_block = 1024\n"
                                 "page_size = 16Ki\n"
                                 "native_mode = qlc\n"
                                 "erase_suspend = yes\n"
                                 "[timing.slc]\n"
                                 "t_read = 30\xc2\xb5s\n"
                                 "t_prog = 0.2ms\n"
                                 "t_erase = 3ms\n"
                                 "one_shot = false\n"
                                 "[timing.qlc]\n"
                                 "t_read = 140us\n"
                                 "t_prog = 5.5ms\n"
                                 "t_erase = 12ms\n"
                                 "[pslc]\n"
                                 "static = 6GB\n"
                                 "dynamic_rule = free_share\n"
                                 "dynamic_cap = 100GB\n"
                                 "dynamic_share = 0.25\n"
                                 "fold_policy = native_first\n"
                                 "fold_idle_delay = 2min\n"
                                 "fold_high_watermark = 85%\n"
                                 "[gc]\n"
                                 "policy = cost_benefit\n"
                                 "soft_blocks = 10\n"
                                 "hard_blocks = 3\n"
                                 "[trim]\n"
                                 "policy = deferred\n"
                                 "entry_cost = 20ns\n";

static void test_round_trip(void)
{
    DriveParams p;
    g_autoptr(GError) e = NULL;
    CU_ASSERT(config_load_data(full_drive, strlen(full_drive), "full.ini", &p, &e));
    if (e)
        fprintf(stderr, "%s\n", e->message);
    CU_ASSERT_STRING_EQUAL(p.name, "Test NVMe QLC");
    CU_ASSERT_STRING_EQUAL(p.notes, "line one\nline two");
    CUTEST_EQ(p.user_capacity, 3ull << 39);
    CUTEST_EQ(p.interface, HOSTIF_NVME);
    CUTEST_EQ(p.pcie_gen, 4);
    CUTEST_EQ(p.pcie_lanes, 2);
    CUTEST_EQ(p.queue_depth, 256);
    CUTEST_EQ(p.queue_count, 8);
    CUTEST_EQ(p.cmd_cost, 1500);
    CUTEST_EQ(p.page_cost, 80);
    CUTEST_EQ(p.write_buffer, 8000000);
    CUTEST_EQ(p.channels, 4);
    CUTEST_EQ(p.ces_per_channel, 2);
    CUTEST_EQ(p.channel_rate, 1600000000);
    CUTEST_EQ(p.channel_width, 16);
    CUTEST_EQ(p.dram, 0);
    CUTEST_EQ(p.l2p_kind, L2P_HMB);
    CUTEST_EQ(p.l2p_cache, 64 << 20);
    CUTEST_EQ(p.dies_per_ce, 2);
    CUTEST_EQ(p.planes, 4);
    CUTEST_EQ(p.blocks_per_plane, 2000);
    CUTEST_EQ(p.pages_per_block, 1024);
    CUTEST_EQ(p.page_size, 16384);
    CUTEST_EQ(p.native_mode, CELL_QLC);
    CU_ASSERT(p.erase_suspend);
    CUTEST_EQ(p.timing[CELL_SLC].t_read, 30000);
    CUTEST_EQ(p.timing[CELL_SLC].t_prog, 200000);
    CUTEST_EQ(p.timing[CELL_SLC].t_erase, 3000000);
    CU_ASSERT_FALSE(p.timing[CELL_SLC].one_shot);
    CUTEST_EQ(p.timing[CELL_QLC].t_read, 140000);
    CUTEST_EQ(p.timing[CELL_QLC].t_prog, 5500000);
    CUTEST_EQ(p.timing[CELL_QLC].t_erase, 12000000);
    CU_ASSERT(p.timing[CELL_QLC].one_shot);
    CUTEST_EQ(p.timing[CELL_TLC].t_prog, 0); /* absent group: zero timing */
    CUTEST_EQ(p.pslc_static, 6000000000ull);
    CUTEST_EQ(p.pslc_rule, PSLC_RULE_FREE_SHARE);
    CUTEST_EQ(p.pslc_dynamic_cap, 100000000000ull);
    CU_ASSERT(p.pslc_dynamic_share == 0.25);
    CUTEST_EQ(p.fold_policy, NATIVE_FIRST);
    CUTEST_EQ(p.fold_idle_delay, 120000000000ull);
    CU_ASSERT(p.fold_high_watermark == 0.85);
    CUTEST_EQ(p.gc_policy, GC_COST_BENEFIT);
    CUTEST_EQ(p.gc_soft_blocks, 10);
    CUTEST_EQ(p.gc_hard_blocks, 3);
    CUTEST_EQ(p.trim_policy, TRIM_DEFERRED);
    CUTEST_EQ(p.trim_entry_cost, 20);
    /* 4 ch x 2 CE x 2 dies x 4 planes x 2000 blocks x 1024 pages x 16 KiB */
    CUTEST_EQ(drive_params_raw_capacity(&p), 16ull * 4 * 2000 * 1024 * 16384);
}

static char *read_text(const char *path)
{
    char *s = NULL;
    g_autoptr(GError) e = NULL;
    if (!g_file_get_contents(path, &s, NULL, &e))
        fprintf(stderr, "%s\n", e->message);
    return s;
}

static void test_reference_ini(void)
{
    g_autofree char *made = config_reference_ini();
    g_autofree char *committed = read_text("configs/reference.ini");
    CUTEST_REQUIRE_PTR(committed);
    if (strcmp(made, committed) != 0)
        fprintf(stderr, "configs/reference.ini is stale: regenerate it with "
                        "`ftlsim config-reference > configs/reference.ini`\n");
    CU_ASSERT_STRING_EQUAL(made, committed);
    /* every key appears as a `key = value` line in its group */
    gsize n;
    const ConfigKey *rows = config_schema(&n);
    for (gsize i = 0; i < n; i++) {
        g_autofree char *group = g_strdup_printf("\n[%s]\n", rows[i].group);
        g_autofree char *key = g_strdup_printf("\n%s =", rows[i].key);
        const char *g = strstr(made, group);
        CU_ASSERT(g && strstr(g, key));
    }
    DriveParams p;
    g_autoptr(GError) e = NULL;
    CU_ASSERT(config_load_file("configs/reference.ini", &p, &e));
    if (e)
        fprintf(stderr, "%s\n", e->message);
    CU_ASSERT_STRING_EQUAL(p.name, "Example 1TB TLC SATA");
    CUTEST_EQ(p.user_capacity, 1000000000000ull);
    CUTEST_EQ(p.native_mode, CELL_TLC);
    CUTEST_EQ(p.interface, HOSTIF_SATA);
    /* its defaults are the schema's defaults */
    DriveParams d;
    config_defaults(&d);
    CUTEST_EQ(p.write_buffer, d.write_buffer);
    CUTEST_EQ(p.gc_soft_blocks, d.gc_soft_blocks);
    CU_ASSERT(p.pslc_dynamic_share == d.pslc_dynamic_share);
}

static void test_docs_list_every_key(void)
{
    g_autofree char *doc = read_text("docs/config.md");
    CUTEST_REQUIRE_PTR(doc);
    gsize n;
    const ConfigKey *rows = config_schema(&n);
    for (gsize i = 0; i < n; i++) {
        g_autofree char *group = g_strdup_printf("### [%s]", rows[i].group);
        g_autofree char *key = g_strdup_printf("| `%s` |", rows[i].key);
        const char *g = strstr(doc, group);
        if (!g || !strstr(g, key))
            fprintf(stderr, "docs/config.md lacks [%s] %s\n", rows[i].group, rows[i].key);
        CU_ASSERT(g && strstr(g, key));
    }
}

/* The simulator's memory for the reference drive, by hand: the map costs
 * what is written. 1 TB user (244 M pages, 59,605 chunks of 4096), 8 dies
 * x 2 planes x 2800 blocks x 1536 pages x 16 KiB raw (275 M slots, 67,200
 * chunks of 4096), 44,800 blocks, 4-byte entries. */
static void test_memory_estimate(void)
{
    DriveParams p;
    g_autoptr(GError) e = NULL;
    CUTEST_REQUIRE(config_load_file("configs/reference.ini", &p, &e));
    const double mib = 1048576, slab = 2 * mib;
    double lpns = 1e12 / 4096, slots = 8.0 * 2 * 2800 * 1536 * 4;
    MemoryClass quarter = {.seq_fill = 0.25}, half = {.seq_fill = 0.5}, fill = {.seq_fill = 1.0};
    MemoryClass rnd = {.seq_fill = 1.0, .random_bytes = 20000000000ull, .random_bs = 4096};
    MemoryClass frag = {.random_fill = 1.0}, worst = {.random_fill = 1.0, .random_bytes = UINT64_MAX};
    double q = (double)drive_memory_estimate(&p, &quarter), h = (double)drive_memory_estimate(&p, &half);
    double f = (double)drive_memory_estimate(&p, &fill), r = (double)drive_memory_estimate(&p, &rnd);
    double fr = (double)drive_memory_estimate(&p, &frag), w = (double)drive_memory_estimate(&p, &worst);
    /* fully fragmented: an entry per page and per slot (4 bytes each, in
     * 466 and 525 slabs of 128 parts), the directories (2.4 MB), the
     * blocks (32 bytes each), the sort buffers (32 MiB), the process */
    double floor = 466 * slab + 525 * slab;
    CU_ASSERT_TRUE(fr >= floor + 32 * mib && fr <= floor + 32 * mib + 16 * mib);
    CU_ASSERT_TRUE(floor >= 4 * (lpns + slots));
    CUTEST_EQ(w, fr);
    CUTEST_EQ((double)drive_memory_estimate(&p, NULL), fr);
    /* in order: runs of a TLC program unit (96 KiB, 24 pages), 8 bytes
     * each way, doubled for the lists' slack: far below an entry per page,
     * and in proportion to what is written */
    CU_ASSERT_TRUE(f < fr / 5);
    CU_ASSERT_TRUE(q < h && h < f);
    double per_quarter = h - q;
    CU_ASSERT_TRUE(fabs((f - h) - 2 * per_quarter) < 0.02 * per_quarter);
    /* 20 GB of 4 KiB random writes after it: 4.88 M overrides in a hash of
     * 2^23 cells (8 bytes each with narrow entries, half as much again
     * while it doubles: 96 MiB), and P2L parts for the 4.88 M slots they
     * went to (1,193 parts and 8 more, in 10 slabs: 20 MiB) */
    CU_ASSERT_TRUE(fabs((r - f) - (96 * mib + 10 * slab)) < 1 * mib);
}

/* ---- describe, listing, JSON ------------------------------------------ */

static void expect_line(const char *text, const char *want)
{
    g_autofree char *needle = g_strdup_printf("%s\n", want);
    if (!strstr(text, needle))
        fprintf(stderr, "missing line: %s\nin:\n%s", want, text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, needle));
}

/* A write buffer too small for the programs the dies have in flight bounds
 * sequential writes: each page's room is held until its program ends, so
 * 32 MiB per 12 ms QLC program, against 384 dies' 8.4 GB/s. */
static void test_describe_buffer_bound(void)
{
    DriveParams p;
    g_autoptr(GError) e = NULL;
    CUTEST_REQUIRE(config_load_file("configs/p5336-61tb.ini", &p, &e));
    g_autoptr(GString) s = g_string_new(NULL);
    config_describe(&p, s);
    CU_ASSERT_PTR_NOT_NULL(strstr(s->str, "sequential writes    bounded by the write buffer at "
                                          "2796.2 MB/s; the host link 7149.9 MB/s"));
}

/* One mapping line per drive, whatever the map unit: a DRAM drive says the
 * table is all in DRAM and nothing about a cache; a drive that caches the
 * table says where, with or without a map unit larger than 4 KiB. */
/* The 990's reserve and background folding show in its pSLC lines. */
static void test_describe_pslc_reserve(void)
{
    DriveParams p;
    g_autoptr(GError) e = NULL;
    g_autoptr(GString) s = g_string_new(NULL);
    CUTEST_REQUIRE(config_load_file("configs/990.ini", &p, &e));
    config_describe(&p, s);
    CU_ASSERT_PTR_NOT_NULL(strstr(s->str, "(146.34GB of native free space kept for GC and folding)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s->str, "idle folding after 1 s, and in die time host writes leave"));
    /* without the reserve the rule gives more at every fill level */
    uint64_t with = pslc_dynamic_limit_at(&p, 0.5);
    p.pslc_reserve = 0;
    CU_ASSERT(pslc_dynamic_limit_at(&p, 0.5) > with);
}

static void test_describe_mapping(void)
{
    DriveParams p;
    g_autoptr(GError) e = NULL;
    g_autoptr(GString) s = g_string_new(NULL);
    CUTEST_REQUIRE(config_load_file("configs/reference.ini", &p, &e));
    config_describe(&p, s);
    CU_ASSERT_PTR_NULL(strstr(s->str, "cached in"));
    CU_ASSERT_PTR_NULL(strstr(s->str, "map unit "));
    /* 1e12 / 4096 x 4 bytes = 931.3 MiB; 64 MB is 6.6% of it */
    p.l2p_kind = L2P_HMB;
    p.l2p_cache = 64000000;
    g_string_truncate(s, 0);
    config_describe(&p, s);
    expect_line(s->str, "mapping table        931.3 MiB, cached in a host memory buffer: 64MB, "
                        "6.6% of the table");
    CU_ASSERT_PTR_NULL(strstr(s->str, "all in DRAM"));
    /* a 16 KiB unit: a quarter of the entries, 232.8 MiB; the cache line
     * stays and the unit gets its own */
    p.map_unit = 16 << 10;
    g_string_truncate(s, 0);
    config_describe(&p, s);
    CU_ASSERT_PTR_NOT_NULL(strstr(s->str, "mapping table        232.8 MiB, cached in a host "
                                          "memory buffer"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s->str, "map unit             16KiB per entry"));
    /* the 61.44 TB drive: DRAM and a 16 KiB unit */
    CUTEST_REQUIRE(config_load_file("configs/p5336-61tb.ini", &p, &e));
    g_string_truncate(s, 0);
    config_describe(&p, s);
    CU_ASSERT_PTR_NOT_NULL(strstr(s->str, "all in DRAM"));
    CU_ASSERT_PTR_NULL(strstr(s->str, "kept for GC and folding"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s->str, "map unit             16KiB per entry"));
    CU_ASSERT_PTR_NULL(strstr(s->str, "cached in"));
}

static void test_describe(void)
{
    DriveParams p;
    g_autoptr(GError) e = NULL;
    CUTEST_REQUIRE(config_load_file("configs/reference.ini", &p, &e));
    g_autoptr(GString) s = g_string_new(NULL);
    config_describe(&p, s);
    /* raw 8 x 2 x 2800 x 1536 x 16384 = 1127428915200 B = 1050 GiB; OP 12.74% */
    expect_line(s->str, "capacity             user 1000.0 GB (931.3 GiB), raw 1127.4 GB "
                        "(1050.0 GiB), over-provisioning 12.7%");
    expect_line(s->str, "dies                 8 = 8 channels x 1 CE/channel x 1 die/CE; 2 planes "
                        "each");
    /* tlc: 2 planes x 16 KiB x 3 = 96 KiB per 2.6 ms = 37.8 MB/s; x 8 dies = 302.5 MB/s */
    expect_line(s->str, "tlc programs         96KiB each, 37.8 MB/s per die, 302.5 MB/s in all");
    expect_line(s->str, "slc programs         32KiB each, 163.8 MB/s per die, 1310.7 MB/s in all");
    expect_line(s->str, "channels             400MT/s x 8 bits = 400.0 MB/s each, 3200.0 MB/s "
                        "in all");
    /* the 4 MiB write buffer, each page's room held through a 2.6 ms tPROG:
     * 4194304 B / 2.6 ms = 1613.2 MB/s */
    expect_line(s->str, "sequential writes    bounded by NAND in tlc mode at 302.5 MB/s; the host "
                        "link 519.0 MB/s (1.72x), the channels 3200.0 MB/s (10.58x), the write "
                        "buffer 1613.2 MB/s (5.33x)");
    /* 1e12 / 4096 x 4 bytes = 976562500 B = 931.3 MiB */
    expect_line(s->str, "mapping table        931.3 MiB, all in DRAM (0 of DRAM, less than the "
                        "table)");
    expect_line(s->str, "pSLC dynamic         none");
    expect_line(s->str, "write buffer         4MiB of host data before it is programmed");
    /* 64 KiB is raised to two program units of the largest mode the FTL
     * sizes for, QLC: 2 planes x 16 KiB x 4 = 128 KiB */
    p.write_buffer = 64 << 10;
    g_string_truncate(s, 0);
    config_describe(&p, s);
    expect_line(s->str, "write buffer         256KiB of host data before it is programmed "
                        "(write_buffer = 64KiB, raised to two program or map units)");
    p.write_buffer = 4 << 20;
    p.timing[CELL_TLC].two_pass = true;
    g_string_truncate(s, 0);
    config_describe(&p, s);
    expect_line(s->str, "tlc programs         96KiB each in two passes, 37.8 MB/s per die, 302.5 "
                        "MB/s in all");
    /* the data crosses the channels twice: 3200 / 2 = 1600 MB/s */
    CU_ASSERT_PTR_NOT_NULL(strstr(s->str, "the channels 1600.0 MB/s"));
    p.timing[CELL_TLC].two_pass = false;
    g_string_truncate(s, 0);
    config_describe(&p, s);
    expect_line(s->str, "gc                   greedy; in the background below 4 free blocks per "
                        "die, ahead of host writes below 2");
    expect_line(s->str, "wear leveling        new blocks last-erased first; no static leveling");
    p.wear_dynamic = true;
    p.wear_static_threshold = 64;
    g_string_truncate(s, 0);
    config_describe(&p, s);
    expect_line(s->str, "wear leveling        new blocks least-worn first; cold data moved past a "
                        "spread of 64 erases");
}

/* p described into s afresh. */
static void describe_again(const DriveParams *p, GString *s)
{
    g_string_truncate(s, 0);
    config_describe(p, s);
}

/* Every fold and GC policy is described by its name in the schema (a
 * third fold policy was once printed as native_first). */
static void test_describe_policies(void)
{
    DriveParams p;
    g_autoptr(GError) e = NULL;
    CUTEST_REQUIRE(config_load_file("configs/reference.ini", &p, &e));
    g_autoptr(GString) s = g_string_new(NULL);
    const ConfigKey *gc = config_schema_find("gc", "policy");
    const ConfigKey *fold = config_schema_find("pslc", "fold_policy");
    CUTEST_REQUIRE(gc && fold && gc->choices && fold->choices);
    unsigned n = 0;
    for (const ConfigChoice *c = gc->choices; c->name; c++, n++) {
        p.gc_policy = c->value;
        describe_again(&p, s);
        g_autofree char *want = g_strdup_printf("\ngc                   %s; ", c->name);
        CU_ASSERT_PTR_NOT_NULL(strstr(s->str, want));
    }
    CU_ASSERT_EQUAL(n, 3); /* greedy, cost_benefit, fifo */
    n = 0;
    for (const ConfigChoice *c = fold->choices; c->name; c++, n++) {
        p.fold_policy = c->value;
        describe_again(&p, s);
        g_autofree char *want = g_strdup_printf("\nfolding              %s, ", c->name);
        CU_ASSERT_PTR_NOT_NULL(strstr(s->str, want));
    }
    CU_ASSERT_EQUAL(n, 2); /* fold_first, native_first */
}

/* Read rates per mode and the bound on sequential reads, with and without
 * cache read, bound by the link, the channels and the dies in turn. */
static void test_describe_reads(void)
{
    DriveParams p;
    g_autoptr(GError) e = NULL;
    CUTEST_REQUIRE(config_load_file("configs/reference.ini", &p, &e));
    g_autoptr(GString) s = g_string_new(NULL);
    describe_again(&p, s);
    /* a round of 2 x 16 KiB: tR 50 us + 81.92 us out at 400 MB/s = 248.4 MB/s
     * per die; with cache read max(50, 81.92) us: the transfer, 400 MB/s */
    expect_line(s->str, "tlc reads            32KiB a round, 248.4 MB/s per die, 1987.1 MB/s in "
                        "all");
    expect_line(s->str, "sequential reads     tlc data bounded by the host link at 554.4 MB/s");
    p.cache_read = true;
    p.pslc_static = 1u << 30;
    describe_again(&p, s);
    expect_line(s->str, "tlc reads            32KiB a round, 400.0 MB/s per die (cache read), "
                        "3200.0 MB/s in all");
    expect_line(s->str, "slc reads            32KiB a round, 400.0 MB/s per die (cache read), "
                        "3200.0 MB/s in all");
    p.interface = HOSTIF_NVME;
    p.pcie_gen = 4;
    p.pcie_lanes = 4;
    describe_again(&p, s);
    expect_line(s->str, "sequential reads     tlc data bounded by the channels at 3200.0 MB/s; "
                        "slc data bounded by the channels at 3200.0 MB/s");
    p.timing[CELL_TLC].t_read = 200000; /* 32 KiB per 200 us = 163.8 MB/s per die */
    describe_again(&p, s);
    expect_line(s->str, "sequential reads     tlc data bounded by the dies at 1310.7 MB/s; "
                        "slc data bounded by the channels at 3200.0 MB/s");
}

static void test_list_drives(void)
{
    g_autoptr(GError) e = NULL;
    g_autofree char *dir = g_dir_make_tmp("ftlsim-config-XXXXXX", &e);
    CUTEST_REQUIRE_PTR(dir);
    g_autofree char *ref = read_text("configs/reference.ini");
    g_autofree char *bad = read_text(BAD_DIR "bad_enum.ini");
    g_autofree char *a = g_build_filename(dir, "b_ref.ini", NULL);
    g_autofree char *b = g_build_filename(dir, "a_bad.ini", NULL);
    g_autofree char *c = g_build_filename(dir, "notes.txt", NULL);
    CU_ASSERT(g_file_set_contents(a, ref, -1, NULL));
    CU_ASSERT(g_file_set_contents(b, bad, -1, NULL));
    CU_ASSERT(g_file_set_contents(c, "not a config", -1, NULL));
    g_autoptr(GString) s = g_string_new(NULL);
    CU_ASSERT(config_list_drives(dir, s, &e));
    g_autofree char *want = g_strdup_printf(
        "a_bad.ini  error: %s: [host] interface = \"usb\": expected one of sata, nvme\n"
        "b_ref.ini  Example 1TB TLC SATA              1000.0 GB  sata  tlc  ok\n",
        b);
    if (strcmp(s->str, want) != 0)
        fprintf(stderr, "got:\n%sexpected:\n%s", s->str, want);
    CU_ASSERT_STRING_EQUAL(s->str, want);
    g_unlink(a);
    g_unlink(b);
    g_unlink(c);
    g_rmdir(dir);
    CU_ASSERT_FALSE(config_list_drives("tests/data/no-such-dir", s, &e));
    CU_ASSERT_PTR_NOT_NULL(e);
}

static void test_json(void)
{
    DriveParams p;
    g_autoptr(GError) e = NULL;
    CUTEST_REQUIRE(config_load_data(full_drive, strlen(full_drive), "full.ini", &p, &e));
    g_autoptr(JsonWriter) w = json_writer_new();
    json_begin_object(w, NULL);
    config_write_json(&p, w);
    json_end_object(w);
    const char *j = json_writer_str(w);
    static const char *const want[] = {
        "\"drive_config\": {",
        "\"drive\": {",
        "\"name\": \"Test NVMe QLC\"",
        "\"user_capacity\": 1649267441664",
        "\"interface\": \"nvme\"",
        "\"cmd_cost\": 1500",
        "\"channel_rate\": 1600000000",
        "\"page_size\": 16384",
        "\"native_mode\": \"qlc\"",
        "\"timing.qlc\": {",
        "\"t_prog\": 5500000",
        "\"one_shot\": false",
        "\"fold_policy\": \"native_first\"",
        "\"policy\": \"deferred\"",
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(want); i++) {
        if (!strstr(j, want[i]))
            fprintf(stderr, "JSON lacks %s\n", want[i]);
        CU_ASSERT_PTR_NOT_NULL(strstr(j, want[i]));
    }
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"sizes", test_sizes},
        {"times", test_times},
        {"transfer rates", test_rates},
        {"bandwidths", test_bandwidths},
        {"percentages, integers, booleans", test_percent_int_bool},
        {"formatting", test_format},
        {"bad configs", test_bad_configs},
        {"line checks", test_line_checks},
        {"overrides (--set)", test_overrides},
        {"rules across keys", test_cross_key_rules},
        {"defaults", test_defaults},
        {"round trip", test_round_trip},
        {"reference.ini", test_reference_ini},
        {"docs list every key", test_docs_list_every_key},
        {"memory estimate", test_memory_estimate},
        {"describe", test_describe},
        {"describe_policies", test_describe_policies},
        {"describe: the write buffer's bound", test_describe_buffer_bound},
        {"describe: one mapping line, DRAM or cached", test_describe_mapping},
        {"describe: the pSLC reserve and background folding", test_describe_pslc_reserve},
        {"describe reads", test_describe_reads},
        {"list drives", test_list_drives},
        {"json", test_json},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("config", tests);
}
