"""Lists that are a page's layout (``webrobot/extract/layoutlists.py``), and the main text of
a Javadoc page whose summary tables keep their rows."""

from __future__ import annotations

import lxml.html
import pytest

from webrobot.extract.layoutlists import is_layout, unlist_layout

JAVADOC = """<html><head><title>Account</title><meta name="generator" content="javadoc">
</head><body><header><nav>Overview Package Class Tree Deprecated Index Help</nav></header>
<main role="main"><div class="header"><h1 title="Class Account">Class Account</h1></div>
<section class="description"><pre>public class Account extends java.lang.Object</pre>
<div class="block">An account that signs and sends the transactions of one private key.</div>
</section>
<section class="summary"><ul class="summary-list">
<li><section class="method-summary"><h2>Method Summary</h2>
<table class="summary-table"><thead><tr><th>Modifier and Type</th><th>Method</th>
<th>Description</th></tr></thead><tbody>
<tr><td><code>java.lang.String</code></td><th><code>call(java.lang.String contract)</code></th>
<td>Calls a contract without sending a transaction.</td></tr>
<tr><td><code>static Account</code></td><th><code>create(Cfx cfx, java.lang.String key)</code></th>
<td>Creates an account from a private key.</td></tr></tbody></table></section></li>
<li><section class="constructor-summary"><h2>Constructor Summary</h2>
<table class="summary-table"><tr><th>Constructor</th><th>Description</th></tr>
<tr><td><code>Account(Cfx cfx)</code></td><td>An account of the node's first key.</td></tr>
</table></section></li>
</ul></section></main><footer><nav>Overview Package Class Tree</nav></footer>
</body></html>"""


def test_a_list_whose_items_are_sections_with_headings_is_layout() -> None:
    tree = lxml.html.fromstring(JAVADOC)
    assert unlist_layout(tree) == 1
    assert not tree.xpath("//main//ul | //main//li")
    assert len(tree.xpath("//main//table")) == 2


@pytest.mark.parametrize(
    "html",
    [
        "<ul><li>Loft curves.</li><li>Mirror objects.</li></ul>",
        "<ul><li><h3>A card</h3><p>Its blurb.</p></li><li><h3>B</h3><p>b</p></li></ul>",
        "<ul><li><h3>A</h3><table><tr><td>a</td></tr></table></li><li>plain</li></ul>",
        "<ul><li><a href='/a'>Menu</a><ul><li>Sub</li></ul></li></ul>",
    ],
)
def test_a_list_of_items_stays_a_list(html: str) -> None:
    tree = lxml.html.fromstring(f"<div>{html}</div>")
    assert not is_layout(tree.find(".//ul"))
    assert unlist_layout(tree) == 0


def test_the_main_text_reads_each_summary_row_on_its_own_line() -> None:
    pytest.importorskip("trafilatura")
    from benchmarks.quality import source_page
    from webrobot.extract.maintext import main_text

    text = main_text(source_page("https://api.example/Account.html", JAVADOC)) or ""
    lines = [" ".join(line.replace("|", " ").split()) for line in text.split("\n")]
    assert "Method Summary" in lines
    assert "Constructor Summary" in lines
    assert (
        "java.lang.String call(java.lang.String contract) "
        "Calls a contract without sending a transaction." in lines
    )
    assert "Account(Cfx cfx) An account of the node's first key." in lines
