/*
 * html.h - report.html, the page of a results folder: one self-contained
 * HTML file (styles inline, figures as inline SVG, no script, nothing
 * fetched from the network) with the summary, tables, figures and links
 * to the folder's files. Each command fills a page with what its folder
 * holds (run.c, pts_report.c, calibrate_out.c, sweep.c).
 */
#ifndef FTLSIM_HTML_H
#define FTLSIM_HTML_H

#include <glib.h>

#define HTML_REPORT_NAME "report.html"

typedef struct HtmlPage HtmlPage;

/* A page titled title (plain text, escaped here). Returns an owned page. */
HtmlPage *html_page_new(const char *title);
/* Accepts NULL. */
void html_page_free(HtmlPage *page);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(HtmlPage, html_page_free)

/* A section heading (level 2). */
void html_heading(HtmlPage *page, const char *text);
/* A paragraph of plain text. */
void html_paragraph(HtmlPage *page, const char *text);
/* A paragraph marked as a warning: what a reader must not overlook. */
void html_warning(HtmlPage *page, const char *text);
/* Preformatted text (a summary.txt), kept as it is. */
void html_pre(HtmlPage *page, const char *text);

/* Text of "label   value" lines (the output of ftlsim check: a label, two
 * or more spaces, the value; a line starting with spaces continues the one
 * above) as a two-column table. */
void html_label_table(HtmlPage *page, const char *text);

/* The fields of one CSV line; a field in double quotes may hold commas
 * and "" for a quote. The caller g_strfreev()s it. */
char **html_csv_fields(const char *line);

/* A table from CSV text: the first line is the header. Fields may be
 * double-quoted. At most max_rows data rows are shown (0: all), with a
 * note of how many there are. caption may be NULL. */
void html_csv_table(HtmlPage *page, const char *csv, const char *caption, guint max_rows);
/* html_csv_table() of the file at path; FALSE (nothing added) when it
 * cannot be read. */
gboolean html_csv_file(HtmlPage *page, const char *path, const char *caption, guint max_rows);

/* A table from rows of cells: header is NULL-terminated, rows a GPtrArray
 * of NULL-terminated string vectors (GStrv), plain text. */
void html_table(HtmlPage *page, const char *const *header, GPtrArray *rows, const char *caption);

/* The figures dir/NAME.svg for each of names (NULL-terminated), those
 * that exist, inline in that order with captions[i] (captions may be
 * NULL); each file is removed after when !keep (figures drawn only for
 * the page). Returns how many were added. */
guint html_svg_figures(HtmlPage *page, const char *dir, const char *const *names,
                       const char *const *captions, gboolean keep);
/* The figures in the page so far. */
guint html_figure_count(const HtmlPage *page);

/* Links to the files of dir whose names end in one of the NULL-terminated
 * suffixes (".csv", ".json", ...), sorted by name, with their sizes. */
void html_file_links(HtmlPage *page, const char *dir, const char *const *suffixes);
/* A list of links: hrefs and texts, parallel, NULL-terminated. */
void html_link_list(HtmlPage *page, const char *const *hrefs, const char *const *texts);

/* Write the page to dir/report.html through a temporary name, so that a
 * report that exists is whole. */
gboolean html_page_write(HtmlPage *page, const char *dir, GError **error);

#endif
