"""A notebook as one self-contained HTML page that runs nothing and fetches nothing.

nbconvert's lab page loads require.js and MathJax from a CDN and, asked to sanitize, escapes
every heading and paragraph of a Markdown cell (its `clean_html` filter allows a dozen inline
tags). Here TeX becomes MathML on the server (latex2mathml), which browsers render natively,
offline and without a script; Markdown is rendered first and its HTML cleaned afterwards
against the tags a lesson uses; outputs are cleaned by nbconvert's own SanitizeHTML with the
same lists. A Content-Security-Policy in the page forbids scripts and remote loads besides.
"""
from __future__ import annotations

from pathlib import Path

import bleach
from bleach.css_sanitizer import CSSSanitizer
from latex2mathml.converter import convert as latex_to_mathml
from nbconvert import HTMLExporter
from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath
from nbconvert.preprocessors.sanitize import SanitizeHTML
from nbformat.notebooknode import NotebookNode

try:  # jinja2 >= 3: nbconvert passes the template context to the Markdown filter
    from jinja2 import pass_context
except ImportError:  # pragma: no cover
    from jinja2 import contextfilter as pass_context

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
TEMPLATE = "jaxcourse-feedback"

HTML_TAGS = {"a", "abbr", "b", "blockquote", "br", "caption", "code", "dd", "del", "details", "div", "dl", "dt",
             "em", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "kbd", "li", "ol", "p", "pre", "s", "samp",
             "small", "span", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead",
             "tr", "u", "ul", "var"}
MATHML_TAGS = {"math", "menclose", "merror", "mfrac", "mi", "mmultiscripts", "mn", "mo", "mover", "mpadded",
               "mphantom", "mprescripts", "mroot", "mrow", "ms", "mspace", "msqrt", "mstyle", "msub", "msubsup",
               "msup", "mtable", "mtd", "mtext", "mtr", "munder", "munderover", "none", "semantics", "annotation"}
TAGS = HTML_TAGS | MATHML_TAGS
ATTRIBUTES = {
    "*": ["class", "id", "title"],
    "a": ["href", "title"],
    "img": ["src", "alt", "title", "width", "height"],
    "td": ["align", "colspan", "rowspan", "style"],
    "th": ["align", "colspan", "rowspan", "style"],
    "details": ["open"],
    "math": ["display", "xmlns"],
    "mo": ["stretchy", "fence", "separator", "lspace", "rspace", "form", "largeop", "movablelimits", "accent",
           "minsize", "maxsize", "symmetric"],
    "mi": ["mathvariant"], "mn": ["mathvariant"], "mtext": ["mathvariant"],
    "mstyle": ["displaystyle", "scriptlevel", "mathvariant", "mathsize"],
    "mtable": ["columnalign", "rowalign", "columnspacing", "rowspacing", "columnlines", "rowlines", "frame"],
    "mtd": ["columnalign", "rowalign", "columnspan", "rowspan"],
    "mspace": ["width", "height", "depth"],
    "mpadded": ["width", "height", "depth", "lspace", "voffset"],
    "menclose": ["notation"],
    "mover": ["accent"], "munder": ["accentunder"], "munderover": ["accent", "accentunder"],
    "mfrac": ["linethickness"],
    "annotation": ["encoding"],
}
# Table alignment is all the inline CSS a lesson's Markdown writes.
CSS = CSSSanitizer(allowed_css_properties=["text-align"])


def clean(html: str) -> str:
    """HTML reduced to the allowed tags and attributes; anything else is shown as text, never run."""
    return bleach.clean(html, tags=TAGS, attributes=ATTRIBUTES, css_sanitizer=CSS, strip=False,
                        strip_comments=True)


def mathml(tex: str, display: str) -> str:
    """TeX as MathML, or the TeX itself as code where latex2mathml cannot read it."""
    try:
        return latex_to_mathml(tex, display=display)
    except Exception:  # latex2mathml raises its own zoo of errors on TeX it does not know
        return f"<code>{bleach.clean(tex, tags=set())}</code>"


class MathMLRenderer(IPythonRenderer):
    """nbconvert's Markdown renderer, with math as MathML instead of text left for MathJax."""

    def block_math(self, body: str) -> str:
        return mathml(body, "block")

    def inline_math(self, body: str) -> str:
        return mathml(body, "inline")

    def latex_environment(self, name: str, body: str) -> str:
        return mathml(f"\\begin{{{name}}}{body}\\end{{{name}}}", "block")

    def multiline_math(self, text: str) -> str:
        return mathml(text.strip().strip("$"), "block")


def markdown_to_html(source: str) -> str:
    return clean(MarkdownWithMath(renderer=MathMLRenderer(escape=False)).render(source))


class SanitizeOutputs(SanitizeHTML):
    """nbconvert's sanitizer with this page's lists, for outputs and raw cells. Markdown cells are
    left to `markdown_to_html`, which cleans after rendering rather than before."""

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "markdown":
            return cell, resources
        for output in cell.get("outputs", []):  # shown as escaped TeX source without MathJax
            data = output.get("data")
            if isinstance(data, dict) and "text/latex" in data and "text/plain" in data:
                del data["text/latex"]
        return super().preprocess_cell(cell, resources, index)


class PageExporter(HTMLExporter):
    """The lab template, made offline and script-free (templates/jaxcourse-feedback)."""

    @pass_context
    def markdown2html(self, context, source):
        return markdown_to_html(source)


def sanitize(nb: NotebookNode) -> NotebookNode:
    """Outputs and raw cells cleaned for `render`; scripts and unknown output types dropped."""
    nb, _ = SanitizeOutputs(tags=sorted(TAGS), attributes=ATTRIBUTES, strip=False).preprocess(nb, {})
    return nb


def render(nb: NotebookNode, title: str, summary: str) -> str:
    """The page of a `sanitize`d notebook: `summary` (trusted HTML) at the top of the body."""
    exporter = PageExporter(template_name=TEMPLATE, extra_template_basedirs=[str(TEMPLATES)])
    body, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": title},
                                                        "jaxcourse_summary": summary})
    return body
