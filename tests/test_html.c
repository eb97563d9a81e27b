/*
 * test_html.c - report.html's page builder (sim/output/html.c): what a
 * reader could be misled by or a browser could choke on. Text from files is
 * escaped, quoted CSV fields keep their commas, long tables say they are
 * cut, two inline SVGs never share an id, links are encoded, and the page
 * is written whole under its name.
 */
#include "sim/output/html.h"
#include "tests/cutest.h"

#include <glib/gstdio.h>
#include <string.h>

/* Write page into a scratch folder and return report.html's text. */
static char *page_text(HtmlPage *page)
{
    g_autofree char *dir = g_dir_make_tmp("test-html-XXXXXX", NULL);
    if (!dir)
        return NULL;
    GError *e = NULL;
    char *text = NULL;
    if (html_page_write(page, dir, &e)) {
        g_autofree char *path = g_build_filename(dir, HTML_REPORT_NAME, NULL);
        g_file_get_contents(path, &text, NULL, NULL);
        g_autofree char *tmp = g_build_filename(dir, "." HTML_REPORT_NAME ".tmp", NULL);
        CU_ASSERT_FALSE(g_file_test(tmp, G_FILE_TEST_EXISTS)); /* renamed, not left */
    }
    g_clear_error(&e);
    cutest_rm_tree(dir);
    return text;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

static void test_escaping(void)
{
    g_autoptr(HtmlPage) page = html_page_new("drive <b> & \"co\"");
    html_paragraph(page, "a < b && c > d");
    html_pre(page, "</pre><script>alert(1)</script>");
    g_autofree char *t = page_text(page);
    CUTEST_REQUIRE_PTR(t);
    CU_ASSERT_TRUE(g_str_has_prefix(t, "<!DOCTYPE html>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "<h1>drive &lt;b&gt; &amp; &quot;co&quot;</h1>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "a &lt; b &amp;&amp; c &gt; d"));
    CU_ASSERT_PTR_NULL(strstr(t, "<script>"));
    CUTEST_EQ(count(t, "</pre>"), 1);
}

static void test_csv_table(void)
{
    g_autoptr(HtmlPage) page = html_page_new("t");
    html_csv_table(page, "key,\"a, b\",n\nx,\"say \"\"hi\"\"\",1.5\ny,z,2\n\n", "cap", 0);
    html_csv_table(page, "h\n1\n2\n3\n4\n", NULL, 2);
    g_autofree char *t = page_text(page);
    CUTEST_REQUIRE_PTR(t);
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "<th class=\"l\">a, b</th>"));      /* the quoted comma stays */
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "<td class=\"l\">say &quot;hi&quot;</td>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "<td>1.5</td>"));                  /* numbers right-aligned */
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "<caption>cap</caption>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "the first 2 of 4 rows"));         /* a cut table says so */
    CUTEST_EQ(count(t, "<tr>"), 1 + 2 + 1 + 2);                          /* headers and rows */
}

static void test_label_table(void)
{
    g_autoptr(HtmlPage) page = html_page_new("t");
    html_label_table(page, "drive                small\nsimulator memory     a tenth: 9 MiB\n"
                           "                     full: 10 MiB\n");
    g_autofree char *t = page_text(page);
    CUTEST_REQUIRE_PTR(t);
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "<th class=\"l\">drive</th><td class=\"l\">small</td>"));
    /* a line that starts with spaces continues the row above */
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "a tenth: 9 MiB<br>full: 10 MiB"));
    CUTEST_EQ(count(t, "<tr>"), 2);
}

/* Two figures with gnuplot's ids: each gets its own, references follow. */
static void test_svg_ids(void)
{
    g_autofree char *dir = g_dir_make_tmp("test-html-svg-XXXXXX", NULL);
    CUTEST_REQUIRE_PTR(dir);
    g_autofree char *svg = g_build_filename(dir, "a.svg", NULL);
    const char *text = "<?xml version=\"1.0\"?>\n<svg width=\"10\">\n<g id=\"gnuplot_canvas\">"
                       "<defs><path id='gpPt0' d='M0,0'/></defs>"
                       "<use xlink:href='#gpPt0' clip-path=\"url(#gpclip)\" grid='1'/></g></svg>\n";
    CU_ASSERT_TRUE(g_file_set_contents(svg, text, -1, NULL));
    g_autoptr(HtmlPage) page = html_page_new("t");
    static const char *const names[] = {"a", "a", "missing", NULL};
    CUTEST_EQ(html_svg_figures(page, dir, names, NULL, TRUE), 2);
    CUTEST_EQ(html_figure_count(page), 2);
    g_autofree char *t = page_text(page);
    CUTEST_REQUIRE_PTR(t);
    CU_ASSERT_PTR_NULL(strstr(t, "<?xml"));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "id='f1_gpPt0'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "id='f2_gpPt0'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "xlink:href='#f2_gpPt0'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "url(#f1_gpclip)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "grid='1'")); /* not an id */
    CUTEST_EQ(count(t, "id=\"f1_gnuplot_canvas\""), 1);
    /* not kept: the file goes once it is in the page */
    g_autoptr(HtmlPage) page2 = html_page_new("t");
    static const char *const one[] = {"a", NULL};
    CUTEST_EQ(html_svg_figures(page2, dir, one, NULL, FALSE), 1);
    CU_ASSERT_FALSE(g_file_test(svg, G_FILE_TEST_EXISTS));
    cutest_rm_tree(dir);
}

static void test_links(void)
{
    g_autofree char *dir = g_dir_make_tmp("test-html-links-XXXXXX", NULL);
    CUTEST_REQUIRE_PTR(dir);
    static const char *const files[] = {"b.csv", "a b.csv", ".hidden.csv", "x.png", "s.json"};
    for (unsigned i = 0; i < G_N_ELEMENTS(files); i++) {
        g_autofree char *p = g_build_filename(dir, files[i], NULL);
        CU_ASSERT_TRUE(g_file_set_contents(p, "1\n", -1, NULL));
    }
    g_autoptr(HtmlPage) page = html_page_new("t");
    static const char *const suffixes[] = {".csv", ".json", NULL};
    html_file_links(page, dir, suffixes);
    g_autofree char *t = page_text(page);
    cutest_rm_tree(dir);
    CUTEST_REQUIRE_PTR(t);
    const char *a = strstr(t, "href=\"a%20b.csv\""), *b = strstr(t, "href=\"b.csv\"");
    CU_ASSERT_TRUE(a && b && a < b); /* encoded, sorted */
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "href=\"s.json\""));
    CU_ASSERT_PTR_NULL(strstr(t, "hidden"));
    CU_ASSERT_PTR_NULL(strstr(t, "x.png"));
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"text is escaped", test_escaping},
        {"CSV tables", test_csv_table},
        {"label tables", test_label_table},
        {"inline SVGs keep their ids apart", test_svg_ids},
        {"links to files", test_links},
        CU_TEST_INFO_NULL,
    };
    return cutest_run("html", tests);
}
