/* test_json.c - JSON writer: a nested document against its exact text,
 * escaping, number formatting (large integers, round-trip doubles,
 * non-finite as null), empty containers and top-level values. */
#include "sim/engine/json.h"
#include "tests/cutest.h"

#include <math.h>

static void test_nested_document(void)
{
    g_autoptr(JsonWriter) w = json_writer_new();
    json_begin_object(w, NULL);
    json_str(w, "drive", "Crucial P3 1TB");
    json_u64(w, "host_write_bytes", UINT64_C(18446744073709551615));
    json_i64(w, "delta", INT64_C(-9223372036854775807) - 1);
    json_double(w, "waf", 1.25);
    json_bool(w, "trim", TRUE);
    json_bool(w, "hmb", FALSE);
    json_null(w, "note");
    json_str(w, "missing", NULL);
    json_begin_object(w, "latency");
    json_begin_object(w, "read");
    json_u64(w, "p99_ns", 81234);
    json_end_object(w);
    json_begin_object(w, "write");
    json_end_object(w);
    json_end_object(w);
    json_begin_array(w, "phases");
    json_begin_object(w, NULL);
    json_str(w, "kind", "pslc");
    json_double(w, "mean_write_MBps", 5.3e2);
    json_end_object(w);
    json_u64(w, NULL, 7);
    json_begin_array(w, NULL);
    json_end_array(w);
    json_begin_array(w, NULL);
    json_double(w, NULL, -0.5);
    json_end_array(w);
    json_end_array(w);
    json_end_object(w);
    CU_ASSERT_STRING_EQUAL(json_writer_str(w), "{\n"
                                               "  \"drive\": \"Crucial P3 1TB\",\n"
                                               "  \"host_write_bytes\": 18446744073709551615,\n"
                                               "  \"delta\": -9223372036854775808,\n"
                                               "  \"waf\": 1.25,\n"
                                               "  \"trim\": true,\n"
                                               "  \"hmb\": false,\n"
                                               "  \"note\": null,\n"
                                               "  \"missing\": null,\n"
                                               "  \"latency\": {\n"
                                               "    \"read\": {\n"
                                               "      \"p99_ns\": 81234\n"
                                               "    },\n"
                                               "    \"write\": {}\n"
                                               "  },\n"
                                               "  \"phases\": [\n"
                                               "    {\n"
                                               "      \"kind\": \"pslc\",\n"
                                               "      \"mean_write_MBps\": 530\n"
                                               "    },\n"
                                               "    7,\n"
                                               "    [],\n"
                                               "    [\n"
                                               "      -0.5\n"
                                               "    ]\n"
                                               "  ]\n"
                                               "}\n");
}

static void test_escaping(void)
{
    g_autoptr(JsonWriter) w = json_writer_new();
    json_begin_object(w, NULL);
    json_str(w, "q\"k", "say \"hi\"\\ \n\r\t\b\f \x01\x1f\x7f end");
    json_str(w, "utf8", "\xc2\xb5s caf\xc3\xa9");
    json_str(w, "bad",
             "a\xff"
             "b");
    json_end_object(w);
    CU_ASSERT_STRING_EQUAL(
        json_writer_str(w),
        "{\n"
        "  \"q\\\"k\": \"say \\\"hi\\\"\\\\ \\n\\r\\t\\b\\f \\u0001\\u001f\\u007f end\",\n"
        "  \"utf8\": \"\xc2\xb5s caf\xc3\xa9\",\n"
        "  \"bad\": \"a\xef\xbf\xbd"
        "b\"\n"
        "}\n");
}

/* The number text of one double written at top level, without the newline. */
static char *double_text(double v)
{
    g_autoptr(JsonWriter) w = json_writer_new();
    json_double(w, NULL, v);
    const char *s = json_writer_str(w);
    size_t n = strlen(s);
    CU_ASSERT(n > 0 && s[n - 1] == '\n');
    return g_strndup(s, n - 1);
}

static void check_double(double v, const char *expected)
{
    g_autofree char *t = double_text(v);
    if (g_strcmp0(t, expected) != 0)
        fprintf(stderr, "json_double(%.17g) = %s, expected %s\n", v, t, expected);
    CU_ASSERT_STRING_EQUAL(t, expected);
}

static void test_doubles(void)
{
    check_double(0.1, "0.1");
    check_double(1.0 / 3.0, "0.3333333333333333");
    check_double(1024.0 * 1024 * 1024 * 1024 * 1000 + 1,
                 "1099511627776001"); /* %.6g would lose it */
    check_double(123456789012.5, "123456789012.5");
    check_double(1e300, "1e+300");
    check_double(5e-324, "4.94065645841247e-324");
    check_double(0.0, "0");
    check_double(NAN, "null");
    check_double(INFINITY, "null");
    check_double(-INFINITY, "null");
    /* Every printed value reads back to the same double. */
    double v = 1.0;
    for (int i = 0; i < 2000; i++) {
        v = v * 1.37 + 0.001 * i;
        if (v > 1e200)
            v = 1.0 / v;
        g_autofree char *t = double_text(v);
        char *end = NULL;
        CU_ASSERT(g_ascii_strtod(t, &end) == v);
        CU_ASSERT(end != t && *end == '\0');
    }
}

/* json_fixed: fio's "%f", so a whole number still reads as a float. */
static void test_fixed(void)
{
    g_autoptr(JsonWriter) w = json_writer_new();
    json_begin_object(w, NULL);
    json_fixed(w, "a", 100.0);
    json_fixed(w, "b", 0.0244140625);
    json_fixed(w, "c", -2.5);
    json_fixed(w, "d", NAN);
    json_end_object(w);
    CU_ASSERT_STRING_EQUAL(json_writer_str(w), "{\n  \"a\": 100.000000,\n  \"b\": 0.024414,\n"
                                               "  \"c\": -2.500000,\n  \"d\": null\n}\n");
}

static void test_top_level_and_empty(void)
{
    g_autoptr(JsonWriter) w = json_writer_new();
    CU_ASSERT_STRING_EQUAL(json_writer_str(w), "");
    json_begin_array(w, NULL);
    json_end_array(w);
    CU_ASSERT_STRING_EQUAL(json_writer_str(w), "[]\n");
    g_autoptr(JsonWriter) o = json_writer_new();
    json_begin_object(o, NULL);
    json_end_object(o);
    CU_ASSERT_STRING_EQUAL(json_writer_str(o), "{}\n");
    g_autoptr(JsonWriter) s = json_writer_new();
    json_str(s, NULL, "x");
    CU_ASSERT_STRING_EQUAL(json_writer_str(s), "\"x\"\n");
    json_writer_free(NULL);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"nested document exact text", test_nested_document},
        {"string escaping", test_escaping},
        {"doubles", test_doubles},
        {"fixed-point doubles, as fio prints them", test_fixed},
        {"top-level values and empty containers", test_top_level_and_empty},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("json", tests);
}
