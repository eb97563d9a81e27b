/*
 * html.c - report.html, see html.h. The page is built in one GString and
 * written once; every text from a file or an option is escaped. Figures
 * are gnuplot SVGs copied in after their XML prologue, with their ids
 * prefixed by the figure's number.
 */
#include "sim/output/html.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

struct HtmlPage {
    GString *body;  /* the page below <body>, so far */
    char *title;    /* plain text */
    guint figures;  /* inline SVGs so far */
};

static const char html_style[] =
    "body{font-family:sans-serif;margin:1.5em auto;max-width:1100px;padding:0 1em;color:#222}"
    "h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid #ccc;padding-bottom:.2em;"
    "margin-top:1.8em}"
    "table{border-collapse:collapse;margin:.6em 0;font-size:.9em;display:block;max-width:100%;overflow-x:auto}"
    "th,td{border:1px solid #ccc;padding:.2em .5em;text-align:right;vertical-align:top}"
    "th{background:#f0f0f0}td.l,th.l{text-align:left}"
    "caption{caption-side:top;text-align:left;font-weight:bold;padding:.3em 0}"
    "pre{background:#f7f7f7;border:1px solid #ddd;padding:.6em;overflow-x:auto;font-size:.85em}"
    "figure{margin:1em 0}figure svg{max-width:100%;height:auto;border:1px solid #eee}"
    "figcaption{font-size:.9em;color:#444}"
    "p.warn{background:#fff4e0;border-left:4px solid #e69500;padding:.4em .6em}"
    ".note{color:#555;font-size:.9em}";

HtmlPage *html_page_new(const char *title)
{
    HtmlPage *page = g_new0(HtmlPage, 1);
    page->body = g_string_new(NULL);
    page->title = g_strdup(title ? title : "ftlsim");
    g_autofree char *t = g_markup_escape_text(page->title, -1);
    g_string_append_printf(page->body, "<h1>%s</h1>\n", t);
    return page;
}

void html_page_free(HtmlPage *page)
{
    if (!page)
        return;
    g_string_free(page->body, TRUE);
    g_free(page->title);
    g_free(page);
}

static void html_escaped(GString *out, const char *text)
{
    g_autofree char *e = g_markup_escape_text(text ? text : "", -1);
    g_string_append(out, e);
}

/* text, escaped, between an opening and a closing tag */
static void html_element(HtmlPage *page, const char *open, const char *close, const char *text)
{
    g_string_append(page->body, open);
    html_escaped(page->body, text);
    g_string_append(page->body, close);
}

void html_heading(HtmlPage *page, const char *text) { html_element(page, "<h2>", "</h2>\n", text); }

void html_paragraph(HtmlPage *page, const char *text) { html_element(page, "<p>", "</p>\n", text); }

void html_warning(HtmlPage *page, const char *text)
{
    html_element(page, "<p class=\"warn\">", "</p>\n", text);
}

void html_pre(HtmlPage *page, const char *text) { html_element(page, "<pre>", "</pre>\n", text); }

void html_label_table(HtmlPage *page, const char *text)
{
    g_auto(GStrv) lines = g_strsplit(text ? text : "", "\n", -1);
    g_string_append(page->body, "<table>\n");
    gboolean open = FALSE;
    for (int i = 0; lines[i]; i++) {
        const char *l = lines[i];
        if (!*l)
            continue;
        if (*l == ' ' && open) { /* continues the row above */
            g_string_append(page->body, "<br>");
            html_escaped(page->body, g_strstrip(lines[i]));
            continue;
        }
        const char *gap = strstr(l, "  ");
        g_autofree char *label = gap ? g_strndup(l, (gsize)(gap - l)) : g_strdup(l);
        const char *value = gap ? gap : "";
        while (*value == ' ')
            value++;
        if (open)
            g_string_append(page->body, "</td></tr>\n");
        g_string_append(page->body, "<tr><th class=\"l\">");
        html_escaped(page->body, label);
        g_string_append(page->body, "</th><td class=\"l\">");
        html_escaped(page->body, value);
        open = TRUE;
    }
    if (open)
        g_string_append(page->body, "</td></tr>\n");
    g_string_append(page->body, "</table>\n");
}

char **csv_fields(const char *line)
{
    GPtrArray *f = g_ptr_array_new();
    GString *cur = g_string_new(NULL);
    gboolean quoted = FALSE;
    for (const char *p = line;; p++) {
        if (quoted) {
            if (*p == '"' && p[1] == '"') {
                g_string_append_c(cur, '"');
                p++;
            } else if (*p == '"') {
                quoted = FALSE;
            } else if (*p) {
                g_string_append_c(cur, *p);
            } else {
                break;
            }
            continue;
        }
        if (*p == '"') {
            quoted = TRUE;
        } else if (*p == ',' || !*p || *p == '\r') {
            g_ptr_array_add(f, g_strdup(cur->str));
            g_string_truncate(cur, 0);
            if (*p != ',')
                break;
        } else {
            g_string_append_c(cur, *p);
        }
    }
    if (quoted)
        g_ptr_array_add(f, g_strdup(cur->str));
    g_string_free(cur, TRUE);
    g_ptr_array_add(f, NULL);
    return (char **)g_ptr_array_free(f, FALSE);
}

/* A cell: numbers right-aligned (the style's default), text left. */
static void html_cell(GString *out, const char *tag, const char *text)
{
    char *end = NULL;
    g_ascii_strtod(text, &end);
    gboolean number = *text && end && *end == '\0';
    g_string_append_printf(out, "<%s%s>", tag, number ? "" : " class=\"l\"");
    html_escaped(out, text);
    g_string_append_printf(out, "</%s>", tag);
}

static void html_caption(GString *out, const char *caption)
{
    if (!caption)
        return;
    g_string_append(out, "<caption>");
    html_escaped(out, caption);
    g_string_append(out, "</caption>");
}

void html_table(HtmlPage *page, const char *const *header, GPtrArray *rows, const char *caption)
{
    GString *b = page->body;
    g_string_append(b, "<table>");
    html_caption(b, caption);
    g_string_append(b, "\n<tr>");
    for (int i = 0; header && header[i]; i++) {
        g_string_append(b, "<th class=\"l\">");
        html_escaped(b, header[i]);
        g_string_append(b, "</th>");
    }
    g_string_append(b, "</tr>\n");
    for (guint r = 0; rows && r < rows->len; r++) {
        char **cells = g_ptr_array_index(rows, r);
        g_string_append(b, "<tr>");
        for (int i = 0; cells[i]; i++)
            html_cell(b, "td", cells[i]);
        g_string_append(b, "</tr>\n");
    }
    g_string_append(b, "</table>\n");
}

void html_csv_table(HtmlPage *page, const char *csv, const char *caption, guint max_rows)
{
    g_auto(GStrv) lines = g_strsplit(csv ? csv : "", "\n", -1);
    g_auto(GStrv) header = lines[0] ? csv_fields(lines[0]) : NULL;
    GPtrArray *rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
    guint total = 0;
    for (int i = 1; lines[0] && lines[i]; i++) {
        if (!*g_strstrip(lines[i]))
            continue;
        total++;
        if (max_rows == 0 || rows->len < max_rows)
            g_ptr_array_add(rows, csv_fields(lines[i]));
    }
    html_table(page, (const char *const *)header, rows, caption);
    if (rows->len < total)
        g_string_append_printf(page->body,
                               "<p class=\"note\">the first %u of %u rows; all are in the CSV "
                               "file</p>\n",
                               rows->len, total);
    g_ptr_array_free(rows, TRUE);
}

gboolean html_csv_file(HtmlPage *page, const char *path, const char *caption, guint max_rows)
{
    g_autofree char *text = NULL;
    if (!g_file_get_contents(path, &text, NULL, NULL) || !g_utf8_validate(text, -1, NULL))
        return FALSE;
    html_csv_table(page, text, caption, max_rows);
    return TRUE;
}

/* Copy svg with every id, and every reference to one, prefixed by pre. */
static void html_svg_ids(GString *out, const char *svg, const char *pre)
{
    static const char *const marks[] = {"id='", "id=\"", "href='#", "href=\"#", "url(#"};
    const char *p = svg;
    while (*p) {
        gboolean hit = FALSE;
        for (unsigned i = 0; i < G_N_ELEMENTS(marks); i++) {
            size_t n = strlen(marks[i]);
            /* a whole attribute name: not the tail of "grid='" or "xlink:id" */
            if (strncmp(p, marks[i], n) == 0 && (p == svg || p[-1] == ' ' || p[-1] == ':' ||
                                                 p[-1] == '\t' || p[-1] == '\n' ||
                                                 marks[i][0] == 'u')) {
                g_string_append_len(out, p, (gssize)n);
                g_string_append(out, pre);
                p += n;
                hit = TRUE;
                break;
            }
        }
        if (!hit)
            g_string_append_c(out, *p++);
    }
}

/* An SVG file (gnuplot's svg terminal) inline as a figure with caption,
 * its ids made unique to the page, so that several figures' <defs> never
 * collide. FALSE (nothing added) when the file cannot be read or holds no
 * <svg> element. */
static gboolean html_svg_file(HtmlPage *page, const char *path, const char *caption)
{
    g_autofree char *text = NULL;
    if (!g_file_get_contents(path, &text, NULL, NULL) || !g_utf8_validate(text, -1, NULL))
        return FALSE;
    const char *svg = strstr(text, "<svg");
    if (!svg || !strstr(svg, "</svg>"))
        return FALSE;
    page->figures++;
    g_autofree char *pre = g_strdup_printf("f%u_", page->figures);
    g_string_append(page->body, "<figure>\n");
    html_svg_ids(page->body, svg, pre);
    if (caption) {
        g_string_append(page->body, "<figcaption>");
        html_escaped(page->body, caption);
        g_string_append(page->body, "</figcaption>");
    }
    g_string_append(page->body, "</figure>\n");
    return TRUE;
}

guint html_svg_figures(HtmlPage *page, const char *dir, const char *const *names,
                       const char *const *captions, gboolean keep)
{
    guint added = 0;
    for (int i = 0; names[i]; i++) {
        g_autofree char *file = g_strdup_printf("%s.svg", names[i]);
        g_autofree char *path = g_build_filename(dir, file, NULL);
        if (html_svg_file(page, path, captions ? captions[i] : NULL))
            added++;
        if (!keep)
            g_unlink(path);
    }
    return added;
}

guint html_figure_count(const HtmlPage *page)
{
    return page->figures;
}

static gboolean html_has_suffix(const char *name, const char *const *suffixes)
{
    for (int i = 0; suffixes && suffixes[i]; i++)
        if (g_str_has_suffix(name, suffixes[i]))
            return TRUE;
    return FALSE;
}

static int html_cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* href for a file name: percent-encoded where a character would end or
 * change the URL. */
static char *html_href(const char *name)
{
    return g_uri_escape_string(name, "/=,+", FALSE);
}

/* A link to a relative path with a text. */
static void html_link(HtmlPage *page, const char *href, const char *text)
{
    g_autofree char *h = html_href(href);
    g_autofree char *eh = g_markup_escape_text(h, -1);
    g_string_append_printf(page->body, "<a href=\"%s\">", eh);
    html_escaped(page->body, text);
    g_string_append(page->body, "</a>");
}

void html_link_list(HtmlPage *page, const char *const *hrefs, const char *const *texts)
{
    g_string_append(page->body, "<ul>\n");
    for (int i = 0; hrefs[i] && texts[i]; i++) {
        g_string_append(page->body, "<li>");
        html_link(page, hrefs[i], texts[i]);
        g_string_append(page->body, "</li>\n");
    }
    g_string_append(page->body, "</ul>\n");
}

void html_file_links(HtmlPage *page, const char *dir, const char *const *suffixes)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    if (!d)
        return;
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    const char *n;
    while ((n = g_dir_read_name(d)))
        if (n[0] != '.' && html_has_suffix(n, suffixes))
            g_ptr_array_add(names, g_strdup(n));
    g_dir_close(d);
    g_ptr_array_sort(names, html_cmp_names);
    g_string_append(page->body, "<ul>\n");
    for (guint i = 0; i < names->len; i++) {
        const char *name = g_ptr_array_index(names, i);
        g_autofree char *path = g_build_filename(dir, name, NULL);
        GStatBuf st;
        g_string_append(page->body, "<li>");
        html_link(page, name, name);
        if (g_stat(path, &st) == 0)
            g_string_append_printf(page->body, " <span class=\"note\">(%.1f kB)</span>",
                                   (double)st.st_size / 1e3);
        g_string_append(page->body, "</li>\n");
    }
    g_string_append(page->body, "</ul>\n");
    g_ptr_array_free(names, TRUE);
}

gboolean html_page_write(HtmlPage *page, const char *dir, GError **error)
{
    g_autoptr(GString) doc = g_string_new("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
                                          "<meta charset=\"utf-8\">\n<title>");
    html_escaped(doc, page->title);
    g_string_append_printf(doc, "</title>\n<style>%s</style>\n</head>\n<body>\n", html_style);
    g_string_append_len(doc, page->body->str, (gssize)page->body->len);
    g_string_append(doc, "</body>\n</html>\n");
    g_autofree char *path = g_build_filename(dir, HTML_REPORT_NAME, NULL);
    g_autofree char *tmp = g_build_filename(dir, "." HTML_REPORT_NAME ".tmp", NULL);
    if (!g_file_set_contents(tmp, doc->str, (gssize)doc->len, error))
        return FALSE;
    if (g_rename(tmp, path) != 0) {
        int e = errno;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "%s: cannot rename to %s: %s",
                    tmp, path, g_strerror(e));
        g_unlink(tmp);
        return FALSE;
    }
    return TRUE;
}
