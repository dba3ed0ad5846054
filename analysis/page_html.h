/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * page_html.h: a run's or a matrix's page, index.html, self-contained: its Markdown
 * (summary.md, matrix.md) rendered by cmark-gfm (GitHub's own renderer, as GitHub shows
 * the file: tables included), each embedded SVG plot inlined into the page, the links
 * (flame graphs) left relative, and the settings, machine and kernel in tables after it.
 * It loads nothing: no script, no style sheet, no image, no font from outside.
 */
#ifndef XDPTC_PAGE_HTML_H
#define XDPTC_PAGE_HTML_H

#include <jansson.h>
#include <stddef.h>

/* What a page shows after its Markdown: @n objects, each a table under its heading. */
struct page_facts {
	const char *heading[4];
	const json_t *obj[4];
	int n;
};

/*
 * page_html_write - @dir/index.html from the Markdown file @dir/@md and @facts. The
 * first heading is the page's title and carries id "title"; a paragraph right after it
 * is the headline (id "headline"); a paragraph that holds only an image of an SVG file
 * in @dir becomes a figure with that SVG inline (its ids prefixed by the file's name, so
 * that two plots' ids never collide) and the image's text as its caption; raw HTML in the
 * Markdown is shown as text. Written to a temporary file and renamed.
 * Returns 0, or -errno with a sentence in @err (-ENOENT: no @md; -ENOMEM; -EIO).
 */
int page_html_write(const char *dir, const char *md, const struct page_facts *facts,
		    char *err, size_t errlen);

#endif
